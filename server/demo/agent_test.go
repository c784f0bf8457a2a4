package demo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

func TestEveryScenarioPlaysToTheEnd(t *testing.T) {
	a := newTestAgent(t)
	for _, name := range a.Scenarios().Names() {
		if name == "gated" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			s := attach(t, a, "s-"+name)
			require.NoError(t, a.Handle(s, message("/"+name)))
			answered := map[*state.Item]bool{}
			st := collect(t, s, "", func(st *state.Store) bool {
				if p := st.Pending(); p != nil && !answered[p] { // answer whatever is asked, once
					answered[p] = true
					key, answer := p.Question, map[string]string{}
					if key != nil {
						for _, q := range key.Questions {
							answer[q.Question] = q.Options[0].Label
						}
						require.NoError(t, a.Handle(s, wire.ClientFrame{Type: "approval", ApprovalKey: key.ApprovalKey, Answers: answer}))
					} else {
						require.NoError(t, a.Handle(s, wire.ClientFrame{Type: "approval", ApprovalKey: p.Approval.ApprovalKey,
							Decisions: []wire.Decision{{Type: "approve"}}}))
					}
				}
				return st.Status() != state.StatusRunning && len(st.Items()) > 1
			})
			assert.Zero(t, st.SkippedCount())
			assert.Equal(t, state.KindUser, st.Items()[0].Kind)
			want := state.StatusIdle
			if name == "error" {
				want = state.StatusError
			}
			assert.Equal(t, want, st.Status())
			assert.Equal(t, want, s.Status(), "the session's status is the log's")
			// A client that saw the run end may send the next message at once.
			require.NoError(t, a.Handle(s, message("/activity")))
			s.stop()
		})
	}
}

func TestResumeAfterIDHasNoGapNoOverlap(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "resume")
	require.NoError(t, a.Handle(s, message("/parallel")))
	full := collect(t, s, "", idle)
	events, err := a.Events("resume")
	require.NoError(t, err)
	// A client that saw the first 10 events resumes after the 10th.
	part := storeOf(events[:10])
	sub, err := s.Subscribe(part.LastEventID().String())
	require.NoError(t, err)
	sub.Cancel()
	require.Nil(t, sub.Reset)
	backlog := backlogOf(t, sub)
	require.Len(t, backlog, len(events)-10)
	for _, ev := range backlog {
		part.ApplyJSON(ev)
	}
	a1, _ := json.Marshal(full.View())
	a2, _ := json.Marshal(part.View())
	assert.JSONEq(t, string(a1), string(a2))
}

func TestNegativeLastEventIDReplaysEverything(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "neg")
	require.NoError(t, a.Handle(s, message("/error")))
	settle(t, s)
	events := mustEvents(t, a, "neg")
	for _, last := range []string{"-5", "-1", "0", "-99999999999999999999999"} {
		sub, err := s.Subscribe(last)
		require.NoError(t, err)
		sub.Cancel()
		assert.Nil(t, sub.Reset, last)
		assert.Len(t, backlogOf(t, sub), len(events), "last_event_id %s is before every id", last)
	}
}

func TestStopCancelsToolsAndEndsTheTurn(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "stop")
	require.NoError(t, a.Handle(s, message("/gated")))
	collect(t, s, "", hasGroupWithTools(2))
	done := runDone(s)
	require.NoError(t, a.Handle(s, frame(`{"type":"stop"}`)))
	st := collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusStopped })
	items := st.Items()
	assert.Equal(t, state.KindStopped, items[len(items)-1].Kind)
	for _, it := range items {
		if it.Kind == state.KindGroup {
			assert.False(t, it.Group.Open)
			for _, step := range it.Group.Steps {
				assert.Equal(t, state.ToolError, step.Tool.Status, "a running tool gets a cancelled result")
			}
		}
	}
	// Nothing more arrives once the run's goroutine is gone, gate or not.
	<-done
	a.Release("stop")
	n := len(mustEvents(t, a, "stop"))
	require.NoError(t, a.Handle(s, message("/activity")), "the session takes the next message")
	s.stop()
	assert.Greater(t, len(mustEvents(t, a, "stop")), n)
	assert.ErrorContains(t, a.Handle(s, frame(`{"type":"approval","approval_key":"x","decisions":[{"type":"approve"}]}`)), "no pending approval")
}

func mustEvents(t *testing.T, a *Agent, id string) [][]byte {
	t.Helper()
	ev, err := a.Events(id)
	require.NoError(t, err)
	return ev
}

func TestGateHoldsTheRunUntilReleased(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "gate")
	require.NoError(t, a.Handle(s, message("/gated")))
	collect(t, s, "", hasGroupWithTools(2))
	assert.Equal(t, state.StatusRunning, s.Status())
	assert.ErrorIs(t, a.Handle(s, message("again")), ErrBusy)
	require.True(t, a.Release("gate"))
	st := collect(t, s, "", idle)
	assert.Equal(t, state.ToolDone, st.Tool("g1.1").Tool.Status)
	assert.False(t, a.Release("nobody"), "no such session in memory")
}

func TestRejectedToolNeverRuns(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "reject")
	require.NoError(t, a.Handle(s, message("/approval")))
	st := collect(t, s, "", func(st *state.Store) bool { return st.Pending() != nil })
	key := st.Pending().Approval.ApprovalKey
	assert.Equal(t, "s1_ap.1", key, "keys are unique to the run")
	assert.Error(t, a.Handle(s, wire.ClientFrame{Type: "approval", ApprovalKey: key,
		Decisions: []wire.Decision{{Type: "approve"}, {Type: "approve"}}}), "one decision per action")
	require.NoError(t, a.Handle(s, wire.ClientFrame{Type: "approval", ApprovalKey: key,
		Decisions: []wire.Decision{{Type: "reject", Message: "không"}}}))
	st = collect(t, s, "", idle)
	tool := st.Tool("ap-2.1")
	require.NotNil(t, tool)
	assert.Equal(t, state.ToolError, tool.Tool.Status)
	assert.Equal(t, state.ApprovalRejected, st.Approval(key).Approval.State)
	assert.NoError(t, a.Handle(s, message("x")))
}

func TestBusyAndUnknownScenario(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "busy")
	require.NoError(t, a.Handle(s, message("/gated")))
	assert.ErrorIs(t, a.Handle(s, message("again")), ErrBusy)
	s.stop()
	assert.ErrorContains(t, a.Handle(s, message("/nope")), "no scenario")
	assert.Error(t, a.Handle(s, message("   ")))
}

// A bad scenario file fails the load, naming its file and line.
func TestBadScenarioNamesFileAndLine(t *testing.T) {
	good := `{"event": {"type": "message_start", "message": {"id": "m", "role": "assistant"}}}` + "\n"
	end := `{"event": {"type": "message_stop"}}` + "\n"
	cases := map[string]struct{ body, want string }{
		"actions": {good + `{"event": {"type": "content_block_start", "index": 1, "content_block": {"type": "approval_request", "approval_key": "k"}}}` + "\n" +
			`{"event": {"type": "content_block_delta", "index": 1, "delta": {"action_requests": [1]}}}` + "\n" + end, "actions.jsonl:3:"},
		"notjson":  {good + "{nope\n" + end, "notjson.jsonl:2:"},
		"array":    {good + `{"event": [1, 2]}` + "\n" + end, "array.jsonl:2:"},
		"unknown":  {good + `{"event": {"type": "no_such_event"}}` + "\n" + end, `unknown.jsonl:2: a "no_such_event" event`},
		"noblock":  {good + `{"event": {"type": "content_block_start", "index": 1}}` + "\n" + end, "noblock.jsonl:2:"},
		"typo":     {good + `{"sleep": 100}` + "\n" + end, "typo.jsonl:2:"},
		"both":     {good + `{"sleep_ms": 100, "wait": "gate"}` + "\n" + end, "both.jsonl:2:"},
		"wait":     {good + `{"wait": "approval"}` + "\n" + end, "wait.jsonl:2: \"wait\": \"approval\" with no pending"},
		"waitkind": {good + `{"wait": "forever"}` + "\n" + end, "waitkind.jsonl:2: unknown wait"},
		"noend":    {good + `{"sleep_ms": 1}` + "\n", "noend.jsonl:1: the run does not end"},
		"noevents": {`{"sleep_ms": 1}` + "\n", "noevents.jsonl: no events"},
		"negative": {good + `{"sleep_ms": -1}` + "\n" + end, "negative.jsonl:2: sleep_ms is negative"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(c.body), 0o644))
			_, err := LoadScenarios(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), filepath.Join(dir, c.want))
		})
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fine.jsonl"), []byte(good+end), 0o644))
	sc, err := LoadScenarios(dir)
	require.NoError(t, err)
	assert.NotNil(t, sc["fine"])
}

// A scenario that slips past the load (built by hand here) with an event
// of the wrong shape must not wedge its session: the event goes out (the
// client skips it), the run ends, the session answers.
func TestBadEventNeverWedgesTheSession(t *testing.T) {
	a := newTestAgent(t)
	var steps []Step
	for _, ev := range []string{
		`{"type": "message_start", "message": {"id": "m", "role": "assistant"}}`,
		`{"type": "content_block_start", "index": 1, "content_block": {"type": "approval_request", "approval_key": "k"}}`,
		`{"type": "content_block_delta", "index": 1, "delta": {"action_requests": [1, "x", null]}}`,
		`{"type": "content_block_start", "index": 2, "content_block": "not a block"}`,
		`{"type": "activity", "tools": "nope", "results": [7]}`,
		`{"type": "message_stop"}`,
	} {
		steps = append(steps, Step{Event: json.RawMessage(ev)})
	}
	a.scenarios["broken"] = &Scenario{Name: "broken", Steps: steps, lastEvent: len(steps) - 1}
	s := attach(t, a, "broken")
	require.NoError(t, a.Handle(s, message("/broken")))
	done := runDone(s)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the run never ended")
	}
	status := make(chan state.AgentStatus)
	go func() { status <- s.Status() }()
	select {
	case <-status:
	case <-time.After(20 * time.Second):
		t.Fatal("the session is locked")
	}
	assert.NoError(t, a.Handle(s, message("/activity")))
}
