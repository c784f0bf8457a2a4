package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A backlog goes out in pieces read from the data file as they are sent:
// subscribers that do not read hold a piece each, not the log each.
func TestBacklogIsHeldOnePieceAtATime(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "long")
	const events, pad = 64, 32 << 10 // a 2 MiB log
	s.mu.Lock()
	for range events {
		s.emitLocked(map[string]any{"type": "ping", "pad": strings.Repeat("x", pad)})
	}
	s.mu.Unlock()
	waitInFile(s)

	const readers = 20
	stalled := make(chan struct{})
	var started, done sync.WaitGroup
	got := make([][]string, readers)
	for i := range readers {
		sub, err := s.Subscribe("")
		require.NoError(t, err)
		started.Add(1)
		done.Add(1)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			defer done.Done()
			defer sub.Cancel()
			first := true
			pump(ctx, sub, func(ev []byte) bool {
				var head struct {
					EventID string `json:"event_id"`
				}
				json.Unmarshal(ev, &head)
				got[i] = append(got[i], head.EventID)
				if first {
					first = false
					started.Done()
					<-stalled // a reader that does not read
				}
				if len(got[i]) == events {
					cancel()
				}
				return true
			}, func() bool { return true })
		}()
	}
	started.Wait()
	held := a.backlogHeld.Load()
	assert.Positive(t, held)
	assert.LessOrEqual(t, held, int64(readers*backlogPieceBytes), "%d readers hold %d bytes of a %d-byte log", readers, held, events*pad)
	assert.Less(t, held, int64(readers*events*pad/4), "each holds a piece of the log, not the log")
	close(stalled)
	done.Wait()
	for i := range readers {
		require.Len(t, got[i], events, "reader %d", i)
		for j, id := range got[i] {
			assert.Equal(t, fmt.Sprint(j+1), id, "reader %d", i)
		}
	}
	assert.Zero(t, a.backlogHeld.Load(), "what they held is let go of")
}

// Streams are capped per session and per client: one more is refused
// with 429 (the page retries), and a closed one makes room.
func TestStreamsAreCapped(t *testing.T) {
	h := &Handler{Agent: newTestAgent(t), MaxStreamsPerSession: 2, MaxStreamsPerClient: 3}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dial := func(session string) (*websocket.Conn, *http.Response, error) {
		return websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/sessions/"+session+"/ws", nil)
	}
	open := func(session string) *websocket.Conn {
		t.Helper()
		c, _, err := dial(session)
		require.NoError(t, err)
		t.Cleanup(func() { c.CloseNow() })
		return c
	}
	refused := func(session, why string) {
		t.Helper()
		_, resp, err := dial(session)
		require.Error(t, err)
		require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.Equal(t, "10", resp.Header.Get("Retry-After"))
		sse, err := http.Get(srv.URL + "/api/sessions/" + session + "/events")
		require.NoError(t, err)
		defer sse.Body.Close()
		assert.Equal(t, http.StatusTooManyRequests, sse.StatusCode)
		var body map[string]map[string]string
		require.NoError(t, json.NewDecoder(sse.Body).Decode(&body))
		assert.Equal(t, "too_many_streams", body["error"]["type"])
		assert.Contains(t, body["error"]["message"], why)
	}
	first := open("s1")
	open("s1")
	refused("s1", "This conversation has as many connections open as it may (2)")
	open("s2")
	refused("s3", "You have as many connections open as you may (3)")
	first.Close(websocket.StatusNormalClosure, "")
	require.Eventually(t, func() bool {
		c, _, err := dial("s1")
		if err == nil {
			c.CloseNow()
		}
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)
}
