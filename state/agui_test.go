package state

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// seqIDs makes deterministic ids: id1, id2, ...
func seqIDs() func() string {
	n := 0
	return func() string { n++; return "id" + strconv.Itoa(n) }
}

func newDialectStore() *Store {
	o := DefaultOptions()
	o.NewID = seqIDs()
	return New(o)
}

// viewJSON is the store's view model as generic JSON.
func viewJSON(t *testing.T, s *Store) map[string]any {
	t.Helper()
	raw, err := json.Marshal(s.View())
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

func kindsOf(items []*Item) []Kind {
	var out []Kind
	for _, it := range items {
		out = append(out, it.Kind)
	}
	return out
}

func TestAGUIRunTextToolsReasoningGroup(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"REASONING_START","messageId":"rs"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rs","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs","delta":"Let me look"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"rs"}`,
		`{"type":"REASONING_END","messageId":"rs"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\":"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"Hanoi\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"sunny","role":"tool"}`,
		`{"type":"STEP_STARTED","stepName":"answer"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2}]}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a2","delta":"It is "}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a2","delta":"sunny."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a2"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	require.Zero(t, s.SkippedCount())
	require.Equal(t, StatusIdle, s.Status())
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindText}, kindsOf(items))
	g := items[0].Group
	assert.False(t, g.Open)
	assert.Equal(t, "Get weather", g.Title())
	require.Equal(t, []Kind{KindThinking, KindTool}, kindsOf(g.Steps))
	assert.Equal(t, "Let me look", g.Steps[0].Text)
	tool := g.Steps[1].Tool
	assert.Equal(t, ToolDone, tool.Status)
	assert.JSONEq(t, `{"city":"Hanoi"}`, string(tool.Input))
	assert.Equal(t, "sunny", *tool.Result)
	assert.Equal(t, "It is sunny.", items[1].Text)
	assert.True(t, items[0].Brand)

	c := s.AGUIConversation()
	assert.Equal(t, "th", c.ThreadID)
	assert.JSONEq(t, `{"n":2}`, string(c.State))
	raw, _ := json.Marshal(c.Messages)
	assert.JSONEq(t, `[
		{"id":"rs","role":"reasoning","content":"Let me look"},
		{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Hanoi\"}"}}]},
		{"id":"t1","role":"tool","toolCallId":"c1","content":"sunny"},
		{"id":"a2","role":"assistant","content":"It is sunny."}
	]`, string(raw))
}

func TestAGUIChunksAndPinnedMessageID(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","role":"assistant","delta":"Checking"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"..."}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"search","parentMessageId":"m1","delta":"{\"q\":\"go"}`,
		`{"type":"TOOL_CALL_CHUNK","delta":"lang\"}"}`,
		// LangGraph keeps one message id per node: text after the tool
		// call comes back under m1 and must read after it.
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" Found it."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	require.Zero(t, s.SkippedCount())
	items := s.Items()
	require.Equal(t, []Kind{KindText, KindGroup, KindText}, kindsOf(items))
	assert.Equal(t, "Checking...", items[0].Text)
	assert.JSONEq(t, `{"q":"golang"}`, string(items[1].Group.Steps[0].Tool.Input))
	assert.Equal(t, ToolInterrupted, items[1].Group.Steps[0].Tool.Status)
	assert.Equal(t, " Found it.", items[2].Text)
	c := s.AGUIConversation()
	require.Len(t, c.Messages, 1)
	assert.JSONEq(t, `"Checking... Found it."`, string(c.Messages[0].Content))
	assert.Equal(t, `{"q":"golang"}`, c.Messages[0].ToolCalls[0].Function.Arguments)
}

func TestAGUIBadInputIsSkippedAndCounted(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"SOMETHING_NEW","x":1}`,                                        // unknown type
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`,        // no start
		`{"type":"TEXT_MESSAGE_START"}`,                                         // no messageId
		`{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"{}"}`,            // no start
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":{"not":"str"}}`, // wrong type
		`{"type":"TOOL_CALL_RESULT","messageId":"t9","toolCallId":"ghost","content":[{"type":"text","text":"orphan"}]}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	assert.Equal(t, 5, s.SkippedCount())
	// A result for a call never shown is a tool step where it arrived.
	items := s.Items()
	require.Equal(t, []Kind{KindGroup}, kindsOf(items))
	tool := items[0].Group.Steps[0].Tool
	assert.Equal(t, "ghost", tool.ID)
	assert.Equal(t, ToolDone, tool.Status)
	assert.Equal(t, "orphan", *tool.Result)
	assert.Equal(t, StatusIdle, s.Status())
}

func TestAGUIRunErrorAndToolError(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"a"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"","error":"disk full"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"b"}`,
		`{"type":"RUN_ERROR","message":"model overloaded","code":"529"}`,
	)
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindError}, kindsOf(items))
	steps := items[0].Group.Steps
	assert.Equal(t, ToolError, steps[0].Tool.Status)
	assert.Equal(t, "disk full", *steps[0].Tool.Result)
	assert.Equal(t, ToolInterrupted, steps[1].Tool.Status)
	assert.Equal(t, "model overloaded", items[1].Text)
	assert.Equal(t, StatusError, s.Status())
	assert.Equal(t, "disk full", s.AGUIConversation().Messages[1].Error)
}

func TestAGUIActivitySnapshotsAndDeltas(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"p1","activityType":"PLAN","content":{"steps":["a"]}}`,
		`{"type":"ACTIVITY_DELTA","messageId":"p1","activityType":"PLAN","patch":[{"op":"add","path":"/steps/-","value":"b"}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"p1","activityType":"PLAN","content":{"steps":["x"]},"replace":false}`,
		`{"type":"ACTIVITY_DELTA","messageId":"p1","activityType":"PLAN","patch":[{"op":"remove","path":"/nothing"}]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"unknown","activityType":"PLAN","patch":[]}`,
	)
	assert.Equal(t, 1, s.SkippedCount())
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 1)
	a := g.Steps[0]
	assert.Equal(t, KindActivity, a.Kind)
	assert.Equal(t, "PLAN", a.Activity.Name)
	assert.Equal(t, "{\n  \"steps\": [\n    \"a\",\n    \"b\"\n  ]\n}", a.Text)
	assert.Equal(t, "PLAN", g.Title())
	c := s.AGUIConversation()
	assert.JSONEq(t, `[{"id":"p1","role":"activity","activityType":"PLAN","content":{"steps":["a","b"]}}]`, mustMarshal(t, c.Messages))
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

func TestAGUIToolInterruptAnsweredAsResume(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"to\":\"a@b.com\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[
			{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send it?","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"},"editedArgs":{"type":"object"}},"required":["approved"]}},
			{"id":"i2","reason":"input_required","message":"Which account?","responseSchema":{"type":"object","properties":{"account":{"type":"string","enum":["work","home"]},"note":{"type":"string","title":"Note"},"count":{"type":"integer"},"cc":{"type":"boolean"}},"required":["account"]},"expiresAt":"2030-01-01T00:00:00Z"}
		]}}`,
	)
	require.Zero(t, s.SkippedCount())
	// The run paused: the agent is idle, the group stays open with the card.
	assert.Equal(t, StatusIdle, s.Status())
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindForm}, kindsOf(items))
	g := items[0].Group
	assert.True(t, g.Open)
	require.Equal(t, []Kind{KindTool, KindApproval}, kindsOf(g.Steps))
	assert.Equal(t, ToolAwaiting, g.Steps[0].Tool.Status)
	card := g.Steps[1].Approval
	assert.Equal(t, "Send it?", card.Text)
	assert.Equal(t, []string{"approve", "edit", "reject"}, card.Actions[0].Allowed)
	form := items[1].Form
	assert.Equal(t, "Which account?", form.Text)
	assert.Equal(t, "2030-01-01T00:00:00Z", form.ExpiresAt)
	require.Len(t, form.Fields, 4)
	assert.Equal(t, FormField{Name: "account", Type: FieldEnum, Required: true, Options: []json.RawMessage{json.RawMessage(`"work"`), json.RawMessage(`"home"`)}, Label: "Account"}, form.Fields[0])
	assert.Equal(t, "Note", form.Fields[1].Label)
	assert.Equal(t, FieldInteger, form.Fields[2].Type)
	assert.Equal(t, FieldBoolean, form.Fields[3].Type)

	ready, err := s.answerCard("i1", CardAnswer{Decisions: []wire.Decision{{Type: "edit", EditedAction: &wire.EditedAction{Name: "send_email", Args: json.RawMessage(`{"to":"c@d.com"}`)}}}})
	require.NoError(t, err)
	assert.False(t, ready, "the form still waits")
	_, err = BuildFormValues(form, map[string]string{"note": "x"})
	require.Error(t, err, "account is required")
	values, err := BuildFormValues(form, map[string]string{"account": "1", "count": "3", "cc": "true"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"account":"home","count":3,"cc":true}`, string(values))
	ready, err = s.answerCard("i2", CardAnswer{Values: values})
	require.NoError(t, err)
	assert.True(t, ready)
	assert.Equal(t, QuestionAnswered, form.State)
	assert.Equal(t, ApprovalEdited, card.State)

	in := s.aguiRunInput("")
	assert.Equal(t, "th", in.ThreadID)
	assert.Equal(t, StatusRunning, s.Status())
	assert.JSONEq(t, `[
		{"interruptId":"i1","status":"resolved","payload":{"approved":true,"editedArgs":{"to":"c@d.com"}}},
		{"interruptId":"i2","status":"resolved","payload":{"account":"home","count":3,"cc":true}}
	]`, mustMarshal(t, in.Resume))
	assert.JSONEq(t, `{}`, string(in.ForwardedProps))
	assert.Len(t, in.Messages, 1)
	// The next run goes on in the same group, without a second brand.
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"`+in.RunID+`"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"sent"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a9","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a9","delta":"Done."}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"`+in.RunID+`"}`,
	)
	assert.Equal(t, ToolDone, g.Steps[0].Tool.Status)
	assert.False(t, s.Items()[len(s.Items())-1].Brand)
}

func TestAGUINewMessageCancelsOpenInterrupts(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[
			{"id":"i1","reason":"confirm","message":"Sure?"},
			{"id":"i2","reason":"upload","message":"Send files","responseSchema":{"type":"object","properties":{"files":{"type":"array"}},"required":["files"]}}
		]}}`,
	)
	items := s.Items()
	require.Equal(t, []Kind{KindForm, KindNotice}, kindsOf(items))
	assert.Empty(t, items[0].Form.Fields, "no schema: the user just confirms")
	assert.Equal(t, NoticeUnsupportedInterrupt, items[1].Notice.Reason)
	assert.Equal(t, "Send files", items[1].Notice.Detail)
	v := viewJSON(t, s)
	assert.Equal(t, map[string]any{"approval_key": "i1", "kind": "form"}, v["pending"])

	in := s.aguiRunInput("never mind")
	assert.JSONEq(t, `[{"interruptId":"i1","status":"cancelled"},{"interruptId":"i2","status":"cancelled"}]`, mustMarshal(t, in.Resume))
	assert.Equal(t, QuestionExpired, items[0].Form.State)
	require.Len(t, in.Messages, 1)
	assert.Equal(t, wire.AGUIMessage{ID: "id2", Role: "user", Content: json.RawMessage(`"never mind"`)}, in.Messages[0])
	assert.Equal(t, KindUser, s.Items()[len(s.Items())-1].Kind)
	assert.Nil(t, s.Pending())
}

func TestAGUILegacyOnInterrupt(t *testing.T) {
	s := newDialectStore()
	// The LangGraph integration sends the value as a JSON string.
	value, _ := json.Marshal(`{"actionRequests":[{"name":"delete_file","args":{"path":"/tmp/x"},"description":"Delete?"}],"reviewConfigs":[{"actionName":"delete_file","allowedDecisions":["approve","reject"]}]}`)
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"run-7"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"delete_file"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"path\":\"/tmp/x\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"CUSTOM","name":"on_interrupt","value":`+string(value)+`}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"run-7"}`,
	)
	require.Zero(t, s.SkippedCount())
	g := s.Items()[0].Group
	require.Equal(t, []Kind{KindTool, KindApproval}, kindsOf(g.Steps))
	card := g.Steps[1].Approval
	assert.Equal(t, "run-7", card.ApprovalKey)
	assert.Equal(t, []string{"approve", "reject"}, card.Actions[0].Allowed)
	assert.Equal(t, ToolAwaiting, g.Steps[0].Tool.Status)

	ready, err := s.answerCard("run-7", CardAnswer{Decisions: []wire.Decision{{Type: "reject", Message: "not that one"}}})
	require.NoError(t, err)
	assert.True(t, ready)
	assert.Equal(t, ToolError, g.Steps[0].Tool.Status)
	in := s.aguiRunInput("")
	assert.Empty(t, in.Resume)
	assert.JSONEq(t, `{"command":{"resume":{"decisions":[{"type":"reject","message":"not that one"}]}}}`, string(in.ForwardedProps))
}

func TestAGUILegacyPlainQuestionIsAFreeForm(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"run-8"}`,
		`{"type":"CUSTOM","name":"on_interrupt","value":"What is your age?"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"run-8"}`,
	)
	form := s.Items()[0].Form
	require.NotNil(t, form)
	assert.Equal(t, "What is your age?", form.Text)
	values, err := BuildFormValues(form, map[string]string{"answer": "42"})
	require.NoError(t, err)
	assert.Equal(t, `"42"`, string(values))
	_, err = s.answerCard("run-8", CardAnswer{Values: values})
	require.NoError(t, err)
	in := s.aguiRunInput("")
	assert.JSONEq(t, `{"command":{"resume":"42"}}`, string(in.ForwardedProps))
}

func TestAGUIRestoreFromSavedConversation(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send?"}]}}`,
	)
	s.aguiRunInput("first") // cancels i1: the user moved on
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r2"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rs","role":"reasoning"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"rs","encryptedValue":"opaque"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"rs"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a2","delta":"OK"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a2"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r2"}`,
	)
	saved := s.AGUIConversation()
	raw, err := json.Marshal(saved)
	require.NoError(t, err)

	var loaded AGUIConversation
	require.NoError(t, json.Unmarshal(raw, &loaded))
	r := newDialectStore()
	r.restoreAGUI(loaded)
	assert.Equal(t, StatusIdle, r.Status())
	items := r.Items()
	require.Equal(t, []Kind{KindGroup, KindUser, KindGroup, KindText}, kindsOf(items))
	assert.False(t, items[0].Group.Open)
	// As it was shown: the card the user moved on from, expired, its tool
	// not run.
	require.Equal(t, []Kind{KindTool, KindApproval}, kindsOf(items[0].Group.Steps))
	assert.Equal(t, ApprovalExpired, items[0].Group.Steps[1].Approval.State)
	assert.Equal(t, ToolError, items[0].Group.Steps[0].Tool.Status)
	assert.True(t, items[2].Group.Steps[0].Redacted)
	assert.Equal(t, "OK", items[3].Text)
	assert.Equal(t, saved, r.AGUIConversation(), "restoring keeps the conversation as saved")
	next := r.aguiRunInput("again")
	assert.Len(t, next.Messages, len(saved.Messages)+1)
	assert.Equal(t, "th", next.ThreadID)
}

func TestAGUIRestoreShowsOpenInterrupt(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send?"}]}}`,
	)
	r := newDialectStore()
	r.restoreAGUI(s.AGUIConversation())
	g := r.Items()[0].Group
	assert.True(t, g.Open, "the group holding the waiting card stays open")
	require.Equal(t, []Kind{KindTool, KindApproval}, kindsOf(g.Steps))
	assert.Equal(t, ToolAwaiting, g.Steps[0].Tool.Status)
	ready, err := r.answerCard("i1", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	assert.True(t, ready)
	assert.JSONEq(t, `[{"interruptId":"i1","status":"resolved","payload":{"approved":true}}]`, mustMarshal(t, r.aguiRunInput("").Resume))
}

func TestAGUIMessagesSnapshotReplacesTheConversation(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"partial"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[
			{"id":"u1","role":"user","content":"hi"},
			{"id":"a1","role":"assistant","content":"Hello!","toolCalls":[{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{\"k\":1}"}}]},
			{"id":"t1","role":"tool","toolCallId":"c1","content":[{"type":"text","text":"found"}]}
		]}`,
	)
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, StatusRunning, s.Status())
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindText, KindGroup}, kindsOf(items))
	assert.Equal(t, "Hello!", items[1].Text)
	assert.True(t, items[2].Group.Open, "still running")
	assert.Equal(t, "found", *items[2].Group.Steps[0].Tool.Result)
	applyTo(s, `{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`)
	assert.False(t, items[2].Group.Open)
	c := s.AGUIConversation()
	require.Len(t, c.Messages, 3)
	assert.JSONEq(t, `[{"type":"text","text":"found"}]`, string(c.Messages[2].Content))
}

func TestAGUIDeprecatedThinkingAndCancelledRun(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"THINKING_START","title":"plan"}`,
		`{"type":"THINKING_TEXT_MESSAGE_START"}`,
		`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}`,
		`{"type":"THINKING_TEXT_MESSAGE_END"}`,
		`{"type":"THINKING_END"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"cancelled"}}`,
	)
	require.Zero(t, s.SkippedCount())
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindStopped}, kindsOf(items))
	assert.Equal(t, "hmm", items[0].Group.Steps[0].Text)
	assert.Equal(t, StatusStopped, s.Status())
}

func TestStreamFailed(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("hello")
	s.streamFailed(wire.CheckStreamResponse(502, "text/html", []byte("<title>Bad Gateway</title>")))
	s.uiChatRequest("again")
	s.streamFailed(wire.CheckStreamResponse(200, "text/html", []byte("<title>Sign in</title>")))
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindNotice, KindUser, KindNotice}, kindsOf(items))
	assert.Equal(t, Notice{Reason: NoticeBackendError, Detail: "HTTP 502: Bad Gateway"}, *items[1].Notice)
	assert.Equal(t, Notice{Reason: NoticeNotAStream, Detail: "Sign in"}, *items[3].Notice)
	assert.Equal(t, StatusError, s.Status())
	assert.Len(t, s.UIConversation().Messages, 2, "the thread is kept")
}

func TestStopRun(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("go")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"a"}`,
	)
	s.stopRun()
	s.stopRun() // once is enough
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindStopped}, kindsOf(items))
	assert.Equal(t, ToolInterrupted, s.Tool("c1").Tool.Status)
	assert.Equal(t, StatusStopped, s.Status())
}

func TestStreamEndedUnexpectedly(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"a"}`,
	)
	s.endStreamUnexpectedly("HTTP 502")
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindNotice}, kindsOf(items))
	assert.False(t, items[0].Group.Open)
	assert.Equal(t, ToolInterrupted, items[0].Group.Steps[0].Tool.Status)
	assert.Equal(t, StatusError, s.Status())
	v := viewJSON(t, s)
	last := v["items"].([]any)[1].(map[string]any)
	assert.Equal(t, map[string]any{"kind": "notice", "brand": false, "reason": "stream_ended", "detail": "HTTP 502"}, last)
}

func TestAGUIRestoreShowsAnsweredCards(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("book it")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"book","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[
			{"id":"i1","reason":"tool_call","toolCallId":"c1","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"},"editedArgs":{"type":"object"}}}},
			{"id":"i2","reason":"ask","message":"Seat?","responseSchema":{"type":"object","properties":{"seat":{"type":"string"}}}}]}}`,
	)
	_, err := s.answerCard("i1", CardAnswer{Decisions: []wire.Decision{{Type: "edit", EditedAction: &wire.EditedAction{Name: "book", Args: json.RawMessage(`{"n":2}`)}}}})
	require.NoError(t, err)
	_, err = s.answerCard("i2", CardAnswer{Values: json.RawMessage(`{"seat":"12A"}`)})
	require.NoError(t, err)
	s.aguiRunInput("")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r2"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"booked"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a2","delta":"Booked 12A."}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r2"}`,
	)
	live := viewJSON(t, s)
	r := newDialectStore()
	r.restoreAGUI(s.AGUIConversation())
	restored := viewJSON(t, r)
	assert.Equal(t, live["items"], restored["items"], "a reload shows what was shown")
	kinds := kindsOf(r.Items())
	assert.Equal(t, []Kind{KindUser, KindGroup, KindForm, KindText}, kinds)
	assert.Equal(t, ApprovalEdited, r.Approval("i1").Approval.State)
	assert.JSONEq(t, `{"seat":"12A"}`, string(r.Approval("i2").Form.Values))
}
