package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func TestAISDKTurnWithReasoningToolsSourcesAndText(t *testing.T) {
	s := newDialectStore()
	req := s.uiChatRequest("weather?")
	assert.Equal(t, "id1", req.ID)
	assert.Equal(t, "submit-message", req.Trigger)
	assert.Empty(t, req.MessageID)
	require.Len(t, req.Messages, 1)
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"start-step"}`,
		`{"type":"reasoning-start","id":"r1"}`,
		`{"type":"reasoning-delta","id":"r1","delta":"Think"}`,
		`{"type":"reasoning-end","id":"r1"}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"getWeather","title":"Weather lookup"}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"city\":\"Ha"}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"noi\"}"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"getWeather","input":{"city":"Hanoi"}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":{"t":31},"preliminary":true}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":{"t":32}}`,
		`{"type":"finish-step"}`,
		`{"type":"start-step"}`,
		`{"type":"source-url","sourceId":"s1","url":"https://weather.example/hanoi","title":"Hanoi weather"}`,
		`{"type":"data-progress","id":"p","data":{"pct":50}}`,
		`{"type":"data-progress","id":"p","data":{"pct":100}}`,
		`{"type":"data-ephemeral","data":1,"transient":true}`,
		`{"type":"text-start","id":"t1"}`,
		`{"type":"text-delta","id":"t1","delta":"32 degrees."}`,
		`{"type":"text-end","id":"t1"}`,
		`{"type":"finish-step"}`,
		`{"type":"finish","finishReason":"stop"}`,
	)
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, StatusIdle, s.Status())
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindText}, kindsOf(items))
	g := items[1].Group
	assert.False(t, g.Open)
	assert.Equal(t, "Weather lookup", g.Title())
	tool := g.Steps[1].Tool
	assert.Equal(t, ToolDone, tool.Status)
	assert.Equal(t, "{\n  \"t\": 32\n}", *tool.Result)
	assert.True(t, items[1].Brand)
	require.Len(t, s.Sources(), 1)
	assert.Equal(t, SourceGroup{Query: "Sources", Sources: []Source{{URL: "https://weather.example/hanoi", Title: "Hanoi weather", Domain: "weather.example", Favicon: "https://www.google.com/s2/favicons?domain=weather.example&sz=16"}}}, s.Sources()[0])

	// The message is built as the SDK's processUIMessageStream builds it.
	c := s.UIConversation()
	require.Len(t, c.Messages, 2)
	assert.Nil(t, c.Active)
	assert.JSONEq(t, `{"id":"m1","role":"assistant","parts":[
		{"type":"step-start"},
		{"type":"reasoning","id":"r1","text":"Think","state":"done"},
		{"type":"tool-getWeather","toolCallId":"c1","state":"output-available","title":"Weather lookup","input":{"city":"Hanoi"},"output":{"t":32}},
		{"type":"step-start"},
		{"type":"source-url","sourceId":"s1","url":"https://weather.example/hanoi","title":"Hanoi weather"},
		{"type":"data-progress","id":"p","data":{"pct":100}},
		{"type":"text","text":"32 degrees.","state":"done"}
	]}`, mustMarshal(t, c.Messages[1]))
}

func TestAISDKToolInputGrowsAsItStreams(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"start"}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"search"}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"q\":\"stream"}`,
	)
	tool := s.Tool("c1").Tool
	assert.JSONEq(t, `{"q":"stream"}`, string(tool.Input))
	c := s.UIConversation()
	p := c.Messages[0].Parts[0]
	assert.Equal(t, "input-streaming", p.State)
	assert.JSONEq(t, `"{\"q\":\"stream"`, string(p.RawInput))
}

func TestAISDKApprovalAnsweredInTheNextPost(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("delete it")
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"start-step"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"deleteFile","input":{"path":"/x"}}`,
		`{"type":"tool-approval-request","approvalId":"ap1","toolCallId":"c1"}`,
		`{"type":"finish-step"}`,
		`{"type":"finish","finishReason":"tool-calls"}`,
	)
	assert.Equal(t, StatusIdle, s.Status())
	g := s.Items()[1].Group
	assert.True(t, g.Open)
	card := g.Steps[1].Approval
	assert.Equal(t, []string{"approve", "reject"}, card.Actions[0].Allowed)
	assert.Equal(t, ToolAwaiting, g.Steps[0].Tool.Status)

	_, err := s.answerCard("ap1", CardAnswer{Decisions: []wire.Decision{{Type: "edit"}}})
	require.Error(t, err, "edit is not offered")
	ready, err := s.answerCard("ap1", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	assert.True(t, ready)
	req := s.uiChatRequest("")
	assert.Equal(t, "m1", req.MessageID)
	assert.Equal(t, "submit-message", req.Trigger)
	require.Len(t, req.Messages, 2)
	assert.JSONEq(t, `{"type":"tool-deleteFile","toolCallId":"c1","state":"approval-responded","input":{"path":"/x"},"approval":{"id":"ap1","approved":true}}`, mustMarshal(t, req.Messages[1].Parts[1]))
	assert.Equal(t, &UIActive{MessageID: "m1", BaseParts: 2}, s.UIConversation().Active)

	// The route's answer continues the same message, in the same group.
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"start-step"}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":"deleted"}`,
		`{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"Done."}`,
		`{"type":"text-end","id":"t"}`,
		`{"type":"finish","finishReason":"stop"}`,
	)
	c := s.UIConversation()
	require.Len(t, c.Messages, 2)
	assert.Len(t, c.Messages[1].Parts, 4) // step, tool; step, text
	assert.Equal(t, "output-available", c.Messages[1].Parts[1].State)
	assert.Equal(t, ToolDone, g.Steps[0].Tool.Status)
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindText}, kindsOf(items))
	assert.False(t, items[2].Brand, "the approval's answer continues the turn")
}

func TestAISDKNewMessageDeniesWaitingApprovals(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("go")
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"pay","input":{}}`,
		`{"type":"tool-approval-request","approvalId":"ap1","toolCallId":"c1"}`,
		`{"type":"finish"}`,
	)
	req := s.uiChatRequest("no, stop")
	require.Len(t, req.Messages, 3)
	assert.JSONEq(t, `{"type":"tool-pay","toolCallId":"c1","state":"output-denied","input":{},"approval":{"id":"ap1","approved":false}}`, mustMarshal(t, req.Messages[1].Parts[0]))
	tool := s.Tool("c1")
	assert.Equal(t, ToolError, tool.Tool.Status)
	assert.True(t, tool.Tool.Denied)
	assert.Equal(t, ApprovalRejected, s.Approval("ap1").Approval.State)
	assert.Nil(t, s.Pending())
}

func TestAISDKEndings(t *testing.T) {
	for _, tc := range []struct {
		finish string
		status AgentStatus
		notice string
	}{
		{`{"type":"finish","finishReason":"length"}`, StatusIdle, NoticeMaxTokens},
		{`{"type":"finish","finishReason":"content-filter"}`, StatusIdle, NoticeRefusal},
		{`{"type":"finish","finishReason":"error"}`, StatusError, ""},
		{`{"type":"abort","reason":"user"}`, StatusStopped, ""},
	} {
		s := newDialectStore()
		applyTo(s,
			`{"type":"start"}`,
			`{"type":"tool-input-start","toolCallId":"c1","toolName":"x"}`,
			`{"type":"error","errorText":"boom"}`,
			tc.finish,
		)
		require.Zero(t, s.SkippedCount(), tc.finish)
		assert.Equal(t, tc.status, s.Status(), tc.finish)
		items := s.Items()
		last := items[len(items)-1]
		switch {
		case tc.notice != "":
			assert.Equal(t, tc.notice, last.Notice.Reason)
		case tc.status == StatusStopped:
			assert.Equal(t, KindStopped, last.Kind)
		default:
			assert.Equal(t, KindError, last.Kind)
			assert.Equal(t, "boom", last.Text)
		}
		assert.Equal(t, ToolInterrupted, s.Tool("c1").Tool.Status, tc.finish)
	}
}

func TestAISDKToolErrorsAndDenial(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"start"}`,
		`{"type":"tool-input-error","toolCallId":"c1","toolName":"parse","input":"{bad","errorText":"Invalid input"}`,
		`{"type":"tool-input-available","toolCallId":"c2","toolName":"run","input":{}}`,
		`{"type":"tool-output-error","toolCallId":"c2","errorText":"crashed"}`,
		`{"type":"tool-input-available","toolCallId":"c3","toolName":"pay","input":{}}`,
		`{"type":"tool-output-denied","toolCallId":"c3"}`,
		`{"type":"reasoning-start","id":"r","providerMetadata":{"anthropic":{"redactedData":"xyz"}}}`,
		`{"type":"reasoning-end","id":"r"}`,
		`{"type":"source-document","sourceId":"d","mediaType":"application/pdf","title":"Report","filename":"r.pdf"}`,
		`{"type":"file","url":"https://files.example/a.png","mediaType":"image/png"}`,
		`{"type":"finish"}`,
		`{"type":"text-delta","id":"none","delta":"x"}`,
		`{"type":"tool-approval-request","approvalId":"a","toolCallId":"ghost"}`,
		`{"type":"totally-new-chunk"}`,
	)
	assert.Equal(t, 3, s.SkippedCount())
	assert.Equal(t, "Invalid input", *s.Tool("c1").Tool.Result)
	assert.Equal(t, ToolError, s.Tool("c1").Tool.Status)
	assert.Equal(t, "crashed", *s.Tool("c2").Tool.Result)
	assert.True(t, s.Tool("c3").Tool.Denied)
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindActivity}, kindsOf(items))
	steps := items[0].Group.Steps
	require.Equal(t, []Kind{KindTool, KindTool, KindTool, KindThinking, KindActivity}, kindsOf(steps))
	assert.True(t, steps[3].Redacted)
	assert.Equal(t, "Report", steps[4].Activity.Name)
	assert.Equal(t, "https://files.example/a.png", items[1].Text)
	c := s.UIConversation()
	parts := c.Messages[0].Parts
	assert.JSONEq(t, `{"type":"tool-parse","toolCallId":"c1","state":"output-error","rawInput":"{bad","errorText":"Invalid input"}`, mustMarshal(t, parts[0]))
	assert.Equal(t, "output-denied", parts[2].State)
}

func TestAISDKRestoreAndResume(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("first")
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"pay","input":{"n":1}}`,
		`{"type":"tool-approval-request","approvalId":"ap1","toolCallId":"c1"}`,
		`{"type":"finish"}`,
	)
	_, err := s.answerCard("ap1", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	s.uiChatRequest("")
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":"paid"}`,
		`{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"Paid, "}`,
	)
	// Saved in the middle of the response, then the page reloads.
	saved := s.UIConversation()
	require.NotNil(t, saved.Active)
	raw, _ := json.Marshal(saved)
	var loaded UIConversation
	require.NoError(t, json.Unmarshal(raw, &loaded))

	r := newDialectStore()
	r.restoreUI(loaded)
	assert.Equal(t, StatusIdle, r.Status())
	items := r.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindText}, kindsOf(items))
	assert.False(t, items[1].Group.Open)
	assert.Equal(t, ApprovalApproved, items[1].Group.Steps[1].Approval.State)
	assert.Equal(t, "Paid, ", items[2].Text)

	// The route has the stream: it replays the response from its start.
	r.beginUIResume()
	assert.Equal(t, StatusRunning, r.Status())
	require.Equal(t, []Kind{KindUser, KindGroup}, kindsOf(r.Items()), "what the replay will bring again is taken back")
	// The tool part kept its output: the replay brings the same again.
	assert.Equal(t, ToolDone, r.Tool("c1").Tool.Status)
	applyTo(r,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":"paid"}`,
		`{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"Paid, "}`,
		`{"type":"text-delta","id":"t","delta":"thanks."}`,
		`{"type":"text-end","id":"t"}`,
		`{"type":"finish"}`,
	)
	require.Zero(t, r.SkippedCount())
	items = r.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindText}, kindsOf(items))
	assert.Equal(t, "Paid, thanks.", items[2].Text)
	assert.Equal(t, ToolDone, r.Tool("c1").Tool.Status)
	c := r.UIConversation()
	require.Len(t, c.Messages, 2)
	assert.Nil(t, c.Active)
	assert.Len(t, c.Messages[1].Parts, 2)
	assert.Equal(t, "Paid, thanks.", *c.Messages[1].Parts[1].Text)

	// Nothing to resume (204): what was saved stays as shown.
	r2 := newDialectStore()
	r2.restoreUI(loaded)
	r2.endUIResume()
	assert.Nil(t, r2.UIConversation().Active)
	assert.Equal(t, "Paid, ", r2.Items()[2].Text)
}

// AI SDK v7 adds custom, reasoning-file, steering-message,
// tool-approval-response and reset-step chunks.
func TestAISDKV7Chunks(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("go")
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"start-step"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"pay","input":{}}`,
		`{"type":"tool-approval-request","approvalId":"ap1","toolCallId":"c1"}`,
		`{"type":"tool-approval-response","approvalId":"ap1","approved":true}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":"paid"}`,
		`{"type":"finish-step"}`,
		`{"type":"start-step"}`,
		`{"type":"custom","kind":"openai.compaction"}`,
		`{"type":"reasoning-file","url":"data:image/png;base64,AA==","mediaType":"image/png"}`,
		`{"type":"text-start","id":"t1"}`,
		`{"type":"text-delta","id":"t1","delta":"A draft that is thrown away"}`,
		`{"type":"source-url","sourceId":"s","url":"https://gone.example"}`,
		`{"type":"reset-step"}`,
		`{"type":"steering-message","id":"u2","parts":[{"type":"text","text":"shorter please"}]}`,
		`{"type":"text-start","id":"t2"}`,
		`{"type":"text-delta","id":"t2","delta":"Paid."}`,
		`{"type":"text-end","id":"t2"}`,
		`{"type":"finish"}`,
	)
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, ApprovalApproved, s.Approval("ap1").Approval.State)
	assert.Equal(t, ToolDone, s.Tool("c1").Tool.Status)
	items := s.Items()
	require.Equal(t, []Kind{KindUser, KindGroup, KindUser, KindText}, kindsOf(items))
	assert.Equal(t, "shorter please", items[2].Text)
	assert.Equal(t, "Paid.", items[3].Text)
	assert.Empty(t, s.Sources(), "the reset step's source went with it")
	parts := s.UIConversation().Messages[1].Parts
	var types []string
	for _, p := range parts {
		types = append(types, p.Type)
	}
	assert.Equal(t, []string{"step-start", "tool-pay", "step-start", "steering-message", "text"}, types)
	assert.Equal(t, "output-available", parts[1].State)
	assert.True(t, *parts[1].Approval.Approved)
}
