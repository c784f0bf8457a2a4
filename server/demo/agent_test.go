package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

func newTestAgent(t *testing.T) *Agent {
	t.Helper()
	sc, err := LoadScenarios("")
	require.NoError(t, err)
	a := NewAgent(sc)
	a.Speed = 200
	return a
}

// collect reads a subscription into a store until cond holds.
func collect(t *testing.T, s *Session, after wire.EventID, cond func(*state.Store) bool) *state.Store {
	t.Helper()
	st := state.New(state.DefaultOptions())
	backlog, live, cancel := s.Subscribe(after)
	defer cancel()
	for _, ev := range backlog {
		st.ApplyJSON(ev)
	}
	deadline := time.After(10 * time.Second)
	for !cond(st) {
		select {
		case ev := <-live:
			st.ApplyJSON(ev)
		case <-deadline:
			v, _ := json.MarshalIndent(st.View(), "", " ")
			t.Fatalf("condition not reached; view:\n%s", v)
		}
	}
	return st
}

func idle(st *state.Store) bool { return st.Status() == state.StatusIdle && len(st.Items()) > 0 }

func TestEveryScenarioPlaysToTheEnd(t *testing.T) {
	a := newTestAgent(t)
	for _, name := range a.Scenarios().Names() {
		t.Run(name, func(t *testing.T) {
			s := a.Session("s-" + name)
			require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":[{"type":"text","text":"/`+name+`"}]}`)))
			answered := map[*state.Item]bool{}
			st := collect(t, s, wire.EventID{}, func(st *state.Store) bool {
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
			assert.Equal(t, want, s.Status())
		})
	}
}

func frame(s string) wire.ClientFrame {
	f, err := wire.DecodeClientFrame([]byte(s))
	if err != nil {
		panic(err)
	}
	return f
}

func TestResumeAfterIDHasNoGapNoOverlap(t *testing.T) {
	a := newTestAgent(t)
	s := a.Session("resume")
	require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":"/parallel"}`)))
	full := collect(t, s, wire.EventID{}, idle)
	events := s.Events()
	// A client that saw the first 10 events resumes after the 10th.
	part := state.New(state.DefaultOptions())
	for _, ev := range events[:10] {
		part.ApplyJSON(ev)
	}
	backlog, _, cancel := s.Subscribe(part.LastEventID())
	cancel()
	require.Len(t, backlog, len(events)-10)
	for _, ev := range backlog {
		part.ApplyJSON(ev)
	}
	a1, _ := json.Marshal(full.View())
	a2, _ := json.Marshal(part.View())
	assert.JSONEq(t, string(a1), string(a2))
}

func TestStopCancelsToolsAndEndsTheTurn(t *testing.T) {
	a := newTestAgent(t)
	a.Speed = 1 // real pacing, so the stop lands mid-run
	s := a.Session("stop")
	require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":"thị trường"}`)))
	st := collect(t, s, wire.EventID{}, func(st *state.Store) bool {
		for _, it := range st.Items() {
			if it.Kind == state.KindGroup && len(it.Group.Steps) > 0 {
				return true
			}
		}
		return false
	})
	require.NoError(t, a.Handle(s, frame(`{"type":"stop"}`)))
	st = collect(t, s, wire.EventID{}, func(st *state.Store) bool { return st.Status() == state.StatusStopped })
	items := st.Items()
	assert.Equal(t, state.KindStopped, items[len(items)-1].Kind)
	for _, it := range items {
		if it.Kind == state.KindGroup {
			assert.False(t, it.Group.Open)
			for _, step := range it.Group.Steps {
				assert.NotEqual(t, state.ToolActive, step.Tool.Status)
			}
		}
	}
	// Nothing more arrives after the stop.
	n := len(s.Events())
	time.Sleep(1500 * time.Millisecond)
	assert.Equal(t, n, len(s.Events()))
	assert.ErrorContains(t, a.Handle(s, frame(`{"type":"approval","approval_key":"x","decisions":[{"type":"approve"}]}`)), "no pending approval")
}

func TestRejectedToolNeverRuns(t *testing.T) {
	a := newTestAgent(t)
	s := a.Session("reject")
	require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":"/approval"}`)))
	st := collect(t, s, wire.EventID{}, func(st *state.Store) bool { return st.Pending() != nil })
	key := st.Pending().Approval.ApprovalKey
	assert.Equal(t, "s1_ap.1", key, "keys are unique to the run")
	require.NoError(t, a.Handle(s, wire.ClientFrame{Type: "approval", ApprovalKey: key,
		Decisions: []wire.Decision{{Type: "reject", Message: "không"}}}))
	st = collect(t, s, wire.EventID{}, idle)
	tool := st.Tool("ap-2.1")
	require.NotNil(t, tool)
	assert.Equal(t, state.ToolError, tool.Tool.Status)
	assert.Equal(t, state.ApprovalRejected, st.Approval(key).Approval.State)
	assert.ErrorIs(t, a.Handle(s, frame(`{"type":"user_message","content":"x"}`)), nil)
}

func TestBusyAndUnknownScenario(t *testing.T) {
	a := newTestAgent(t)
	a.Speed = 1
	s := a.Session("busy")
	require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":"hi"}`)))
	assert.ErrorIs(t, a.Handle(s, frame(`{"type":"user_message","content":"again"}`)), ErrBusy)
	s.stop()
	assert.ErrorContains(t, a.Handle(s, frame(`{"type":"user_message","content":"/nope"}`)), "no scenario")
	assert.Error(t, a.Handle(s, frame(`{"type":"user_message","content":"   "}`)))
}

func TestWebSocketEndToEnd(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/sessions/ws1/ws"
	c, _, err := websocket.Dial(ctx, url, nil)
	require.NoError(t, err)
	defer c.CloseNow()
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"type":"subscribe","session_id":"ws1"}`)))
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{not json`)))
	_, msg, err := c.Read(ctx)
	require.NoError(t, err)
	assert.Contains(t, string(msg), `"invalid_request"`, "a malformed frame gets a clear error")
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"type":"user_message","session_id":"ws1","content":[{"type":"text","text":"/parallel"}]}`)))
	st := state.New(state.DefaultOptions())
	for !idle(st) {
		_, msg, err := c.Read(ctx)
		require.NoError(t, err)
		st.ApplyJSON(msg)
	}
	assert.Zero(t, st.SkippedCount())

	// An oversized frame closes that connection with 1009; others go on.
	big := `{"type":"user_message","content":"` + strings.Repeat("x", MaxFrameBytes) + `"}`
	c.Write(ctx, websocket.MessageText, []byte(big))
	_, _, err = c.Read(ctx)
	assert.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err))

	resp, err := http.Get(srv.URL + "/api/sessions/ws1/history")
	require.NoError(t, err)
	var h map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
	assert.Equal(t, "idle", h["agent_status"])
}

func TestWebSocketRefusesOtherOrigins(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/sessions/o/ws"
	_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestCommandsEndpoint(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	post := func(body string) int {
		resp, err := http.Post(srv.URL+"/api/sessions/c1/commands", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusBadRequest, post(`{nope`))
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(`{"type":"user_message","content":"`+strings.Repeat("x", MaxFrameBytes)+`"}`))
	assert.Equal(t, http.StatusAccepted, post(`{"type":"user_message","content":"/error"}`))
	resp, err := http.Get(srv.URL + "/api/sessions/../history")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestSSEStreamsAndResumes(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	s := a.Session("sse1")
	require.NoError(t, a.Handle(s, frame(`{"type":"user_message","content":"/error"}`)))
	collect(t, s, wire.EventID{}, func(st *state.Store) bool { return st.Status() == state.StatusError })
	n := len(s.Events())

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/sessions/sse1/events", nil)
	req.Header.Set("Last-Event-ID", "3")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	buf := make([]byte, 0, 1<<16)
	var ids []string
	for len(ids) < n-3 {
		chunk := make([]byte, 4096)
		k, err := resp.Body.Read(chunk)
		require.NoError(t, err)
		buf = append(buf, chunk[:k]...)
		ids = ids[:0]
		for _, line := range strings.Split(string(buf), "\n") {
			if id, ok := strings.CutPrefix(line, "id: "); ok {
				ids = append(ids, id)
			}
		}
	}
	assert.Equal(t, "4", ids[0], "resumes after Last-Event-ID")
	assert.Len(t, ids, n-3)
}
