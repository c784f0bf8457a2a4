package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// The .NET AG-UI hosting's request_approval: a card, answered by a tool
// message carrying {approval_id, approved} in the next run.
func TestAGUIRequestApprovalIsAnsweredByAToolMessage(t *testing.T) {
	s := newDialectStore()
	in := s.aguiRunInput("Approve expense report EXP-1")
	var names []string
	for _, tool := range in.Tools {
		var def struct{ Name string }
		require.NoError(t, json.Unmarshal(tool, &def))
		names = append(names, def.Name)
	}
	assert.Equal(t, []string{"request_approval", "ask_user"}, names, "Stepwise's own tools are offered to the run")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","parentMessageId":"","toolCallId":"call_1","toolCallName":"request_approval"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"call_1","delta":"{\"request\":{\"approval_id\":\"ficc_1\",\"function_name\":\"ApproveExpenseReport\",\"function_arguments\":{\"expenseReportId\":\"EXP-1\"},\"message\":\"Approve execution of 'ApproveExpenseReport'?\"}}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"call_1"}`,
	)
	assert.Nil(t, s.Pending(), "no card while the run goes on")
	applyTo(s, `{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`)
	card := s.Pending()
	require.NotNil(t, card)
	require.Equal(t, KindApproval, card.Kind)
	assert.Equal(t, "Approve execution of 'ApproveExpenseReport'?", card.Approval.Text)
	assert.Equal(t, "ApproveExpenseReport", card.Approval.Actions[0].Name)
	assert.JSONEq(t, `{"expenseReportId":"EXP-1"}`, string(card.Approval.Actions[0].Args))
	assert.Equal(t, []string{"approve", "reject"}, card.Approval.Actions[0].Allowed)
	assert.Equal(t, []Kind{KindUser, KindApproval}, kindsOf(s.Items()), "the call's own step is hidden: the card stands for it")

	// Saved and restored while it waits: the card is back, still waiting.
	r := newDialectStore()
	r.restoreAGUI(s.AGUIConversation())
	require.NotNil(t, r.Pending())
	assert.Equal(t, "call_1", r.Pending().Approval.ApprovalKey)

	ready, err := r.answerCard("call_1", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	require.True(t, ready)
	next := r.aguiRunInput("")
	assert.Empty(t, next.Resume, "a client tool is answered by a tool message, not in resume")
	last := next.Messages[len(next.Messages)-1]
	assert.Equal(t, "tool", last.Role)
	assert.Equal(t, "call_1", last.ToolCallID)
	var content string
	require.NoError(t, json.Unmarshal(last.Content, &content))
	assert.JSONEq(t, `{"approval_id":"ficc_1","approved":true}`, content)

	// Shown again from the saved conversation, the card reads approved.
	again := newDialectStore()
	again.restoreAGUI(r.AGUIConversation())
	assert.Nil(t, again.Pending())
	var approval *Item
	for _, it := range again.Items() {
		if it.Kind == KindApproval {
			approval = it
		}
	}
	require.NotNil(t, approval)
	assert.Equal(t, ApprovalApproved, approval.Approval.State)
}

// ask_user with options is a choice; a rejection carries its reason; a
// new message instead of an answer cancels the call.
func TestAGUIAskUserAndCancelledCalls(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("Book a table")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"ask1","toolCallName":"ask_user","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"ask1","delta":"{\"question\":\"Which city?\",\"options\":[\"Hanoi\",\"Hue\"]}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"ask1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"ok1","toolCallName":"request_approval","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"ok1","delta":"{\"message\":\"Pay the deposit?\",\"action\":\"pay_deposit\",\"arguments\":{\"eur\":20}}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"ok1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	form := s.Approval("ask1")
	require.NotNil(t, form)
	require.Equal(t, KindForm, form.Kind)
	assert.Equal(t, "Which city?", form.Form.Text)
	require.Len(t, form.Form.Fields, 1)
	assert.Equal(t, FieldEnum, form.Form.Fields[0].Type)
	values, err := BuildFormValues(form.Form, map[string]string{"answer": "1"})
	require.NoError(t, err)
	ready, err := s.answerCard("ask1", CardAnswer{Values: values})
	require.NoError(t, err)
	assert.False(t, ready, "the approval still waits")
	ready, err = s.answerCard("ok1", CardAnswer{Decisions: []wire.Decision{{Type: "reject", Message: "too much"}}})
	require.NoError(t, err)
	assert.True(t, ready)
	next := s.aguiRunInput("")
	contents := map[string]string{}
	for _, m := range next.Messages {
		if m.Role == "tool" {
			var c string
			require.NoError(t, json.Unmarshal(m.Content, &c))
			contents[m.ToolCallID] = c
		}
	}
	assert.JSONEq(t, `{"answer":"Hue"}`, contents["ask1"])
	assert.JSONEq(t, `{"approved":false,"reason":"too much"}`, contents["ok1"])

	// The next run asks again; the user writes instead of answering.
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r2"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"ask2","toolCallName":"ask_user","parentMessageId":"m2"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"ask2","delta":"{\"question\":\"What time?\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"ask2"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r2"}`,
	)
	ask2 := s.Approval("ask2")
	require.NotNil(t, ask2)
	assert.Equal(t, FieldString, ask2.Form.Fields[0].Type, "no options: a free answer")
	after := s.aguiRunInput("Never mind")
	n := len(after.Messages)
	require.Equal(t, "tool", after.Messages[n-2].Role, "the call is answered before the new message")
	var c string
	require.NoError(t, json.Unmarshal(after.Messages[n-2].Content, &c))
	assert.JSONEq(t, `{"cancelled":true,"reason":"The user sent a new message instead of answering."}`, c)
	assert.Equal(t, QuestionExpired, ask2.Form.State)
}

// A call the agent ran itself (its result came in the run) is no card.
func TestAGUIClientToolWithAResultIsNoCard(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"a1","toolCallName":"ask_user"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"a1","delta":"{\"question\":\"?\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"a1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"a1","content":"{\"answer\":\"x\"}"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	assert.Nil(t, s.Pending())
	assert.Nil(t, s.Approval("a1"))
}

// An AI SDK tool without execute (the route's askUser): a card at finish,
// answered by the part's output in the next request, as addToolOutput
// does; a new message instead ends it with an error.
func TestAISDKClientToolAnsweredAsItsOutput(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("Book a table")
	applyTo(s,
		`{"type":"start","messageId":"a1"}`,
		`{"type":"start-step"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"askUser","input":{"question":"Which city?","options":["Hanoi","Hue"]}}`,
		`{"type":"finish-step"}`,
	)
	assert.Nil(t, s.Pending())
	applyTo(s, `{"type":"finish","finishReason":"tool-calls"}`)
	form := s.Pending()
	require.NotNil(t, form)
	require.Equal(t, KindForm, form.Kind)
	assert.Equal(t, []Kind{KindUser, KindForm}, kindsOf(s.Items()))

	// A reload while it waits shows it again.
	r := newDialectStore()
	r.restoreUI(s.UIConversation())
	require.NotNil(t, r.Pending())

	values, err := BuildFormValues(form.Form, map[string]string{"answer": "0"})
	require.NoError(t, err)
	ready, err := s.answerCard("c1", CardAnswer{Values: values})
	require.NoError(t, err)
	require.True(t, ready)
	req := s.uiChatRequest("")
	assert.Equal(t, "a1", req.MessageID, "the request continues the message, as addToolOutput's automatic send does")
	p := req.Messages[1].Parts[1]
	assert.Equal(t, "tool-askUser", p.Type)
	assert.Equal(t, "output-available", p.State)
	assert.JSONEq(t, `{"answer":"Hanoi"}`, string(p.Output))

	// Restored, the answered card reads its answer.
	again := newDialectStore()
	again.restoreUI(s.UIConversation())
	assert.Nil(t, again.Pending())
	require.NotNil(t, again.Approval("c1"))
	assert.Equal(t, QuestionAnswered, again.Approval("c1").Form.State)

	// requestApproval, then a new message instead of an answer.
	applyTo(s,
		`{"type":"start"}`,
		`{"type":"tool-input-available","toolCallId":"c2","toolName":"requestApproval","input":{"message":"Pay invoice 42?","action":"payInvoice","arguments":{"invoice":42}}}`,
		`{"type":"finish","finishReason":"tool-calls"}`,
	)
	card := s.Pending()
	require.NotNil(t, card)
	require.Equal(t, KindApproval, card.Kind)
	assert.Equal(t, "payInvoice", card.Approval.Actions[0].Name)
	next := s.uiChatRequest("Do not pay it")
	var part *wire.UIPart
	for i := range next.Messages {
		for j := range next.Messages[i].Parts {
			if next.Messages[i].Parts[j].ToolCallID == "c2" {
				part = &next.Messages[i].Parts[j]
			}
		}
	}
	require.NotNil(t, part)
	assert.Equal(t, "output-error", part.State)
	assert.Equal(t, ApprovalExpired, card.Approval.State)
}

// An interrupt past its expiresAt expires: its card takes no answer and
// the next run cancels it (an answer would be refused by the reference
// client); the answers given to the others then go.
func TestAGUIInterruptExpires(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("Book it")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"book","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[`+
			`{"id":"hold","reason":"input_required","message":"Confirm?","responseSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}},"expiresAt":"2026-03-01T10:00:00Z"},`+
			`{"id":"ok-book","reason":"tool_call","toolCallId":"c1","expiresAt":"2026-03-01T11:00:00Z"}]}}`,
	)
	form, approval := s.Approval("hold"), s.Approval("ok-book")
	require.NotNil(t, form)
	require.NotNil(t, approval)
	assert.Equal(t, "2026-03-01T10:00:00Z", form.Form.ExpiresAt)
	assert.Equal(t, "2026-03-01T11:00:00Z", approval.Approval.ExpiresAt)
	v := viewJSON(t, s)
	items := v["items"].([]any)
	assert.Equal(t, "2026-03-01T11:00:00Z", items[1].(map[string]any)["steps"].([]any)[1].(map[string]any)["expires_at"])

	_, ready := s.expireDue(time.Date(2026, 3, 1, 9, 59, 59, 0, time.UTC))
	assert.False(t, ready)
	assert.Equal(t, QuestionPending, form.Form.State, "not yet")
	ready, err := s.answerCard("ok-book", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	assert.False(t, ready, "the form still waits")
	_, ready = s.expireDue(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	assert.True(t, ready, "the form expired, the approval is answered: the answers go")
	assert.Equal(t, QuestionExpired, form.Form.State)
	_, err = s.answerCard("hold", CardAnswer{Values: json.RawMessage(`{"ok":true}`)})
	assert.ErrorIs(t, err, ErrNoCard)
	in := s.aguiRunInput("")
	assert.JSONEq(t, `[{"interruptId":"ok-book","status":"resolved","payload":{"approved":true}},{"interruptId":"hold","status":"cancelled"}]`, mustMarshal(t, in.Resume))
}

// A user message the agent relays shows as the user's; the page's own
// message echoed back does not show twice.
func TestAGUIRelayedUserMessage(t *testing.T) {
	s := newDialectStore()
	in := s.aguiRunInput("Hello")
	mine := in.Messages[len(in.Messages)-1].ID
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"`+mine+`","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"`+mine+`","delta":"Hello"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"`+mine+`"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"u2","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u2","delta":"Also: "}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u2","delta":"in French"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"u2"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"Bonjour"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindUser, KindText}, kindsOf(items))
	assert.Equal(t, "Also: in French", items[1].Text)
	var roles []string
	for _, m := range s.AGUIConversation().Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"user", "user", "assistant"}, roles)
}

// An activity's content says how far along it is: its row reads it.
func TestActivityLive(t *testing.T) {
	for _, c := range []struct {
		content, summary string
		progress         float64 // -1: none
	}{
		{`{"title":"Indexing files","progress":0.5}`, "Indexing files", 0.5},
		{`{"title":"Indexing","status":"running","percent":40}`, "Indexing · running", 0.4},
		{`{"message":"Reading","done":2,"total":3}`, "Reading", 2.0 / 3},
		{`{"tasks":["a"]}`, "", -1},
		{`{"progress":250}`, "", -1},
		{`"text"`, "", -1},
	} {
		summary, progress := activityLive(json.RawMessage(c.content))
		assert.Equal(t, c.summary, summary, c.content)
		if c.progress < 0 {
			assert.Nil(t, progress, c.content)
		} else if assert.NotNil(t, progress, c.content) {
			assert.InDelta(t, c.progress, *progress, 1e-9, c.content)
		}
	}
}
