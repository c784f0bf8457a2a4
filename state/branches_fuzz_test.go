package state

import (
	"encoding/json"
	"strconv"
	"testing"
)

// Whatever order messages, versions, selections and feedback come in, the
// items shown are the path's, each once, and every message of the path
// follows the one before it.
func FuzzBranches(f *testing.F) {
	f.Add([]byte{0, 1, 3, 0, 1, 3, 2, 1, 3, 2, 4})
	f.Add([]byte{0, 0, 0, 10, 11, 12, 2, 7, 2, 1, 3, 5})
	f.Add([]byte{3, 0, 1, 3, 0, 16, 1, 3, 7, 12, 2, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := New(DefaultOptions())
		var ids []string
		pick := func(b byte) string {
			if len(ids) == 0 || b%7 == 6 {
				return "unknown"
			}
			return ids[int(b)%len(ids)]
		}
		for i, op := range ops {
			n := strconv.Itoa(i)
			var ev string
			switch op % 6 {
			case 0:
				parent := ""
				switch {
				case op/6%3 == 1:
					parent = `,"parent_id":null`
				case op/6%3 == 2:
					parent = `,"parent_id":"` + pick(op/18) + `"`
				}
				ev = `{"type":"user_message","message_id":"u` + n + `"` + parent + `,"content":"q` + n + `"}`
				ids = append(ids, "u"+n)
			case 1:
				ev = `{"type":"answer_start","message_id":"a` + n + `","parent_id":"` + pick(op/6) + `"}`
				ids = append(ids, "a"+n)
			case 2:
				ev = `{"type":"branch_selected","message_id":"` + pick(op/6) + `"}`
			case 3:
				applyTo(s, msgStart, textStart(0, false), textDelta(0, "t"+n), stop(0), msgStop)
				continue
			case 4:
				ev = `{"type":"feedback","message_id":"` + pick(op/6) + `","rating":"up"}`
			case 5:
				applyTo(s, msgStart, groupStart, toolUse(0, "t"+n, "x", "X"))
				continue
			}
			s.ApplyJSON([]byte(ev))
			checkTree(t, s)
		}
		if _, err := json.Marshal(s.View()); err != nil {
			t.Fatal(err)
		}
	})
}

func checkTree(t *testing.T, s *Store) {
	t.Helper()
	seen := map[*Item]bool{}
	for _, it := range s.items {
		if seen[it] {
			t.Fatalf("item %d shown twice", it.Key)
		}
		seen[it] = true
	}
	if s.tree == nil {
		return
	}
	prev := &s.tree.root
	first := 0
	for i, n := range s.tree.path {
		if n.pos != i || n.parent != prev || n.items != nil {
			t.Fatalf("path[%d] = %s: pos %d, parent %q, %d items put away", i, n.ref.ID, n.pos, n.parent.ref.ID, len(n.items))
		}
		if n.first < first || n.first > len(s.items) {
			t.Fatalf("path[%d] = %s starts at %d (after %d, of %d)", i, n.ref.ID, n.first, first, len(s.items))
		}
		if n.ref.Role == "user" && (n.first >= len(s.items) || s.items[n.first] != n.marker || n.marker.Kind != KindUser) {
			t.Fatalf("user message %s does not start with its user item", n.ref.ID)
		}
		first, prev = n.first, n
	}
	for id, n := range s.tree.byID {
		if n.pos < 0 {
			for _, it := range n.items {
				if seen[it] {
					t.Fatalf("an item of %s, off the path, is shown", id)
				}
			}
		}
	}
}
