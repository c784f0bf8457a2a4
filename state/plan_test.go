package state

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// todosInput is a deepagents write_todos input: "content|status" pairs.
func todosInput(entries ...string) string {
	var todos []map[string]string
	for _, e := range entries {
		content, status, _ := strings.Cut(e, "|")
		todos = append(todos, map[string]string{"content": content, "status": status})
	}
	b, _ := json.Marshal(map[string]any{"todos": todos})
	return string(b)
}

func writeTodos(idx int, id, input string) string {
	return `{"type":"content_block_start","index":` + itoa(idx) + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"write_todos","input":` + input + `}}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func statuses(p Plan) []TodoStatus {
	var out []TodoStatus
	for _, t := range p.Todos {
		out = append(out, t.Status)
	}
	return out
}

func TestParseTodos(t *testing.T) {
	cases := []struct {
		name, input string
		want        []Todo
		ok          bool
	}{
		{"deepagents", `{"todos":[{"content":"Read","status":"completed"},{"content":"Write","status":"in_progress"},{"content":"Ship","status":"pending"}]}`,
			[]Todo{{"Read", TodoCompleted}, {"Write", TodoInProgress}, {"Ship", TodoPending}}, true},
		{"strings", `{"todos":["Giá VNINDEX"," Thanh khoản "]}`,
			[]Todo{{"Giá VNINDEX", TodoPending}, {"Thanh khoản", TodoPending}}, true},
		{"other words", `{"todos":[{"text":"a","status":"done"},{"title":"b","status":"In-Progress"},{"task":"c","done":true},{"step":"d","status":"weird"},{"description":"e","checked":true}]}`,
			[]Todo{{"a", TodoCompleted}, {"b", TodoInProgress}, {"c", TodoCompleted}, {"d", TodoPending}, {"e", TodoCompleted}}, true},
		{"codex plan key", `{"plan":[{"step":"x","status":"completed"}],"explanation":"y"}`, []Todo{{"x", TodoCompleted}}, true},
		{"bare list", `[{"content":"x"}]`, []Todo{{"x", TodoPending}}, true},
		{"junk entries skipped", `{"todos":[null,1,true,{},{"content":""},{"content":"  "},{"content":5},"ok",[1]]}`, []Todo{{"ok", TodoPending}}, true},
		{"empty list", `{"todos":[]}`, []Todo{}, true},
		{"no list", `{"q":1}`, nil, false},
		{"list not a list", `{"todos":"a, b"}`, nil, false},
		{"null list", `{"todos":null}`, nil, false},
		{"not JSON", `{"todos":[`, nil, false},
		{"a string", `"todos"`, nil, false},
		{"empty", ``, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParseTodos(json.RawMessage(c.input))
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestParseTodosBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"todos":[`)
	for i := 0; i < MaxTodos+20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"t"`)
	}
	b.WriteString(`]}`)
	todos, ok := ParseTodos(json.RawMessage(b.String()))
	require.True(t, ok)
	assert.Len(t, todos, MaxTodos)

	long := strings.Repeat("é", maxTodoBytes) // 2 bytes a rune: cut mid-way
	todos, ok = ParseTodos(json.RawMessage(`["` + long + `"]`))
	require.True(t, ok)
	assert.LessOrEqual(t, len(todos[0].Content), maxTodoBytes+len("…"))
	assert.True(t, strings.HasSuffix(todos[0].Content, "…"))
	assert.True(t, json.Valid([]byte(`"`+todos[0].Content+`"`)), "cut on a rune boundary")
}

// The newest plan is the latest write_todos call's; later calls replace
// it, other tools and plan-less calls do not.
func TestPlanFollowsTheLatestCall(t *testing.T) {
	s := New(DefaultOptions())
	_, ok := s.Plan()
	assert.False(t, ok, "no plan before any write_todos")

	applyTo(s, msgStart, groupStart,
		writeTodos(0, "p1", todosInput("Prices|in_progress", "News|pending", "Answer|pending")), stop(0),
		toolResult(1, "p1", "success", "Updated todo list"))
	p, ok := s.Plan()
	require.True(t, ok)
	assert.Equal(t, "p1", p.ToolID)
	assert.Equal(t, s.Tool("p1").Key, p.ItemKey)
	assert.Equal(t, []TodoStatus{TodoInProgress, TodoPending, TodoPending}, statuses(p))
	assert.Equal(t, 0, p.Done())

	applyTo(s, toolUse(2, "t1", "get_price", "Prices"), stop(2), toolResult(3, "t1", "success", "1.320"),
		writeTodos(4, "p2", todosInput("Prices|completed", "News|in_progress", "Answer|pending")), stop(4))
	p, _ = s.Plan()
	assert.Equal(t, "p2", p.ToolID)
	assert.Equal(t, []TodoStatus{TodoCompleted, TodoInProgress, TodoPending}, statuses(p))
	assert.Equal(t, 1, p.Done())

	// A call whose input holds no list leaves the plan as it was.
	applyTo(s, writeTodos(5, "p3", `{"oops":true}`), stop(5))
	p, _ = s.Plan()
	assert.Equal(t, "p2", p.ToolID)

	// Each call keeps its own list.
	own, ok := PlanOf(s.Tool("p1"))
	require.True(t, ok)
	assert.Equal(t, []TodoStatus{TodoInProgress, TodoPending, TodoPending}, statuses(own))
	_, ok = PlanOf(s.Tool("p3"))
	assert.False(t, ok)
	_, ok = PlanOf(s.Tool("t1"))
	assert.False(t, ok, "not a planning tool")

	// An empty list is a plan with nothing in it.
	applyTo(s, writeTodos(6, "p4", `{"todos":[]}`), stop(6), msgStop)
	p, ok = s.Plan()
	require.True(t, ok)
	assert.Equal(t, "p4", p.ToolID)
	assert.Empty(t, p.Todos)
}

// A streamed input (input_json_delta) counts once its block stops: before,
// the previous plan stays, never a list cut short.
func TestPlanFromStreamedInput(t *testing.T) {
	s := apply(t, msgStart,
		writeTodos(0, "p1", todosInput("A|in_progress", "B|pending")), stop(0),
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"p2","name":"write_todos","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"todos\":[{\"content\":\"A\",\"status\":\"comp"}}`,
	)
	p, _ := s.Plan()
	assert.Equal(t, "p1", p.ToolID, "the streaming call does not count yet")
	_, ok := PlanOf(s.Tool("p2"))
	assert.False(t, ok, "its own input is still {}")

	applyTo(s, `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"leted\"},{\"content\":\"B\",\"status\":\"in_progress\"}]}"}}`, stop(1))
	p, _ = s.Plan()
	assert.Equal(t, "p2", p.ToolID)
	assert.Equal(t, []TodoStatus{TodoCompleted, TodoInProgress}, statuses(p))
}

// A streamed input cut by max_tokens never becomes a plan.
func TestPlanMalformedStreamedInput(t *testing.T) {
	s := apply(t, msgStart,
		writeTodos(0, "p1", todosInput("A|pending")), stop(0),
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"p2","name":"write_todos","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"todos\":[{\"content\":\"A\""}}`,
		`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, stop(1), msgStop)
	p, ok := s.Plan()
	require.True(t, ok)
	assert.Equal(t, "p1", p.ToolID)
	assert.NotEmpty(t, s.Tool("p2").Tool.PartialInput)
}

func TestPlanFromHistory(t *testing.T) {
	s := load(t, `{"agent_status":"idle","messages":[
		{"role":"user","content":"plan it"},
		{"role":"assistant","tool_calls":[{"id":"p1","name":"write_todos","args":{"todos":[{"content":"A","status":"in_progress"},{"content":"B","status":"pending"}]}}],"display_type":"group_start","summary":"Plan"},
		{"role":"tool","tool_call_id":"p1","name":"write_todos","status":"success","content":"ok","display_type":"group_item"},
		{"role":"assistant","tool_calls":[{"id":"p2","name":"write_todos","args":{"todos":[{"content":"A","status":"completed"},{"content":"B","status":"completed"}]}}],"display_type":"group_item"},
		{"role":"tool","tool_call_id":"p2","name":"write_todos","status":"success","content":"ok","display_type":"group_end","summary":"Done"},
		{"role":"assistant","content":[{"type":"text","text":"All done."}],"display_type":"content"}
	]}`)
	p, ok := s.Plan()
	require.True(t, ok)
	assert.Equal(t, "p2", p.ToolID)
	assert.Equal(t, 2, p.Done())
	first, ok := PlanOf(s.Tool("p1"))
	require.True(t, ok)
	assert.Equal(t, []TodoStatus{TodoInProgress, TodoPending}, statuses(first))

	// Loading another history forgets the plan.
	s2 := load(t, `{"agent_status":"idle","messages":[{"role":"user","content":"hi"}]}`)
	_, ok = s2.Plan()
	assert.False(t, ok)
	h, err := wire.DecodeHistory([]byte(`{"agent_status":"idle","messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	s.LoadHistory(h)
	_, ok = s.Plan()
	assert.False(t, ok)
}

// The same rule for the AI SDK and AG-UI dialects: their streamed inputs
// grow repaired, so only a complete input replaces the plan.
func TestPlanFromAISDKStream(t *testing.T) {
	s := newDialectStore()
	applyTo(s, `{"type":"start"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"write_todos","input":{"todos":[{"content":"A","status":"in_progress"},{"content":"B","status":"pending"}]}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":"ok"}`,
		`{"type":"tool-input-start","toolCallId":"c2","toolName":"write_todos"}`,
		`{"type":"tool-input-delta","toolCallId":"c2","inputTextDelta":"{\"todos\":[{\"content\":\"A\",\"status\":\"completed\"}"}`,
	)
	p, _ := s.Plan()
	assert.Equal(t, "c1", p.ToolID, "c2 still streams: its list may be cut short")
	own, ok := PlanOf(s.Tool("c2"))
	require.True(t, ok, "the call's own checklist grows as it streams")
	assert.Len(t, own.Todos, 1)

	applyTo(s, `{"type":"tool-input-available","toolCallId":"c2","toolName":"write_todos","input":{"todos":[{"content":"A","status":"completed"},{"content":"B","status":"in_progress"}]}}`)
	p, _ = s.Plan()
	assert.Equal(t, "c2", p.ToolID)
	assert.Equal(t, []TodoStatus{TodoCompleted, TodoInProgress}, statuses(p))
}

func TestPlanFromAGUIStream(t *testing.T) {
	s := newDialectStore()
	applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"write_todos","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"todos\":[{\"content\":\"A\",\"status\":\"in_progress\"},"}`,
	)
	_, ok := s.Plan()
	assert.False(t, ok, "no plan before TOOL_CALL_END")
	applyTo(s, `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"content\":\"B\",\"status\":\"pending\"}]}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c2","toolCallName":"write_todos","parentMessageId":"m1","delta":"{\"todos\":[{\"content\":\"A\",\"status\":\"completed\"}"}`,
	)
	p, _ := s.Plan()
	assert.Equal(t, "c1", p.ToolID, "c2's chunks may continue")
	assert.Len(t, p.Todos, 2)
	applyTo(s, `{"type":"TOOL_CALL_CHUNK","delta":",{\"content\":\"B\",\"status\":\"in_progress\"}]}"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c2","content":"ok"}`)
	p, _ = s.Plan()
	assert.Equal(t, "c2", p.ToolID)
	assert.Equal(t, []TodoStatus{TodoCompleted, TodoInProgress}, statuses(p))
}

// The plan stays out of the view model of REPLAY.md: its JSON is compared
// whole by the replay goldens.
func TestPlanNotInTheViewModel(t *testing.T) {
	s := apply(t, msgStart, writeTodos(0, "p1", todosInput("A|pending")), stop(0), msgStop)
	_, ok := s.Plan()
	require.True(t, ok)
	v := viewJSON(t, s)
	_, has := v["plan"]
	assert.False(t, has)
}
