package demo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// New sessions are limited per client (an allowance that refills over an
// hour) and overall (until old ones expire); a refusal says which and
// when to try again, and existing conversations go on.
func TestNewSessionsAreLimited(t *testing.T) {
	a := openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), Options{MaxSessions: 5, ClientSessionsPerHour: 3, MaxAge: 24 * time.Hour})
	start := time.Now()
	var elapsed atomic.Int64
	a.now = func() time.Time { return start.Add(time.Duration(elapsed.Load())) }
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	post := func(id string) (int, map[string]any) {
		t.Helper()
		code, body := postCommand(t, srv, id, []byte(`{"type":"user_message","content":"/error"}`))
		if code == http.StatusAccepted {
			waitIdle(t, a, id)
		}
		return code, body
	}
	refusal := func(body map[string]any) (kind, msg string) {
		e, _ := body["error"].(map[string]any)
		kind, _ = e["type"].(string)
		msg, _ = e["message"].(string)
		return kind, msg
	}
	for i := 1; i <= 3; i++ {
		code, _ := post(fmt.Sprint("a", i))
		require.Equal(t, http.StatusAccepted, code)
	}
	code, body := post("a4")
	assert.Equal(t, http.StatusTooManyRequests, code)
	kind, msg := refusal(body)
	assert.Equal(t, "too_many_sessions", kind)
	assert.Contains(t, msg, "try again in 20 minute")
	code, _ = post("a1")
	assert.Equal(t, http.StatusAccepted, code, "an existing conversation goes on")

	// Over WebSocket: a command_result.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "a5")
	wsSend(t, ctx, c, `{"command_id":"c1","type":"user_message","content":"/error"}`)
	res := wsRead(t, ctx, c)
	assert.Equal(t, false, res["ok"])
	assert.Equal(t, "too_many_sessions", res["error"].(map[string]any)["type"])

	elapsed.Store(int64(20 * time.Minute))
	code, _ = post("a4")
	assert.Equal(t, http.StatusAccepted, code, "the allowance refills")

	// Another client has its own allowance, within the overall limit.
	other := Caller{Client: "192.0.2.7"}
	b1 := attach(t, a, "b1")
	require.NoError(t, a.HandleFrom(b1, other, message("/error")))
	b2 := attach(t, a, "b2")
	err := a.HandleFrom(b2, other, message("/error"))
	require.ErrorIs(t, err, ErrTooManySessions)
	assert.Contains(t, err.Error(), "as many conversations as it may (5)")

	// Once old ones expire, there is room again.
	settle(t, b1)
	elapsed.Store(int64(30 * time.Hour))
	n, err := a.sweep()
	require.NoError(t, err)
	require.Equal(t, 4, n, "b1 is in memory: kept")
	require.NoError(t, a.HandleFrom(b2, other, message("/error")))
}

// The overall count survives a restart: it is the data file's.
func TestSessionCountSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{})
	for _, id := range []string{"x", "y"} {
		s := attach(t, a, id)
		require.NoError(t, a.Handle(s, message("/error")))
		settle(t, s)
	}
	require.NoError(t, a.Close())
	b := openAgent(t, path, Options{MaxSessions: 2})
	s := attach(t, b, "z")
	assert.ErrorIs(t, b.Handle(s, message("/error")), ErrTooManySessions)
}

func TestClientOf(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.1:5000":             "192.0.2.1",
		"[::ffff:192.0.2.1]:5000":    "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:443":      "2001:db8:1:3::/64",
		"not an address":             "not an address",
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = addr
		assert.Equal(t, want, ClientOf(r), addr)
	}
}
