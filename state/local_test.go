package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func keptStore(kept Kept) *Store {
	o := DefaultOptions()
	o.NewID = seqIDs()
	o.Kept = kept
	return New(o)
}

// A message: a native backend shows it with its echo; the page shows it
// at once where it keeps the conversation (a run starts with it) or where
// there is no backend.
func TestUserSentDependsOnWhoKeepsTheConversation(t *testing.T) {
	native := keptStore(KeptByBackend)
	ch, err := native.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	assert.Equal(t, Changes{Items: ch.Items}, ch, "nothing changes")
	assert.Empty(t, native.Items())

	replay := keptStore(KeptNowhere)
	ch, err = replay.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	assert.True(t, ch.List)
	assert.Equal(t, []Kind{KindUser}, kindsOf(replay.Items()))

	agui := keptStore(KeptAsAGUI)
	_, err = agui.ApplyLocal(Restored{AGUI: &AGUIConversation{ThreadID: "th"}})
	require.NoError(t, err)
	ch, err = agui.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	assert.True(t, ch.List && ch.Status, "shown, and the agent runs")
	assert.Equal(t, StatusRunning, agui.Status())
	in, ok := agui.NextAGUIRun()
	require.True(t, ok)
	assert.Equal(t, "th", in.ThreadID)
	require.Len(t, in.Messages, 1)
	in2, _ := agui.NextAGUIRun()
	assert.Equal(t, in.RunID, in2.RunID, "a query: asking again changes nothing")
	_, ok = agui.NextUIChatRequest()
	assert.False(t, ok, "not an AI SDK chat")
	agui.ApplyJSON([]byte(`{"type":"RUN_STARTED","threadId":"th","runId":"` + in.RunID + `"}`))
	_, ok = agui.NextAGUIRun()
	assert.False(t, ok, "for the run it started only")

	sdk := keptStore(KeptAsAISDK)
	_, err = sdk.ApplyLocal(Restored{UI: &UIConversation{ID: "chat"}})
	require.NoError(t, err)
	_, err = sdk.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	req, ok := sdk.NextUIChatRequest()
	require.True(t, ok)
	assert.Equal(t, "chat", req.ID)
	assert.Equal(t, StatusRunning, sdk.Status())

	_, err = agui.ApplyLocal(UserSent{})
	assert.Error(t, err, "an empty message")
}

// An answer: checked everywhere; applied at once where the page keeps the
// conversation, which says when every card has its answer.
func TestCardAnsweredAndAnswersSent(t *testing.T) {
	interrupt := `{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[
		{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send it?"}]}}`
	s := keptStore(KeptAsAGUI)
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		interrupt)
	_, err := s.ApplyLocal(CardAnswered{Key: "nope", Answer: CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}}})
	assert.ErrorIs(t, err, ErrNoCard)
	ch, err := s.ApplyLocal(CardAnswered{Key: "i1", Answer: CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}}})
	require.NoError(t, err)
	assert.True(t, ch.Pending && ch.Ready)
	assert.Nil(t, s.Pending())
	ch, err = s.ApplyLocal(AnswersSent{})
	require.NoError(t, err)
	assert.True(t, ch.Status)
	in, ok := s.NextAGUIRun()
	require.True(t, ok)
	assert.JSONEq(t, `[{"interruptId":"i1","status":"resolved","payload":{"approved":true}}]`, mustMarshal(t, in.Resume))

	native := keptStore(KeptByBackend)
	native.ApplyJSON([]byte(`{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve"]}]},"event_id":1}`))
	_, err = native.ApplyLocal(CardAnswered{Key: "ap", Answer: CardAnswer{Decisions: []wire.Decision{{Type: "reject"}}}})
	assert.Error(t, err, "a decision the approval does not allow")
	ch, err = native.ApplyLocal(CardAnswered{Key: "ap", Answer: CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}}})
	require.NoError(t, err)
	assert.False(t, ch.Pending || ch.Ready, "the backend resolves it")
	assert.NotNil(t, native.Pending())
	_, err = native.ApplyLocal(CardAnswered{Key: "ap", Answer: CardAnswer{Answers: map[string]string{"q": "a"}}})
	assert.NoError(t, err, "answers are the backend's to check")
	_, err = native.ApplyLocal(AnswersSent{})
	assert.ErrorIs(t, err, ErrNotKept)
	_, err = native.ApplyLocal(CardAnswered{Key: "nope", Answer: CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}}})
	assert.Error(t, err)
}

// What the page learns of a stream ends the run with a notice; a stop ends
// it where the page keeps the conversation, and is the backend's word
// elsewhere.
func TestStreamEndsAndStops(t *testing.T) {
	for _, ev := range []Local{StreamEnded{Detail: "reset"}, StreamTimedOut{}, StreamRefused{Problem: &wire.StreamProblem{Status: 500}}} {
		s := keptStore(KeptAsAISDK)
		s.ApplyLocal(Restored{UI: &UIConversation{ID: "c"}})
		s.ApplyLocal(UserSent{Text: "go"})
		ch, err := s.ApplyLocal(ev)
		require.NoError(t, err)
		assert.True(t, ch.Status && ch.List, "%T", ev)
		assert.Equal(t, StatusError, s.Status(), "%T", ev)
		assert.Equal(t, KindNotice, s.Items()[len(s.Items())-1].Kind, "%T", ev)
	}

	s := keptStore(KeptAsAGUI)
	s.ApplyLocal(UserSent{Text: "go"})
	ch, err := s.ApplyLocal(RunStopped{})
	require.NoError(t, err)
	assert.True(t, ch.Status)
	assert.Equal(t, StatusStopped, s.Status())

	native := keptStore(KeptByBackend)
	native.ApplyJSON([]byte(`{"type":"message_start","message":{"id":"m"},"event_id":1}`))
	ch, err = native.ApplyLocal(RunStopped{})
	require.NoError(t, err)
	assert.False(t, ch.Status)
	assert.Equal(t, StatusRunning, native.Status(), "the backend says when it stopped")
}

// An AI SDK chat saved while it streamed is restored, then resumed or not.
func TestRestoredThenResumed(t *testing.T) {
	s := keptStore(KeptAsAISDK)
	s.ApplyLocal(Restored{UI: &UIConversation{ID: "c"}})
	s.ApplyLocal(UserSent{Text: "go"})
	s.ApplyJSON([]byte(`{"type":"start","messageId":"m1"}`))
	s.ApplyJSON([]byte(`{"type":"text-start","id":"t"}`))
	s.ApplyJSON([]byte(`{"type":"text-delta","id":"t","delta":"Sun"}`))
	saved := s.UIConversation()
	raw, _ := json.Marshal(saved)
	var back UIConversation
	require.NoError(t, json.Unmarshal(raw, &back))

	r := keptStore(KeptAsAISDK)
	ch, err := r.ApplyLocal(Restored{UI: &back})
	require.NoError(t, err)
	assert.True(t, ch.List && ch.Status)
	assert.Equal(t, StatusIdle, r.Status())
	require.NotNil(t, r.UIConversation().Active, "it was streaming")
	ch, err = r.ApplyLocal(StreamResumed{})
	require.NoError(t, err)
	assert.True(t, ch.Status)
	assert.Equal(t, StatusRunning, r.Status())

	n := keptStore(KeptAsAISDK)
	n.ApplyLocal(Restored{UI: &back})
	_, err = n.ApplyLocal(NothingToResume{})
	require.NoError(t, err)
	assert.Nil(t, n.UIConversation().Active)
	assert.Equal(t, "Sun", n.Items()[1].Text, "what was saved stays")

	_, err = n.ApplyLocal(Restored{})
	assert.Error(t, err)
}
