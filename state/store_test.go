package state

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// apply feeds JSONL lines to a new store.
func apply(t *testing.T, lines ...string) *Store {
	t.Helper()
	s := New(DefaultOptions())
	applyTo(s, lines...)
	return s
}

func applyTo(s *Store, lines ...string) {
	for _, l := range lines {
		s.ApplyJSON([]byte(l))
	}
}

// Short event builders keep the tests readable.
const msgStart = `{"type":"message_start","message":{"id":"m1","role":"assistant","message_type":"chat"}}`
const msgStop = `{"type":"message_stop"}`
const groupStart = `{"type":"group_start","index":0}`

func toolUse(idx int, id, name, label string) string {
	return `{"type":"content_block_start","index":` + strconv.Itoa(idx) + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":{"q":1},"tool_content_message":"` + label + `"}}`
}

func toolResult(idx int, id, status, content string) string {
	return `{"type":"content_block_start","index":` + strconv.Itoa(idx) + `,"content_block":{"type":"tool_result","tool_use_id":"` + id + `","tool_name":"x","content":"` + content + `","status":"` + status + `"}}`
}

func stop(idx int) string { return `{"type":"content_block_stop","index":` + strconv.Itoa(idx) + `}` }

func approvalReq(idx int, key string, actions string) string {
	return `{"type":"content_block_start","index":` + strconv.Itoa(idx) + `,"content_block":{"type":"approval_request","approval_key":"` + key + `"}}` + "\n" +
		`{"type":"content_block_delta","index":` + strconv.Itoa(idx) + `,"delta":{"action_requests":` + actions + `,"review_configs":[{"action_name":"run_sql","allowed_decisions":["approve","edit","reject","respond"]}],"timeout_seconds":60}}`
}

func lines(ss ...string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, strings.Split(s, "\n")...)
	}
	return out
}

func TestDuplicatesDroppedNotCounted(t *testing.T) {
	s := apply(t,
		`{"type":"message_start","message":{"id":"m"},"event_id":"9"}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"},"event_id":"10"}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"dup"},"event_id":"10"}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"old"},"event_id":"2"}`,
	)
	assert.Len(t, s.Items(), 1)
	assert.Equal(t, 0, s.SkippedCount())
	assert.Equal(t, "10", s.LastEventID().String())
	ch := s.ApplyJSON([]byte(`{"type":"ping","event_id":"10"}`))
	assert.Equal(t, Dropped, ch.Outcome)
}

// TestNegativeEventIDsInOrder: a backend counting up from below zero
// (-5, -4, ...) is in order, and its events after -1 are not dropped as
// if "-1" sorted before "-5" as text (issue 8, defect 6).
func TestNegativeEventIDsInOrder(t *testing.T) {
	s := apply(t,
		`{"type":"message_start","message":{"id":"m"},"event_id":-5}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"},"event_id":"-3"}`,
		`{"type":"content_block_stop","index":0,"event_id":-1}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"b"},"event_id":0}`,
		`{"type":"content_block_stop","index":1,"event_id":"2"}`,
	)
	require.Len(t, s.Items(), 2, "every event after -5 is applied")
	assert.Equal(t, "b", s.Items()[1].Text)
	assert.Equal(t, "2", s.LastEventID().String())

	s = apply(t, `{"type":"ping","event_id":-1}`)
	assert.Equal(t, Dropped, s.ApplyJSON([]byte(`{"type":"ping","event_id":"-5"}`)).Outcome, "-5 is before -1")
	assert.Equal(t, Dropped, s.ApplyJSON([]byte(`{"type":"ping","event_id":-1}`)).Outcome)
	assert.Equal(t, Applied, s.ApplyJSON([]byte(`{"type":"ping","event_id":"0"}`)).Outcome)
	assert.Equal(t, "0", s.LastEventID().String())
}

func TestInvalidEventIDStillSeen(t *testing.T) {
	s := apply(t, `{"type":"bogus","event_id":"5"}`, `{"type":"ping","event_id":"5"}`)
	assert.Equal(t, 1, s.SkippedCount())
	assert.Equal(t, "5", s.LastEventID().String())
	// A field of the wrong type makes the frame invalid, but its id is read.
	s = apply(t, `{"type":"content_block_start","index":"x","event_id":"6"}`)
	assert.Equal(t, 1, s.SkippedCount())
	assert.Equal(t, "6", s.LastEventID().String())
}

func TestRequiredFieldsSkipped(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","content_block":{"type":"text"}}`,               // no index
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use"}}`, // no id
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","content":"x"}}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"approval_request"}}`,
		`{"type":"approval_result","approval_key":"never"}`,
		`{"type":"approval_timeout","approval_key":"never"}`,
		`{"type":"text_output_stream"}`,
		`{"type":"activity"}`,
		stop(9),
		`"a string"`, `null`, ``,
	)
	assert.Equal(t, 12, s.SkippedCount())
	assert.Empty(t, s.Items())
}

func TestInputJSONDeltaReplacesInput(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"get_price","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"sym"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"bol\": \"VNM\"}"}}`,
		stop(0),
	)
	assert.JSONEq(t, `{"symbol":"VNM"}`, string(s.Tool("t").Tool.Input))

	// Broken JSON keeps the input the tool started with.
	s = apply(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"x","input":{"a":1}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"b"}}`,
		stop(0),
	)
	assert.JSONEq(t, `{"a":1}`, string(s.Tool("t").Tool.Input))
}

func TestOrphanResultKeepsPlaceWhenToolUseArrives(t *testing.T) {
	s := apply(t, msgStart, groupStart,
		toolResult(1, "late", "success", "r"),
		toolUse(2, "other", "get_news", "News"),
		toolUse(3, "late", "read_file", "Read the report"),
	)
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 2)
	late := g.Steps[0].Tool
	assert.Equal(t, "late", late.ID)
	assert.Equal(t, ToolDone, late.Status)
	assert.Equal(t, "Read the report", late.Label)
	assert.JSONEq(t, `{"q":1}`, string(late.Input))
	// The merge added no step: the title is still the newest step's label.
	assert.Equal(t, "News", g.Title())
}

func TestResultMergesIntoClosedGroup(t *testing.T) {
	s := apply(t, msgStart, groupStart, toolUse(1, "a", "x", "A"),
		`{"type":"group_end","index":2,"summary":"Done A"}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"answer"}}`,
		toolResult(4, "a", "success", "late result"),
	)
	require.Len(t, s.Items(), 2)
	assert.Equal(t, "late result", *s.Tool("a").Tool.Result)
	assert.Equal(t, s.Items()[0], s.Tool("a").Parent())
}

func TestGroupTitleRules(t *testing.T) {
	s := apply(t, msgStart, `{"type":"group_start","index":0,"summary":"Opening"}`)
	g := s.Items()[0].Group
	assert.Equal(t, "Opening", g.Title(), "the summary it was opened with")
	applyTo(s, `{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"hm"}}`)
	assert.Equal(t, "Opening", g.Title(), "thinking has no label")
	applyTo(s, toolUse(2, "a", "web_search", ""))
	assert.Equal(t, "Web search", g.Title(), "label made from the name")
	applyTo(s, `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"fin"}}`)
	assert.False(t, g.Open)
	assert.Equal(t, "Opening", g.Title(), "closed without group_end: the opening summary")

	s = apply(t, msgStart, groupStart)
	assert.Equal(t, "", s.Items()[0].Group.Title(), "nothing names it: the UI says Working…")
	applyTo(s, toolUse(1, "a", "x", "Step A"), msgStop)
	g = s.Items()[0].Group
	assert.False(t, g.Open)
	assert.Equal(t, "Step A", g.Title(), "closed without any summary keeps its running title")
}

func TestGroupStartClosesOpenGroupAndNeverNests(t *testing.T) {
	s := apply(t, msgStart, groupStart, toolUse(1, "a", "x", "A"), groupStart, toolUse(2, "b", "x", "B"))
	require.Len(t, s.Items(), 2)
	assert.False(t, s.Items()[0].Group.Open)
	assert.True(t, s.Items()[1].Group.Open)
	assert.Equal(t, s.Items()[1], s.Tool("b").Parent())
}

func TestStandaloneWithoutGroup(t *testing.T) {
	s := apply(t, msgStart, toolUse(0, "a", "x", "A"), toolResult(1, "a", "success", "ok"))
	require.Len(t, s.Items(), 1)
	assert.Equal(t, KindTool, s.Items()[0].Kind)
	assert.True(t, s.Items()[0].Brand)
}

func TestStopReasonToolUseKeepsTurnRunning(t *testing.T) {
	s := apply(t, msgStart, groupStart, toolUse(1, "a", "x", "A"),
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, msgStop)
	assert.Equal(t, StatusRunning, s.Status())
	assert.True(t, s.Items()[0].Group.Open)
	assert.Equal(t, ToolActive, s.Tool("a").Tool.Status)
	// The next message of the turn means the client ran the tool: done,
	// its result unknown (it went to the model), not interrupted.
	applyTo(s, `{"type":"message_start","message":{"id":"m2","message_type":"step"}}`, msgStop)
	assert.Equal(t, StatusIdle, s.Status())
	assert.False(t, s.Items()[0].Group.Open)
	assert.Equal(t, ToolDone, s.Tool("a").Tool.Status)
	assert.Nil(t, s.Tool("a").Tool.Result)
}

func TestBrand(t *testing.T) {
	s := apply(t,
		`{"type":"user_message","content":[{"type":"text","text":"hi"}]}`,
		`{"type":"message_start","message":{"id":"m1","message_type":"step"}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"}}`,
		msgStop,
		msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"b"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"c"}}`,
	)
	items := s.Items()
	require.Len(t, items, 4)
	assert.Equal(t, KindUser, items[0].Kind)
	assert.False(t, items[1].Brand, "first item of the turn came from a step message")
	assert.True(t, items[2].Brand, "message_start while idle starts a turn")
	assert.False(t, items[3].Brand)
}

func TestToolApprovalDecisions(t *testing.T) {
	actions := `[{"name":"run_sql","args":{"q":"a"}},{"name":"run_sql","args":{"q":"b"}},{"name":"run_sql","args":{"q":"c"}}]`
	s := apply(t, lines(msgStart, groupStart,
		toolUse(1, "t1", "run_sql", "SQL 1"), toolUse(2, "t2", "run_sql", "SQL 2"), toolUse(3, "t3", "run_sql", "SQL 3"),
		approvalReq(4, "k", actions), stop(4))...)
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 4)
	assert.Equal(t, KindApproval, g.Steps[3].Kind, "after the last tool it concerns")
	for _, id := range []string{"t1", "t2", "t3"} {
		assert.Equal(t, ToolAwaiting, s.Tool(id).Tool.Status)
	}
	card := g.Steps[3].Approval
	// Most recently added tool of the name for each action, without reuse.
	assert.Equal(t, "t3", card.tools[0].Tool.ID)
	assert.Equal(t, "t2", card.tools[1].Tool.ID)
	assert.Equal(t, "t1", card.tools[2].Tool.ID)
	assert.Equal(t, "k", s.Pending().Approval.ApprovalKey)

	applyTo(s, `{"type":"approval_result","approval_key":"k","decisions":[{"type":"edit","edited_action":{"name":"run_sql","args":{"q":"z"}}},{"type":"reject","message":"no"},{"type":"respond","message":"42"}]}`)
	assert.Equal(t, ApprovalEdited, card.State, "the first decision that is not approve")
	assert.Equal(t, ToolActive, s.Tool("t3").Tool.Status)
	assert.JSONEq(t, `{"q":"z"}`, string(s.Tool("t3").Tool.Input))
	assert.Equal(t, ToolError, s.Tool("t2").Tool.Status)
	assert.Equal(t, ToolDone, s.Tool("t1").Tool.Status)
	assert.Equal(t, "42", *s.Tool("t1").Tool.Result)
	assert.Nil(t, s.Pending())
	assert.True(t, g.Open, "a rejection does not close the group")
}

func TestApprovalTimeoutAndRepeat(t *testing.T) {
	s := apply(t, lines(msgStart, groupStart, toolUse(1, "t1", "run_sql", "SQL"),
		approvalReq(2, "k", `[{"name":"run_sql","args":{}}]`), stop(2),
		approvalReq(3, "k", `[{"name":"run_sql","args":{"again":true}}]`), stop(3))...)
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 2, "the same key updates, never adds")
	assert.JSONEq(t, `{"again":true}`, string(g.Steps[1].Approval.Actions[0].Args))
	applyTo(s, `{"type":"content_block_start","index":4,"content_block":{"type":"approval_timeout","approval_key":"k"}}`, stop(4))
	assert.Equal(t, ApprovalExpired, g.Steps[1].Approval.State)
	assert.Equal(t, ToolError, s.Tool("t1").Tool.Status)
	assert.True(t, g.Open)
	assert.Equal(t, 0, s.SkippedCount())
}

func TestApprovalWithoutToolGoesWhereItArrived(t *testing.T) {
	s := apply(t, lines(msgStart, groupStart, approvalReq(1, "k", `[{"name":"delete_all","args":{}}]`))...)
	require.Len(t, s.Items()[0].Group.Steps, 1)
	assert.Equal(t, []string{"approve", "edit", "reject"}, s.Items()[0].Group.Steps[0].Approval.Actions[0].Allowed)
}

func TestStopExpiresPendingQuestion(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"q","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}]}}`,
		`{"type":"terminal_user_stopped"}`)
	q := s.Approval("q").Question
	assert.Equal(t, QuestionExpired, q.State)
	assert.Nil(t, s.Pending())
	assert.Equal(t, StatusStopped, s.Status())
	assert.Equal(t, []wire.Option{{Label: "A"}, {Input: true}}, q.Questions[0].Options)
}

func TestQuestionToolUseIsHidden(t *testing.T) {
	s := apply(t, msgStart, groupStart,
		toolUse(1, "ask", "ask_user_question", ""),
		toolResult(2, "ask", "success", "answered"),
		toolUse(3, "st", "share_thought", ""))
	assert.Empty(t, s.Items()[0].Group.Steps)
	assert.Nil(t, s.Tool("ask"))
}

func TestTerminalErrorTexts(t *testing.T) {
	for raw, want := range map[string]string{
		`{"type":"terminal_error","error":{"type":"overloaded","message":"Busy"}}`: "Busy",
		`{"type":"terminal_error","error":"Plain"}`:                                "Plain",
		`{"type":"terminal_error","message":"From message"}`:                       "From message",
		`{"type":"error","error":{"type":"rate_limit","message":"Slow down"}}`:     "Slow down",
	} {
		s := apply(t, msgStart, raw)
		require.Len(t, s.Items(), 1, raw)
		assert.Equal(t, want, s.Items()[0].Text, raw)
	}
	s := apply(t, msgStart, `{"type":"error","error":{"message":"x"}}`)
	assert.Equal(t, StatusRunning, s.Status(), "a stream error does not end the run")
}

func TestUnknownBlockIsGenericItem(t *testing.T) {
	s := apply(t, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"widget","data":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"widget_delta"}}`, stop(0))
	require.Len(t, s.Items(), 1)
	assert.Equal(t, KindUnknown, s.Items()[0].Kind)
	assert.Equal(t, "widget", s.Items()[0].BlockType)
	assert.Equal(t, 0, s.SkippedCount())
}

func TestChangesNameOnlyWhatChanged(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a","is_part":true}}`, stop(0),
		groupStart, toolUse(2, "t", "x", "T"), stop(2),
		`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`)
	text := s.Items()[2]
	ch := s.ApplyJSON([]byte(`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"b"}}`))
	assert.Equal(t, []*Item{text}, ch.Items)
	assert.False(t, ch.List)
	rev := s.Items()[0].Rev
	ch = s.ApplyJSON([]byte(toolResult(4, "t", "success", "ok")))
	assert.Equal(t, []*Item{s.Items()[1]}, ch.Items, "a step's change names its group")
	assert.Equal(t, rev, s.Items()[0].Rev, "untouched items keep their revision")
	ch = s.ApplyJSON([]byte(`{"type":"content_block_start","index":5,"content_block":{"type":"text","text":"c"}}`))
	assert.True(t, ch.List)
}

// TestChangesNeverNameAStep: a new tool in a group is announced by its
// group only, as Changes.Items promises, never as a top-level item itself.
func TestChangesNeverNameAStep(t *testing.T) {
	s := apply(t, msgStart, groupStart)
	ch := s.ApplyJSON([]byte(toolUse(1, "t", "x", "T")))
	assert.Equal(t, []*Item{s.Items()[0]}, ch.Items)
	ch = s.ApplyJSON([]byte(toolResult(2, "orphan", "success", "ok")))
	assert.Equal(t, []*Item{s.Items()[0]}, ch.Items, "a result with no tool yet")

	s = apply(t, msgStart)
	ch = s.ApplyJSON([]byte(toolUse(1, "t", "x", "T")))
	assert.Equal(t, []*Item{s.Items()[0]}, ch.Items, "a tool outside a group is top-level")
}

// TestEndOfRunIsDeterministic: the tools a run's end interrupts change in
// the order they were added, not in a map's order, so the same stream
// gives the same Changes and revisions every time.
func TestEndOfRunIsDeterministic(t *testing.T) {
	for range 20 {
		s := apply(t, msgStart)
		for i := range 12 {
			applyTo(s, toolUse(i, "t"+strconv.Itoa(i), "x", "T"))
		}
		ch := s.ApplyJSON([]byte(`{"type":"terminal_user_stopped"}`))
		require.Len(t, ch.Items, 13)
		assert.Equal(t, KindStopped, ch.Items[0].Kind)
		assert.True(t, slices.IsSortedFunc(ch.Items[1:], func(a, b *Item) int { return cmp.Compare(a.Key, b.Key) }),
			"interrupted in the order they were added")
	}
}

func TestLongTextStreamsIncrementally(t *testing.T) {
	s := apply(t, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"x"}}`)
	for i := 0; i < 1000; i++ {
		applyTo(s, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ab"}}`)
	}
	assert.Equal(t, 2001, len(s.Items()[0].Text))
	assert.True(t, strings.HasPrefix(s.Items()[0].Text, "xabab"))
}

func TestReadableName(t *testing.T) {
	for in, want := range map[string]string{
		"web_search":     "Web search",
		"webSearch":      "Web search",
		"get-stock-news": "Get stock news",
		"read_file":      "Read file",
		"x":              "X",
		"":               "",
		"__a__b":         "A b",
	} {
		assert.Equal(t, want, ReadableName(in), in)
	}
}

// AwaitsAnswer is what the page (a form waits for the backend's word) and
// the demo agent (an answer applies only to what still waits) both ask.
func TestAwaitsAnswer(t *testing.T) {
	question := `{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"q","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}]}}`
	s := apply(t, lines(msgStart, approvalReq(0, "k", `[{"name":"delete_all","args":{}}]`), question)...)
	assert.True(t, s.Approval("k").AwaitsAnswer())
	assert.True(t, s.Approval("q").AwaitsAnswer())
	assert.False(t, s.Approval("none").AwaitsAnswer(), "nil: nothing waits")
	s = apply(t, lines(msgStart, approvalReq(0, "k", `[{"name":"delete_all","args":{}}]`), question, `{"type":"terminal_user_stopped"}`)...)
	assert.False(t, s.Approval("k").AwaitsAnswer(), "expired")
	assert.False(t, s.Approval("q").AwaitsAnswer(), "expired")
	assert.False(t, (&Item{Form: &FormCard{State: QuestionAnswered}}).AwaitsAnswer())
	assert.True(t, (&Item{Form: &FormCard{State: QuestionPending}}).AwaitsAnswer())
}
