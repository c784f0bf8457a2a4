package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// A native conversation whose messages have ids, in events.
func userMsg(id, parent, text string) string {
	p := `"parent_id":null`
	if parent != "" {
		p = `"parent_id":"` + parent + `"`
	}
	return `{"type":"user_message","message_id":"` + id + `",` + p + `,"created_at":"2026-03-02T09:14:05Z","content":[{"type":"text","text":"` + text + `"}]}`
}

func answerStart(id, parent string) string {
	return `{"type":"answer_start","message_id":"` + id + `","parent_id":"` + parent + `"}`
}

// answer is a whole answer: text, its turn's end.
func answer(text string) []string {
	return []string{msgStart, textStart(0, false), textDelta(0, text), stop(0), msgStop}
}

func exchange(uid, parent, text, aid, reply string) []string {
	return append([]string{userMsg(uid, parent, text), answerStart(aid, uid)}, answer(reply)...)
}

// shown is what the items say, in order: a user item's text as "> text",
// a text item's text, with "[id i/n]" after an item that carries a message.
func shown(s *Store) []string {
	var out []string
	for _, it := range s.Items() {
		line := it.Text
		if it.Kind == KindUser {
			line = "> " + it.Text
		}
		if m := it.Message; m != nil {
			line += " [" + m.ID + " " + itoa(m.Index) + "/" + itoa(m.Count) + "]"
		}
		out = append(out, line)
	}
	return out
}

func TestBranchesRegenerateEditSelect(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, exchange("u1", "", "hello", "a1", "hi")...)
	applyTo(s, exchange("u2", "a1", "weather?", "a2", "sunny")...)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hi [a1 1/1]", "> weather? [u2 1/1]", "sunny [a2 1/1]"}, shown(s))
	assert.Equal(t, StatusIdle, s.Status())

	// Regenerate a2: a new version of the answer to u2.
	applyTo(s, answerStart("a3", "u2"))
	assert.Equal(t, StatusRunning, s.Status(), "the regenerated answer runs")
	applyTo(s, answer("rainy")...)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hi [a1 1/1]", "> weather? [u2 1/1]", "rainy [a3 2/2]"}, shown(s))
	assert.True(t, s.Items()[3].Brand, "the new answer has the brand")

	// Back to the first version: its items as they were.
	ch := s.ApplyJSON([]byte(`{"type":"branch_selected","message_id":"a2"}`))
	require.Equal(t, Applied, ch.Outcome)
	assert.True(t, ch.List)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hi [a1 1/1]", "> weather? [u2 1/1]", "sunny [a2 1/2]"}, shown(s))

	// Edit u2: a new version of the question, after a1.
	applyTo(s, exchange("u3", "a1", "weather tomorrow?", "a4", "snow")...)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hi [a1 1/1]", "> weather tomorrow? [u3 2/2]", "snow [a4 1/1]"}, shown(s))
	ref, text, _, ok := s.Message("u2")
	require.True(t, ok)
	assert.Equal(t, "weather?", text)
	assert.Equal(t, "a1", ref.ParentID)

	// Selecting u2 follows the version of its answer last shown (a2).
	applyTo(s, `{"type":"branch_selected","message_id":"u2"}`)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hi [a1 1/1]", "> weather? [u2 1/2]", "sunny [a2 1/2]"}, shown(s))
	assert.Equal(t, []string{"u1", "a1", "u2", "a2"}, s.PathMessageIDs())
	assert.Equal(t, "a2", s.LastMessageID())

	// Editing the first message: a version at the conversation's start.
	applyTo(s, exchange("u5", "", "bonjour", "a5", "salut")...)
	assert.Equal(t, []string{"> bonjour [u5 2/2]", "salut [a5 1/1]"}, shown(s))
	applyTo(s, `{"type":"branch_selected","message_id":"u1"}`)
	assert.Equal(t, []string{"> hello [u1 1/2]", "hi [a1 1/1]", "> weather? [u2 1/2]", "sunny [a2 1/2]"}, shown(s))

	// A selection of a message the store does not have is skipped.
	ch = s.ApplyJSON([]byte(`{"type":"branch_selected","message_id":"nope"}`))
	assert.Equal(t, Skipped, ch.Outcome)
}

func TestBranchesFeedbackAndView(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, exchange("u1", "", "hello", "a1", "hi")...)
	applyTo(s, answerStart("a2", "u1"))
	applyTo(s, answer("hey")...)
	applyTo(s, `{"type":"feedback","message_id":"a2","rating":"down","comment":"too short"}`)
	v := viewJSON(t, s)
	items := v["items"].([]any)
	require.Len(t, items, 2)
	assert.Equal(t, map[string]any{"id": "u1", "role": "user", "created_at": "2026-03-02T09:14:05Z"}, items[0].(map[string]any)["message"])
	assert.Equal(t, map[string]any{
		"id": "a2", "role": "assistant",
		"branch":   map[string]any{"index": 2.0, "count": 2.0, "siblings": []any{"a1", "a2"}},
		"feedback": map[string]any{"rating": "down", "comment": "too short"},
	}, items[1].(map[string]any)["message"])
	assert.Equal(t, "hey", items[1].(map[string]any)["text"], "the item's own fields stay")

	// Feedback taken back.
	applyTo(s, `{"type":"feedback","message_id":"a2","rating":null}`)
	assert.Nil(t, s.Items()[1].Message.Feedback)
	assert.Equal(t, Skipped, s.ApplyJSON([]byte(`{"type":"feedback","message_id":"zz","rating":"up"}`)).Outcome)
}

// A conversation whose messages have no ids reads as before: no message
// in the view model, the same items.
func TestNoIDsNoTree(t *testing.T) {
	s := apply(t, append([]string{`{"type":"user_message","content":[{"type":"text","text":"hi"}]}`}, answer("hello")...)...)
	raw, err := json.Marshal(s.View())
	require.NoError(t, err)
	assert.JSONEq(t, `{"agent_status":"idle","last_event_id":null,"skipped":0,"pending":null,"sources":[],
		"items":[{"kind":"user","text":"hi"},{"kind":"text","brand":true,"text":"hello","final":false}]}`, string(raw))
	assert.Equal(t, "", s.LastMessageID())
	_, _, _, ok := s.Message("x")
	assert.False(t, ok)
}

// A conversation that had no ids and then gets them keeps its first items
// on every path.
func TestBranchesAfterMessagesWithoutIDs(t *testing.T) {
	s := apply(t, append([]string{`{"type":"user_message","content":"old"}`}, answer("old answer")...)...)
	applyTo(s, exchange("u1", "", "new", "a1", "new answer")...)
	applyTo(s, exchange("u2", "", "edited", "a2", "other")...)
	assert.Equal(t, []string{"> old", "old answer", "> edited [u2 2/2]", "other [a2 1/1]"}, shown(s))
	applyTo(s, `{"type":"branch_selected","message_id":"u1"}`)
	assert.Equal(t, []string{"> old", "old answer", "> new [u1 1/2]", "new answer [a1 1/1]"}, shown(s))
}

// A branch switch in the middle of a run ends what the run had open.
func TestBranchSwitchEndsWhatWasOpen(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, exchange("u1", "", "q", "a1", "r")...)
	applyTo(s, lines(answerStart("a2", "u1"), msgStart, groupStart, toolUse(0, "t1", "get", "Get"),
		approvalReq(1, "k1", `[{"name":"get","args":{}}]`))...)
	require.NotNil(t, s.Pending())
	applyTo(s, `{"type":"branch_selected","message_id":"a1"}`)
	assert.Nil(t, s.Pending(), "the card that left the path expired")
	applyTo(s, `{"type":"branch_selected","message_id":"a2"}`)
	g := s.Items()[1]
	require.Equal(t, KindGroup, g.Kind)
	assert.False(t, g.Group.Open)
}

// A history that carries ids: the path, with each message's versions.
func TestHistoryWithBranches(t *testing.T) {
	h := `{"agent_status":"idle","messages":[
		{"role":"user","id":"u1","parent_id":null,"content":[{"type":"text","text":"hello"}],"created_at":"2026-03-02T09:14:05Z"},
		{"role":"assistant","id":"a2","parent_id":"u1","siblings":["a1","a2"],"feedback":{"rating":"up"},"content":[{"type":"text","text":"hey"}]},
		{"role":"assistant","content":[{"type":"text","text":"and more","is_part":false}]},
		{"role":"user","id":"u9","parent_id":"a2","siblings":["u3","u9","u12"],"content":[{"type":"text","text":"again"},
			{"type":"image","source":{"type":"file","file_id":"f1"},"file":{"name":"chart.png","media_type":"image/png","size":1234,"width":80,"height":60,"url":"files/f1"}}]}
	]}`
	o := DefaultOptions()
	o.FilesBase = "http://localhost:8080/api/sessions/s1/history"
	s := New(o)
	hist := decodeHistory(t, h)
	s.LoadHistory(hist)
	assert.Equal(t, []string{"> hello [u1 1/1]", "hey", "and more [a2 2/2]", "> again [u9 2/3]"}, shown(s))
	assert.Equal(t, "up", s.Items()[2].Message.Feedback.Rating)
	u := s.Items()[3]
	require.Len(t, u.Attachments, 1)
	a := u.Attachments[0]
	assert.Equal(t, "http://localhost:8080/api/sessions/s1/files/f1", a.URL)
	assert.Equal(t, a.URL, a.Src)
	assert.True(t, a.Image)
	assert.Equal(t, 80, a.Width)
	// Versions named by the history but not held: selecting one is not
	// the store's to do (the page loads the history again).
	_, _, _, ok := s.Message("u3")
	assert.False(t, ok)

	// A regenerate after a history adds a third version.
	applyTo(s, answerStart("a7", "u9"))
	applyTo(s, answer("third")...)
	assert.Equal(t, "third [a7 1/1]", shown(s)[4])
}

func decodeHistory(t *testing.T, h string) *wire.History {
	t.Helper()
	hist, err := wire.DecodeHistory([]byte(h))
	require.NoError(t, err)
	return hist
}
