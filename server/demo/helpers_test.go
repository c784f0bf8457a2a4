package demo

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

// gated holds its run at a gate with two tools running, until the test
// releases it.
const gated = `{"event": {"type": "message_start", "message": {"id": "g", "role": "assistant", "message_type": "chat"}}}
{"event": {"type": "group_start", "index": 0, "message_id": "g"}}
{"event": {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "g1", "name": "search_stock", "input": {"symbol": "VNM"}}}}
{"event": {"type": "content_block_stop", "index": 1}}
{"event": {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "g2", "name": "search_stock", "input": {"symbol": "FPT"}}}}
{"event": {"type": "content_block_stop", "index": 2}}
{"wait": "gate"}
{"event": {"type": "content_block_start", "index": 3, "content_block": {"type": "tool_result", "tool_use_id": "g1", "content": "82.000", "status": "success"}}}
{"event": {"type": "content_block_stop", "index": 3}}
{"event": {"type": "content_block_start", "index": 4, "content_block": {"type": "tool_result", "tool_use_id": "g2", "content": "96.000", "status": "success"}}}
{"event": {"type": "content_block_stop", "index": 4}}
{"event": {"type": "group_end", "index": 5, "summary": "Giá", "message_id": "g"}}
{"event": {"type": "message_stop"}}
`

func testScenarios(t testing.TB) Scenarios {
	t.Helper()
	sc, err := LoadScenarios("")
	require.NoError(t, err)
	sc["gated"], err = ParseScenario("gated", []byte(gated))
	require.NoError(t, err)
	return sc
}

// openAgent opens an agent on a data file of the test.
func openAgent(t testing.TB, path string, opts Options) *Agent {
	t.Helper()
	a, err := Open(path, testScenarios(t), opts)
	require.NoError(t, err)
	a.Speed = 200
	t.Cleanup(func() { a.Close() })
	return a
}

func newTestAgent(t testing.TB) *Agent {
	t.Helper()
	return openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), Options{})
}

// attach attaches a session for the rest of the test.
func attach(t *testing.T, a *Agent, id string) *Session {
	t.Helper()
	s, err := a.Attach(id)
	require.NoError(t, err)
	t.Cleanup(s.Detach)
	return s
}

// collect reads a subscription into a store until cond holds.
func collect(t *testing.T, s *Session, last string, cond func(*state.Store) bool) *state.Store {
	t.Helper()
	st := state.New(state.DefaultOptions())
	sub, err := s.Subscribe(last)
	require.NoError(t, err)
	defer sub.Cancel()
	for _, ev := range backlogOf(t, sub) {
		st.ApplyJSON(ev)
	}
	deadline := time.After(20 * time.Second)
	for !cond(st) {
		select {
		case ev := <-sub.Live:
			st.ApplyJSON(ev)
		case <-deadline:
			v, _ := json.MarshalIndent(st.View(), "", " ")
			t.Fatalf("condition not reached; view:\n%s", v)
		}
	}
	return st
}

func idle(st *state.Store) bool { return st.Status() == state.StatusIdle && len(st.Items()) > 0 }

func frame(s string) wire.ClientFrame {
	f, err := wire.DecodeClientFrame([]byte(s))
	if err != nil {
		panic(err)
	}
	return f
}

func message(text string) wire.ClientFrame {
	b, _ := json.Marshal(wire.NewUserMessage("", text))
	return frame(string(b))
}

// hasGroupWithTools reports whether the store shows a group with n tools.
func hasGroupWithTools(n int) func(*state.Store) bool {
	return func(st *state.Store) bool {
		for _, it := range st.Items() {
			if it.Kind == state.KindGroup && len(it.Group.Steps) >= n {
				return true
			}
		}
		return false
	}
}

// runDone returns the session's run's done channel (closed at once when
// none runs).
func runDone(s *Session) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	return s.running.done
}

// settle waits until the session's run (if any) has ended and its events
// are stored: what Events returns is then the whole log.
func settle(t *testing.T, s *Session) {
	t.Helper()
	<-runDone(s)
	require.NoError(t, s.waitStored())
}

func storeOf(events [][]byte) *state.Store {
	st := state.New(state.DefaultOptions())
	for _, ev := range events {
		st.ApplyJSON(ev)
	}
	return st
}

// backlogOf reads a subscription's whole backlog.
func backlogOf(t testing.TB, sub *Subscription) [][]byte {
	t.Helper()
	var all [][]byte
	for {
		piece, err := sub.NextBacklog()
		require.NoError(t, err)
		if piece == nil {
			sub.release()
			return all
		}
		all = append(all, piece...)
	}
}
