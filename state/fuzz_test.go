package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"stepwise/state/wire"
)

// checkInvariants fails when the store's structure is broken: every tool id
// appears once, groups never nest, steps know their group, only the last
// group may be open, pending items are unresolved.
func checkInvariants(t *testing.T, s *Store) {
	t.Helper()
	seenTools := map[string]bool{}
	seenKeys := map[int]bool{}
	openGroups := 0
	visit := func(it *Item, parent *Item) {
		if seenKeys[it.Key] {
			t.Fatalf("item key %d appears twice", it.Key)
		}
		seenKeys[it.Key] = true
		if it.parent != parent {
			t.Fatalf("item %d has parent %v, is held by %v", it.Key, it.parent, parent)
		}
		if it.Kind == KindTool {
			if seenTools[it.Tool.ID] {
				t.Fatalf("tool id %q appears twice", it.Tool.ID)
			}
			seenTools[it.Tool.ID] = true
			if s.tools[it.Tool.ID] != it {
				t.Fatalf("tool %q is not the one indexed", it.Tool.ID)
			}
		}
	}
	for _, it := range s.items {
		visit(it, nil)
		if it.Kind != KindGroup {
			continue
		}
		g := it.Group
		if g.Open {
			openGroups++
			if s.group != it {
				t.Fatalf("group %d is open but not the store's open group", it.Key)
			}
		}
		if v := g.Visible(); v > len(g.Steps) || (g.Open && v > MaxVisibleRunning) {
			t.Fatalf("group %d shows %d of %d steps", it.Key, v, len(g.Steps))
		}
		for _, st := range g.Steps {
			if st.Kind == KindGroup {
				t.Fatalf("group %d nests group %d", it.Key, st.Key)
			}
			visit(st, it)
		}
	}
	if openGroups > 1 {
		t.Fatalf("%d groups open", openGroups)
	}
	if s.group != nil && openGroups == 0 {
		t.Fatalf("the store's open group is not in the list")
	}
	for _, p := range s.pending {
		if (p.Question != nil && p.Question.State != QuestionPending) || (p.Approval != nil && p.Approval.State != ApprovalPending) {
			t.Fatalf("resolved item %d is still pending", p.Key)
		}
	}
	if plan, ok := s.Plan(); ok {
		it := s.tools[plan.ToolID]
		if it == nil || it.Key != plan.ItemKey || !IsPlanTool(it.Tool.Name) {
			t.Fatalf("the plan names tool %q (item %d), not a planning call of the store", plan.ToolID, plan.ItemKey)
		}
		if len(plan.Todos) > MaxTodos {
			t.Fatalf("the plan has %d entries", len(plan.Todos))
		}
		for _, td := range plan.Todos {
			if td.Content == "" || !todoStatusKnown[td.Status] {
				t.Fatalf("plan entry %+v", td)
			}
		}
	}
	checkCitations := func(it *Item) {
		prev := 0
		for _, c := range it.Citations {
			if it.Kind != KindText || c.N < 1 || c.At < prev || c.At > len(it.Text) {
				t.Fatalf("item %d has citation %+v (text of %d bytes, previous at %d)", it.Key, c, len(it.Text), prev)
			}
			prev = c.At
		}
	}
	for _, it := range s.items {
		checkCitations(it)
		if it.Group != nil {
			for _, st := range it.Group.Steps {
				checkCitations(st)
			}
		}
	}
	for it := range s.active {
		if it.Tool.Status != ToolActive {
			t.Fatalf("tool %q in the active set is %s", it.Tool.ID, it.Tool.Status)
		}
	}
	if _, err := json.Marshal(s.View()); err != nil {
		t.Fatalf("view does not marshal: %v", err)
	}
}

// conformanceSeeds returns each conformance case's events as JSONL, and its
// history when it has one.
func conformanceSeeds(t testing.TB) (streams, histories [][]byte) {
	files, _ := filepath.Glob("../server/replay/testdata/conformance/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			History json.RawMessage   `json:"history"`
			Events  []json.RawMessage `json:"events"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, ev := range c.Events {
			var raw string
			if json.Unmarshal(ev, &raw) == nil {
				b.WriteString(raw)
			} else {
				json.Compact(&b, ev)
			}
			b.WriteByte('\n')
		}
		streams = append(streams, b.Bytes())
		if len(c.History) > 0 {
			histories = append(histories, c.History)
		}
	}
	// The Anthropic transcripts and cases (BACKENDS.md section 1).
	for _, pattern := range []string{"../server/replay/testdata/*/*.jsonl", "../server/replay/testdata/*/*.history.json"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Ext(f) == ".jsonl" {
				streams = append(streams, data)
			} else {
				histories = append(histories, data)
			}
		}
	}
	return streams, histories
}

func FuzzDecodeEvent(f *testing.F) {
	streams, _ := conformanceSeeds(f)
	for _, s := range streams {
		for _, line := range bytes.Split(s, []byte("\n")) {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		ev, err := wire.DecodeEvent(frame)
		if err != nil {
			return
		}
		s := New(DefaultOptions())
		s.Apply(&ev)
		checkInvariants(t, s)
	})
}

func FuzzDecodeHistory(f *testing.F) {
	_, histories := conformanceSeeds(f)
	for _, h := range histories {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := wire.DecodeHistory(data)
		if err != nil {
			return
		}
		s := New(DefaultOptions())
		s.LoadHistory(h)
		checkInvariants(t, s)
	})
}

// FuzzStoreJSONL applies a stream of raw lines, as the browser would.
func FuzzStoreJSONL(f *testing.F) {
	streams, _ := conformanceSeeds(f)
	for _, s := range streams {
		f.Add(s)
	}
	f.Add([]byte(`{"type":"message_start","message":{"id":"m"}}
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"p1","name":"write_todos","input":{"todos":[{"content":"a","status":"in_progress"},"b",{"text":"c","done":true},null]}}}
{"type":"content_block_stop","index":0}
{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"p2","name":"write_todos","input":{}}}
{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"todos\":[{\"content\":\"a\",\"status\":\"completed\"}"}}
{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"]}"}}
{"type":"content_block_stop","index":1}
{"type":"message_stop"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(DefaultOptions())
		for _, line := range bytes.Split(data, []byte("\n")) {
			s.ApplyJSON(line)
		}
		checkInvariants(t, s)
	})
}

// opTemplates are event shapes the ops fuzzer combines; %[1]d is a small
// index and %[2]s a small id, so blocks, tools and approval keys collide
// often and every merge path is taken.
var opTemplates = []string{
	`{"type":"message_start","message":{"id":"m","message_type":"chat"}}`,
	`{"type":"message_start","message":{"id":"m","message_type":"step"}}`,
	`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`,
	`{"type":"message_stop"}`,
	`{"type":"group_start","index":%[1]d,"summary":"S%[2]s"}`,
	`{"type":"group_end","index":%[1]d,"summary":"E%[2]s"}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"text","text":"t","is_part":true}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"text","text":"t"}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"thinking","thinking":"h"}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"text_delta","text":"x"}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`,
	`{"type":"content_block_stop","index":%[1]d}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"tool_use","id":"t%[2]s","name":"run","input":{}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"tool_use","id":"t%[2]s","name":"ask_user_question","input":{}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"tool_result","tool_use_id":"t%[2]s","name":"web_search","status":"success","artifact":{"query":"q","sources":[{"url":"https://e.x"}]}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"tool_result","tool_use_id":"t%[2]s","name":"run","status":"error"}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"approval_request","approval_key":"k%[2]s","action_requests":[{"name":"run","args":{}},{"name":"run","args":{}}]}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"approval_request","approval_key":"k%[2]s"}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q","options":[]}]}}]}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"action_requests":[{"name":"run","args":{}}]}}`,
	`{"type":"approval_result","approval_key":"k%[2]s","decisions":[{"type":"reject"},{"type":"respond","message":"m"}]}`,
	`{"type":"approval_result","approval_key":"k%[2]s","answers":{"Q":"A"}}`,
	`{"type":"approval_timeout","approval_key":"k%[2]s"}`,
	`{"type":"terminal_user_stopped"}`,
	`{"type":"terminal_error","error":"e"}`,
	`{"type":"error","error":{"message":"e"}}`,
	`{"type":"user_message","content":[{"type":"text","text":"u"}]}`,
	`{"type":"text_output_stream","text":"d"}`,
	`{"type":"text_output_stream","text":"__STREAM_ACTIVITY__{\"type\":\"tool_request\",\"tools\":[{\"name\":\"run\",\"id\":\"t%[2]s\"}]}"}`,
	`{"type":"activity","activity_type":"tool_call","tools":[{"name":"run","id":"t%[2]s"}],"results":[{"call_id":"t%[2]s","content":"r"}]}`,
	`{"type":"activity","activity_type":"thought","content":"c"}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"widget"}}`,
	`{"type":"ping","event_id":"%[1]d"}`,
	// Anthropic-native blocks (BACKENDS.md section 1).
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"text","text":"c","citations":[]}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"text","text":"d","citations":[{"type":"char_location","document_index":%[2]s,"document_title":"D","cited_text":"x"}]}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://e.x/%[2]s","title":"T","cited_text":"c"}}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"citations_delta","citation":{"type":"strange_location"}}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"citations_delta","citation":7}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"server_tool_use","id":"t%[2]s","name":"web_search","input":{}}}`,
	`{"type":"content_block_delta","index":%[1]d,"delta":{"type":"input_json_delta","partial_json":"{"query":"q%[2]s"}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"web_search_tool_result","tool_use_id":"t%[2]s","content":[{"type":"web_search_result","url":"https://e.x/%[2]s","title":"R","page_age":"1 day ago"}]}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"web_search_tool_result","tool_use_id":"t%[2]s","content":{"type":"web_search_tool_result_error","error_code":"unavailable"}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"web_fetch_tool_result","tool_use_id":"t%[2]s","content":{"type":"web_fetch_result","url":"https://e.x/f","content":{"type":"document","title":"F"}}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"mcp_tool_use","id":"t%[2]s","name":"m","server_name":"s","input":{}}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"mcp_tool_result","tool_use_id":"t%[2]s","is_error":true,"content":[{"type":"text","text":"e"}]}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"redacted_thinking","data":"x"}}`,
	`{"type":"content_block_start","index":%[1]d,"content_block":{"type":"compaction","content":null}}`,
	`{"type":"message_start","message":{"id":"m","usage":{"input_tokens":%[1]d,"output_tokens":1}}}`,
	`{"type":"message_delta","delta":{"stop_reason":"refusal","stop_details":{"type":"refusal","explanation":"e"}},"usage":{"output_tokens":%[1]d}}`,
	`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`,
	`{"type":"error","error":{"type":"overloaded_error","message":"o"}}`,
}

// FuzzStoreOps applies random sequences of valid-looking events: each pair
// of bytes picks a template and its parameters.
func FuzzStoreOps(f *testing.F) {
	f.Add([]byte{0, 0, 4, 1, 12, 1, 17, 2, 19, 2, 14, 1, 20, 2, 3, 0})
	f.Add([]byte{26, 0, 0, 0, 7, 1, 9, 1, 16, 3, 23, 0, 28, 1, 29, 1, 27, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := New(DefaultOptions())
		for i := 0; i+1 < len(ops); i += 2 {
			tmpl := opTemplates[int(ops[i])%len(opTemplates)]
			p := ops[i+1]
			s.ApplyJSON([]byte(fmt.Sprintf(tmpl, p%4, fmt.Sprint(p/4%4))))
		}
		checkInvariants(t, s)
	})
}

var todoStatusKnown = map[TodoStatus]bool{TodoPending: true, TodoInProgress: true, TodoCompleted: true}
