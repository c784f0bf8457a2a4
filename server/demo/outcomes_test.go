package demo

import (
	"encoding/json"
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

// After a rejection or a response in place of the tool, the demo agent
// does not say it placed the order; after an approval it does.
func TestDemoAgentReactsToTheDecision(t *testing.T) {
	for decision, want := range map[string]struct{ says, never string }{
		"approve": {"Lệnh đã được xử lý", "không đặt lệnh"},
		"reject":  {"không đặt lệnh", "xử lý"},
		"respond": {"chưa đặt lệnh", "xử lý"},
	} {
		t.Run(decision, func(t *testing.T) {
			a := newTestAgent(t)
			s := attach(t, a, "decide-"+decision)
			require.NoError(t, a.Handle(s, message("/approval")))
			st := collect(t, s, "", func(st *state.Store) bool { return st.Pending() != nil })
			msg := ""
			if decision != "approve" {
				msg = `,"message":"no"`
			}
			require.NoError(t, a.Handle(s, frame(`{"type":"approval","approval_key":"`+st.Pending().Approval.ApprovalKey+`","decisions":[{"type":"`+decision+`"`+msg+`}]}`)))
			st = collect(t, s, "", idle)
			items := st.Items()
			last := items[len(items)-1]
			require.Equal(t, state.KindText, last.Kind)
			assert.Contains(t, last.Text, want.says)
			assert.NotContains(t, last.Text, want.never)
			var texts int
			for _, it := range items {
				if it.Kind == state.KindText {
					texts++
				}
			}
			assert.Equal(t, 2, texts, "the intro and one answer")
		})
	}
}

// A "when" names a known outcome, after an approval wait, and the run
// ends whatever the answer.
func TestScenarioWhenIsChecked(t *testing.T) {
	start := `{"event": {"type": "message_start", "message": {"id": "m", "role": "assistant"}}}` + "\n"
	ask := `{"event": {"type": "content_block_start", "index": 1, "content_block": {"type": "approval_request", "approval_key": "k", "action_requests": [{"name": "x", "args": {}}]}}}` + "\n" + `{"wait": "approval"}` + "\n"
	end := `{"event": {"type": "message_stop"}}` + "\n"
	for body, want := range map[string]string{
		start + ask + `{"sleep_ms": 1, "when": ["maybe"]}` + "\n" + end:                 `unknown outcome "maybe"`,
		start + `{"sleep_ms": 1, "when": ["reject"]}` + "\n" + ask + end:                `"when" before any`,
		start + ask + `{"event": {"type": "message_stop"}, "when": ["approve"]}` + "\n": "the last event has a",
	} {
		_, err := ParseScenario("w", []byte(body))
		if assert.Error(t, err) {
			assert.Contains(t, err.Error(), want)
		}
	}
	_, err := ParseScenario("w", []byte(start+ask+`{"sleep_ms": 1, "when": ["reject", "timeout"]}`+"\n"+end))
	assert.NoError(t, err)
}

// The timeline's plan ends with its three steps done, the question's
// (answered) with its two: the header's "Plan" does not stay at 0/3.
func TestTimelinePlanEndsDone(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "timeline-plan")
	require.NoError(t, a.Handle(s, message("/timeline")))
	st := collect(t, s, "", idle)
	p, ok := st.Plan()
	require.True(t, ok)
	assert.Equal(t, 3, len(p.Todos))
	assert.Equal(t, 3, p.Done())

	s = attach(t, a, "question-plan")
	require.NoError(t, a.Handle(s, message("/question")))
	st = collect(t, s, "", func(st *state.Store) bool { return st.Pending() != nil })
	q := st.Pending().Question
	answers := map[string]string{}
	for _, qu := range q.Questions {
		answers[qu.Question] = "[No preference]"
	}
	b, _ := json.Marshal(map[string]any{"type": "approval", "approval_key": q.ApprovalKey, "answers": answers})
	require.NoError(t, a.Handle(s, frame(string(b))))
	st = collect(t, s, "", idle)
	p, ok = st.Plan()
	require.True(t, ok)
	assert.Equal(t, 2, p.Done())
	assert.Equal(t, 2, len(p.Todos))
}
