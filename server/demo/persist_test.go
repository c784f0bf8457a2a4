package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"stepwise/state"
)

func TestSessionsSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a, err := Open(path, testScenarios(t), Options{})
	require.NoError(t, err)
	a.Speed = 200
	s, err := a.Attach("keep")
	require.NoError(t, err)
	require.NoError(t, a.Handle(s, message("/parallel")))
	want := collect(t, s, "", idle)
	s.Detach()
	require.NoError(t, a.Close())

	b := openAgent(t, path, Options{})
	events := mustEvents(t, b, "keep")
	got := storeOf(events)
	w, _ := json.Marshal(want.View())
	g, _ := json.Marshal(got.View())
	assert.JSONEq(t, string(w), string(g))
	h, err := b.History("keep")
	require.NoError(t, err)
	assert.Equal(t, "idle", h["agent_status"])
	// The next run's ids follow, and its tool ids are new.
	s2 := attach(t, b, "keep")
	require.NoError(t, b.Handle(s2, message("/parallel")))
	st := collect(t, s2, "", func(st *state.Store) bool { return idle(st) && len(st.Items()) > len(got.Items()) })
	assert.Zero(t, st.SkippedCount())
	assert.Equal(t, 2*len(events), len(mustEvents(t, b, "keep")))
}

// A run the server was playing when it stopped is closed at the next
// start: its open tools get cancelled results and a terminal_error says
// the agent restarted, with the next ids, and the next run's tool ids do
// not collide with the lost run's.
func TestInterruptedRunIsClosedOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a, err := Open(path, testScenarios(t), Options{})
	require.NoError(t, err)
	s, err := a.Attach("cut")
	require.NoError(t, err)
	require.NoError(t, a.Handle(s, message("/gated")))
	seen := collect(t, s, "", hasGroupWithTools(2))
	s.Detach()
	require.NoError(t, a.Close()) // the run is cut at its gate, as by a crash

	b := openAgent(t, path, Options{})
	h, err := b.History("cut")
	require.NoError(t, err)
	assert.Equal(t, "error", h["agent_status"])
	// The client resumes with the last id it saw: it gets the run's end.
	s2 := attach(t, b, "cut")
	resumed := seen
	sub, err := s2.Subscribe(seen.LastEventID().String())
	require.NoError(t, err)
	sub.Cancel()
	require.Nil(t, sub.Reset)
	backlog := backlogOf(t, sub)
	require.NotEmpty(t, backlog)
	for _, ev := range backlog {
		c := resumed.ApplyJSON(ev)
		require.Equal(t, state.Applied, c.Outcome, "%s", ev)
	}
	assert.Equal(t, state.StatusError, resumed.Status())
	assert.Empty(t, openTools(resumed))
	for _, id := range []string{"g1.1", "g2.1"} {
		assert.Equal(t, state.ToolError, resumed.Tool(id).Tool.Status, id)
	}
	items := resumed.Items()
	last := items[len(items)-1]
	assert.Equal(t, state.KindError, last.Kind)
	assert.Contains(t, last.Text, "restarted")

	// Opening again adds nothing: that run is closed.
	n := len(mustEvents(t, b, "cut"))
	require.NoError(t, b.Handle(s2, message("/gated")))
	// The new run's ids derive from its message's id.
	st2 := collect(t, s2, "", func(st *state.Store) bool { return st.Tool(fmt.Sprintf("g2.%d", n+1)) != nil })
	assert.Equal(t, state.ToolError, st2.Tool("g1.1").Tool.Status, "the old tool is untouched")
	b.Release("cut")
}

// Reading a history never creates or stores a session, so no number of
// them can push another session out.
func TestHistoryOfUnknownSessionsCreatesNothing(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	victim := attach(t, a, "victim")
	require.NoError(t, a.Handle(victim, message("/error")))
	settle(t, victim)
	victim.Detach()
	n := len(mustEvents(t, a, "victim"))
	for i := range 1100 {
		resp, err := http.Get(fmt.Sprintf("%s/api/sessions/probe-%d/history", srv.URL, i))
		require.NoError(t, err)
		var h map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
		resp.Body.Close()
		require.Equal(t, "idle", h["agent_status"])
	}
	assert.Len(t, mustEvents(t, a, "victim"), n)
	a.mu.Lock()
	inMemory := len(a.sessions)
	a.mu.Unlock()
	assert.LessOrEqual(t, inMemory, 1, "history loads nothing")
	var stored []string
	a.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSessions).ForEachBucket(func(k []byte) error { stored = append(stored, string(k)); return nil })
	})
	assert.Equal(t, []string{"victim"}, stored)
}

// A session's log is capped in bytes: 60 KiB messages fill it at about
// 8 MiB, then the agent refuses with ErrFull, and other sessions go on.
func TestSessionLogIsCappedInBytes(t *testing.T) {
	a := newTestAgent(t)
	tiny, err := ParseScenario("tiny", []byte(`{"event": {"type": "message_start", "message": {"id": "m", "role": "assistant"}}}
{"event": {"type": "message_stop"}}`))
	require.NoError(t, err)
	a.scenarios[DefaultScenario] = tiny
	s := attach(t, a, "big")
	text := strings.Repeat("x", 60<<10)
	var full error
	sent := 0
	for sent < 1000 && full == nil {
		<-runDone(s)
		if full = a.Handle(s, message(text)); full == nil {
			sent++
		}
	}
	require.ErrorIs(t, full, ErrFull)
	assert.InDelta(t, MaxSessionBytes/(60<<10), sent, 5)
	s.mu.Lock()
	size := s.bytes
	s.mu.Unlock()
	assert.LessOrEqual(t, size, int64(MaxSessionBytes))
	other := attach(t, a, "small")
	assert.NoError(t, a.Handle(other, message("hi")))
}

// A session unused for MaxAge is deleted; a client that comes back hears
// that it is gone, and the id can start over.
func TestSessionsExpireByAge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{MaxAge: 24 * time.Hour})
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	for _, id := range []string{"old", "recent"} {
		s, err := a.Attach(id)
		require.NoError(t, err)
		require.NoError(t, a.Handle(s, message("/error")))
		collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
		s.Detach()
	}
	start := time.Now()
	a.now = func() time.Time { return start.Add(20 * time.Hour) }
	s, err := a.Attach("recent") // used again: its clock restarts
	require.NoError(t, err)
	s.Detach()
	require.Eventually(t, func() bool { // the writer stores the use
		m, _, _ := readMeta(a.db, "recent")
		return m.Used >= start.Add(20*time.Hour).Unix()
	}, 10*time.Second, 5*time.Millisecond)
	a.now = func() time.Time { return start.Add(30 * time.Hour) }
	n, err := a.sweep()
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Empty(t, mustEvents(t, a, "old"))
	assert.NotEmpty(t, mustEvents(t, a, "recent"))

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, last := range []string{"", "3"} {
		c := wsDial(t, ctx, srv, "old")
		sub := `{"type":"subscribe","session_id":"old"}`
		if last != "" {
			sub = `{"type":"subscribe","session_id":"old","last_event_id":"` + last + `"}`
		}
		wsSend(t, ctx, c, sub)
		assert.Equal(t, map[string]any{"type": "reset", "last_event_id": nil, "reason": "session_gone"}, wsRead(t, ctx, c), "last %q", last)
		c.CloseNow()
	}
	h, err := a.History("old")
	require.NoError(t, err)
	assert.Equal(t, "idle", h["agent_status"])
	// The id starts over; it is no longer gone.
	s = attach(t, a, "old")
	require.NoError(t, a.Handle(s, message("/error")))
	sub, err := s.Subscribe("")
	require.NoError(t, err)
	sub.Cancel()
	assert.Nil(t, sub.Reset)
	assert.Equal(t, `"1"`, string(mustField(t, backlogOf(t, sub)[0], "event_id")))
}

func mustField(t *testing.T, ev []byte, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(ev, &m))
	return m[name]
}

func TestDataFileInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	openAgent(t, path, Options{})
	_, err := Open(path, testScenarios(t), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "in use")
}
