package state

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// aguiTwoTurns is an AG-UI conversation of two turns, the first ending
// with an approval answered before the second.
func aguiTwoTurns(t *testing.T) AGUIConversation {
	t.Helper()
	s := newDialectStore()
	s.aguiRunInput("send it")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send?"}]}}`,
	)
	s.aguiRunInput("the weather?") // cancels i1
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r2"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a2","delta":"Sunny"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a2"}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r2"}`,
	)
	return s.AGUIConversation()
}

// Issue 38.8: a save that leaves the oldest turns out cuts before a
// message of the user's; the cards of the turns left out go with them,
// and what is kept shows as it did.
func TestAGUIConversationFromATurn(t *testing.T) {
	c := aguiTwoTurns(t)
	require.Equal(t, []string{"user", "assistant", "user", "assistant"}, rolesAGUI(c))
	assert.Equal(t, []int{2}, c.TurnStarts())
	require.Len(t, c.Answered, 1)

	kept := c.From(2)
	assert.Equal(t, []string{"user", "assistant"}, rolesAGUI(kept))
	assert.Empty(t, kept.Answered, "the first turn's card goes with it")
	assert.Equal(t, c.ThreadID, kept.ThreadID)
	assert.Len(t, c.Messages, 4, "the conversation itself is not changed")

	r := newDialectStore()
	r.restoreAGUI(kept)
	assert.Equal(t, []Kind{KindUser, KindText}, kindsOf(r.Items()))
	assert.Equal(t, "the weather?", r.Items()[0].Text)
	assert.Equal(t, c.From(0).Messages, c.Messages)
}

func rolesAGUI(c AGUIConversation) []string {
	var out []string
	for _, m := range c.Messages {
		out = append(out, m.Role)
	}
	return out
}

func TestUIConversationFromATurn(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("first")
	applyTo(s, `{"type":"start","messageId":"m1"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"One"}`, `{"type":"text-end","id":"t"}`, `{"type":"finish"}`)
	s.uiChatRequest("second")
	applyTo(s, `{"type":"start","messageId":"m2"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"Two"}`)
	c := s.UIConversation()
	assert.Equal(t, []int{2}, c.TurnStarts())
	kept := c.From(2)
	require.Len(t, kept.Messages, 2)
	assert.Equal(t, "user", kept.Messages[0].Role)
	assert.Equal(t, c.Active, kept.Active, "the response being streamed stays: it writes the newest message")
	r := newDialectStore()
	r.restoreUI(kept)
	assert.Equal(t, []Kind{KindUser, KindText}, kindsOf(r.Items()))
	assert.Equal(t, "second", r.Items()[0].Text)
}

// shownAs describes the items as a reader sees them: kinds (a group's
// steps in brackets) with an error's text and a notice's reason.
func shownAs(items []*Item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(string(it.Kind))
		switch it.Kind {
		case KindGroup:
			b.WriteString("[" + shownAs(it.Group.Steps) + "]")
		case KindError, KindThinking, KindText, KindUser:
			b.WriteString("(" + it.Text + ")")
		case KindNotice:
			b.WriteString("(" + it.Notice.Reason + ":" + it.Notice.Detail + ")")
		}
		b.WriteString(" ")
	}
	return b.String()
}

// reloadAGUI saves the conversation as the browser keeps it (JSON) and
// restores it into a new store, as F5 does.
func reloadAGUI(t *testing.T, s *Store) *Store {
	t.Helper()
	raw, err := json.Marshal(s.AGUIConversation())
	require.NoError(t, err)
	var c AGUIConversation
	require.NoError(t, json.Unmarshal(raw, &c))
	r := newDialectStore()
	r.restoreAGUI(c)
	return r
}

func reloadUI(t *testing.T, s *Store) *Store {
	t.Helper()
	raw, err := json.Marshal(s.UIConversation())
	require.NoError(t, err)
	var c UIConversation
	require.NoError(t, json.Unmarshal(raw, &c))
	r := newDialectStore()
	r.restoreUI(c)
	return r
}

// Issue 38.13: in the AG-UI mode a run's error, the deprecated THINKING_*
// reasoning, a stop and the notices of a request that failed (the proxy's
// refusal, a stream cut short) show after F5 where they showed live.
func TestAGUIReloadShowsErrorsNoticesAndThinking(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("first")
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"THINKING_START"}`,
		`{"type":"THINKING_TEXT_MESSAGE_START"}`,
		`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"Let me think"}`,
		`{"type":"THINKING_TEXT_MESSAGE_END"}`,
		`{"type":"THINKING_END"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"Partly"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a1"}`,
		`{"type":"RUN_ERROR","message":"The model is overloaded","code":"overloaded"}`,
	)
	s.aguiRunInput("second")
	s.streamFailed(&wire.StreamProblem{Status: 502, Detail: "the agent is not reachable"})
	s.aguiRunInput("third")
	applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r3"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a3","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a3","delta":"Half"}`)
	s.endStreamUnexpectedly("connection reset")
	s.aguiRunInput("fourth")
	applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r4"}`)
	s.stopRun()

	live := shownAs(s.Items())
	for _, want := range []string{"thinking(Let me think)", "error(The model is overloaded)", "notice(backend_error:", "notice(stream_ended:connection reset)", "stopped"} {
		require.Contains(t, live, want)
	}
	r := reloadAGUI(t, s)
	assert.Equal(t, live, shownAs(r.Items()), "F5 shows what was shown")
	assert.Equal(t, StatusIdle, r.Status())
	roles := rolesAGUI(s.AGUIConversation())
	assert.Equal(t, []string{"user", "reasoning", "assistant", "user", "user", "assistant", "user"}, roles,
		"THINKING_* reasoning is a reasoning message, as @ag-ui/client makes it")
	// Saved again after the reload, nothing shows twice.
	assert.Equal(t, live, shownAs(reloadAGUI(t, r).Items()))
}

// The same in the AI SDK mode: an error chunk, a stop and the proxy's
// refusal.
func TestAISDKReloadShowsErrorsAndNotices(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("first")
	applyTo(s, `{"type":"start","messageId":"m1"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"Partly"}`, `{"type":"text-end","id":"t"}`,
		`{"type":"error","errorText":"Rate limit reached"}`, `{"type":"finish","finishReason":"error"}`)
	s.uiChatRequest("second")
	s.streamFailed(&wire.StreamProblem{Status: 413, Detail: "the conversation is too large to send"})
	s.uiChatRequest("third")
	applyTo(s, `{"type":"start","messageId":"m3"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"Cut"}`, `{"type":"text-end","id":"t"}`,
		`{"type":"finish","finishReason":"length"}`)
	s.uiChatRequest("fourth")
	applyTo(s, `{"type":"start","messageId":"m4"}`, `{"type":"abort"}`)

	live := shownAs(s.Items())
	for _, want := range []string{"error(Rate limit reached)", "notice(backend_error:", "notice(max_tokens:)", "stopped"} {
		require.Contains(t, live, want)
	}
	r := reloadUI(t, s)
	assert.Equal(t, live, shownAs(r.Items()), "F5 shows what was shown")
	assert.Equal(t, live, shownAs(reloadUI(t, r).Items()))
}

// Conversations saved before notes were kept still load.
func TestConversationsSavedWithoutNotesLoad(t *testing.T) {
	var a AGUIConversation
	require.NoError(t, json.Unmarshal([]byte(`{"threadId":"th","messages":[{"id":"u","role":"user","content":"hi"},{"id":"a","role":"assistant","content":"hello"}]}`), &a))
	r := newDialectStore()
	r.restoreAGUI(a)
	assert.Equal(t, "user(hi) text(hello) ", shownAs(r.Items()))
	var u UIConversation
	require.NoError(t, json.Unmarshal([]byte(`{"id":"c","messages":[{"id":"u","role":"user","parts":[{"type":"text","text":"hi"}]},{"id":"a","role":"assistant","parts":[{"type":"text","text":"hello"}]}]}`), &u))
	r = newDialectStore()
	r.restoreUI(u)
	assert.Equal(t, "user(hi) text(hello) ", shownAs(r.Items()))
}

// A save that leaves the oldest turns out leaves their notes out too.
func TestNotesFollowTheirTurns(t *testing.T) {
	s := newDialectStore()
	s.aguiRunInput("first")
	applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`, `{"type":"RUN_ERROR","message":"old failure"}`)
	s.aguiRunInput("second")
	applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r2"}`, `{"type":"RUN_ERROR","message":"new failure"}`)
	c := s.AGUIConversation()
	kept := c.From(c.TurnStarts()[0])
	r := newDialectStore()
	r.restoreAGUI(kept)
	assert.Equal(t, "user(second) error(new failure) ", shownAs(r.Items()))
}
