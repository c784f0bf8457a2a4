package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func load(t *testing.T, history string) *Store {
	t.Helper()
	h, err := wire.DecodeHistory([]byte(history))
	require.NoError(t, err)
	s := New(DefaultOptions())
	s.LoadHistory(h)
	return s
}

func TestHistoryPendingToolApprovalAfterItsTool(t *testing.T) {
	s := load(t, `{"agent_status":"running","last_event_id":"30","messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","tool_calls":[{"id":"t1","name":"run_sql","args":{"q":1}},{"id":"t2","name":"get_news"}],"display_type":"group_start","summary":"Work"}
	],"pending_approval":{"approval_key":"k","action_requests":[{"name":"run_sql","args":{"q":1}}],"review_configs":[{"action_name":"run_sql","allowed_decisions":["approve","reject"]}],"timeout_seconds":120}}`)
	g := s.Items()[1].Group
	require.True(t, g.Open)
	require.Len(t, g.Steps, 3)
	assert.Equal(t, "t1", g.Steps[0].Tool.ID)
	assert.Equal(t, ToolAwaiting, g.Steps[0].Tool.Status)
	assert.Equal(t, KindApproval, g.Steps[1].Kind)
	assert.Equal(t, ToolActive, g.Steps[2].Tool.Status)
	assert.Equal(t, "k", s.Pending().Approval.ApprovalKey)

	// The stream presents the same request again: it updates, never adds.
	applyTo(s, lines(approvalReq(9, "k", `[{"name":"run_sql","args":{"q":1}}]`))...)
	assert.Len(t, g.Steps, 3)
	applyTo(s, `{"type":"approval_result","approval_key":"k","decisions":[{"type":"approve"}]}`,
		toolResult(10, "t1", "success", "rows"))
	assert.Equal(t, ToolDone, g.Steps[0].Tool.Status)
}

func TestHistoryFinishedRunInterruptsAndCloses(t *testing.T) {
	s := load(t, `{"agent_status":"stopped","messages":[
		{"role":"assistant","tool_calls":[{"id":"t1","name":"x"}],"display_type":"group_start","summary":"S"}
	]}`)
	g := s.Items()[0].Group
	assert.False(t, g.Open)
	assert.Equal(t, ToolInterrupted, g.Steps[0].Tool.Status)
	assert.Equal(t, StatusStopped, s.Status())
	assert.True(t, s.Items()[0].Brand, "history starts a turn")
}

func TestHistoryResolvedQuestion(t *testing.T) {
	s := load(t, `{"agent_status":"idle","messages":[
		{"role":"assistant","content":[{"type":"approval_request","isResolved":true,
		  "actionRequests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":true,"options":[{"label":"A"},{"label":"B"}]}]}}],
		  "submittedAnswers":{"Q?":"A, B"}}]}
	]}`)
	require.Len(t, s.Items(), 1)
	q := s.Items()[0].Question
	assert.Equal(t, QuestionAnswered, q.State)
	assert.Equal(t, map[string]string{"Q?": "A, B"}, q.Answers)
	assert.Nil(t, s.Pending())
}

func TestHistorySourcesWithoutWorkspace(t *testing.T) {
	s := load(t, `{"agent_status":"idle","messages":[
		{"role":"assistant","tool_calls":[{"id":"w","name":"web_search","args":{"query":"q"}}],"display_type":"group_start"},
		{"role":"tool","tool_call_id":"w","name":"web_search","status":"success","content":"ok",
		 "artifact":{"query":"q","sources":[{"url":"https://a.example/x","title":"A","favicon":"javascript:alert(1)"}]},"display_type":"group_end","summary":"Searched"}
	]}`)
	require.Len(t, s.Sources(), 1)
	src := s.Sources()[0].Sources[0]
	assert.Equal(t, "a.example", src.Domain)
	assert.Equal(t, "https://www.google.com/s2/favicons?domain=a.example&sz=16", src.Favicon, "a non-web favicon falls back")

	s = load(t, `{"agent_status":"idle","messages":[
		{"role":"tool","tool_call_id":"w","name":"web_search","artifact":{"query":"q","sources":[]}}
	],"workspace":{"sources":[{"query":"kept","sources":[]}]}}`)
	require.Len(t, s.Sources(), 1)
	assert.Equal(t, "kept", s.Sources()[0].Query, "workspace.sources wins")
}

func TestFaviconServiceOff(t *testing.T) {
	s := New(Options{})
	applyTo(s, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"tool_result","tool_use_id":"w","name":"web_search","status":"success","artifact":{"query":"q","sources":[{"url":"https://b.example"}]}}}`)
	require.Len(t, s.Sources(), 1)
	assert.Equal(t, "", s.Sources()[0].Sources[0].Favicon)
}

func TestHistoryActivityParts(t *testing.T) {
	s := load(t, `{"agent_status":"idle","messages":[
		{"role":"user","parts":[{"type":"text_output","text":"weather?"}]},
		{"role":"assistant","parts":[
		  {"type":"text_output","text":"Looking"},
		  {"type":"activity","activity_type":"tool_call","tools":[{"name":"search_web","arguments":{"q":"x"},"id":"c1"}],"results":[{"name":"search_web","content":"18°C","is_error":true,"call_id":"c1"}],"display_info":{"friendly_name":"Search","icon":"🔍"}},
		  {"type":"activity","activity_type":"diagram_generation","content":"made","technical_details":{"secret":1}},
		  {"type":"text_output","text":"Done"}
		],"activity_parts":[{"activity_type":"thought","content":"ignored: parts carry activities"}]},
		{"role":"assistant","parts":[{"type":"text_output","text":"Legacy"}],
		 "activity_parts":[{"type":"activity","activity_type":"thought","content":"think"}]}
	]}`)
	items := s.Items()
	require.Len(t, items, 6)
	assert.Equal(t, "weather?", items[0].Text)
	assert.Equal(t, "Looking", items[1].Text)
	g := items[2].Group
	require.Len(t, g.Steps, 2)
	assert.Equal(t, ToolError, g.Steps[0].Tool.Status)
	assert.Equal(t, "Search", g.Steps[0].Tool.Label)
	assert.Equal(t, "diagram_generation", g.Steps[1].Activity.Name)
	assert.Equal(t, "📊", g.Steps[1].Activity.Icon)
	assert.Equal(t, "Done", items[3].Text)
	// activity_parts go before the message's text parts.
	assert.Equal(t, KindThinking, items[4].Group.Steps[0].Kind)
	assert.Equal(t, "Legacy", items[5].Text)
}

func TestLegacyMarkerBeforeStructuredActivity(t *testing.T) {
	s := apply(t,
		`{"type":"text_output_stream","text":"A"}`,
		`{"type":"text_output_stream","text":"__STREAM_ACTIVITY__{\"type\":\"tool_request\",\"tools\":[{\"name\":\"search_web\",\"id\":\"c1\",\"arguments\":{}}]}"}`,
		`{"type":"text_output_stream","text":"__STREAM_ACTIVITY__{\"activity_type\":\"tool_result\",\"results\":[{\"name\":\"search_web\",\"content\":\"r\",\"call_id\":\"c1\"}]}"}`,
		`{"type":"text_output_stream","text":"__STREAM_ACTIVITY__not json"}`,
		`{"type":"text_output_stream","text":"B"}`,
		msgStop,
	)
	items := s.Items()
	require.Len(t, items, 3)
	g := items[1].Group
	require.Len(t, g.Steps, 1, "a legacy tool_result adds no step")
	assert.Equal(t, ToolDone, g.Steps[0].Tool.Status)
	assert.Equal(t, "B", items[2].Text)
	assert.Equal(t, 1, s.SkippedCount())
	assert.Equal(t, StatusIdle, s.Status())
	assert.True(t, items[0].Brand)
}

func TestHistoryDecodeErrors(t *testing.T) {
	for _, bad := range []string{"", "[]", "nope", `{"messages":"x"}`} {
		_, err := wire.DecodeHistory([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestLoadHistoryPacedTicksPerMessage: the paced load calls tick after each
// message and builds what LoadHistory builds, for every conformance
// history.
func TestLoadHistoryPacedTicksPerMessage(t *testing.T) {
	_, histories := conformanceSeeds(t)
	require.NotEmpty(t, histories)
	for _, data := range histories {
		h, err := wire.DecodeHistory(data)
		require.NoError(t, err)
		plain := New(DefaultOptions())
		plain.LoadHistory(h)
		paced, ticks := New(DefaultOptions()), 0
		paced.LoadHistoryPaced(h, func() { ticks++ })
		assert.Equal(t, len(h.Messages), ticks)
		assert.Equal(t, plain.View(), paced.View())
	}
}
