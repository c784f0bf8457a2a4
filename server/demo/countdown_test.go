package demo

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

// A question the demo agent asks carries its created_at, so that a client
// that reloads counts down the time the agent still waits, not a fresh
// timeout.
func TestApprovalRequestsCarryCreatedAt(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "stamped")
	before := time.Now().Add(-time.Second)
	require.NoError(t, a.Handle(s, message("/question")))
	st := collect(t, s, "", func(st *state.Store) bool { return st.Pending() != nil && st.Pending().Question != nil })
	at, err := time.Parse(time.RFC3339, st.Pending().Question.CreatedAt)
	require.NoError(t, err, "created_at %q", st.Pending().Question.CreatedAt)
	assert.True(t, at.After(before) && at.Before(time.Now().Add(time.Second)), "created_at %v", at)
	s.stop()
}

// The agent stops waiting timeout_seconds after the request's created_at,
// the moment the client's countdown reaches 0:00.
func TestApprovalTimesOutFromCreatedAt(t *testing.T) {
	a := newTestAgent(t)
	asked := time.Now().Add(-599500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	sc, err := ParseScenario("late", []byte(`{"event": {"type": "message_start", "message": {"id": "m", "role": "assistant", "message_type": "chat"}}}
{"event": {"type": "content_block_start", "index": 1, "content_block": {"type": "approval_request", "approval_key": "late", "created_at": "`+asked+`"}}}
{"event": {"type": "content_block_delta", "index": 1, "delta": {"action_requests": [{"name": "ask_user_question", "args": {"questions": [{"question": "Q?", "multiSelect": false, "options": [{"label": "A"}]}]}}], "timeout_seconds": 600}}}
{"event": {"type": "content_block_stop", "index": 1}}
{"wait": "approval"}
{"event": {"type": "message_stop"}}
`))
	require.NoError(t, err)
	a.scenarios["late"] = sc
	s := attach(t, a, "late")
	require.NoError(t, a.Handle(s, message("/late")))
	st := collect(t, s, "", func(st *state.Store) bool {
		for _, it := range st.Items() {
			if it.Question != nil && it.Question.State == state.QuestionExpired {
				return true
			}
		}
		return false
	})
	assert.Nil(t, st.Pending())
}
