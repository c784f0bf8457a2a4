package site

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/server/demo"
	"stepwise/state"
)

// A backend (here the demo agent on another port) reached through the
// proxy: history over HTTP and a whole turn over the WebSocket.
func TestBackendProxy(t *testing.T) {
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	agent, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), sc, demo.Options{})
	require.NoError(t, err)
	defer agent.Close()
	agent.Speed = 100
	backend := httptest.NewServer(&demo.Handler{Agent: agent})
	defer backend.Close()

	proxy, err := BackendProxy(backend.URL)
	require.NoError(t, err)
	front := httptest.NewServer(proxy)
	defer front.Close()

	resp, err := http.Get(front.URL + "/api/sessions/p1/history")
	require.NoError(t, err)
	var h map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
	assert.Equal(t, "p1", h["session_id"])

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// As a browser on the app's origin would.
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(front.URL, "http")+"/api/sessions/p1/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {front.URL}}})
	require.NoError(t, err)
	defer c.CloseNow()
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"type":"subscribe","session_id":"p1"}`)))
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"type":"user_message","session_id":"p1","content":"/parallel"}`)))
	st := state.New(state.DefaultOptions())
	for st.Status() != state.StatusIdle || len(st.Items()) < 2 {
		_, msg, err := c.Read(ctx)
		require.NoError(t, err)
		st.ApplyJSON(msg)
	}
	assert.Zero(t, st.SkippedCount())

	for _, bad := range []string{"", "backend", "ftp://x", "http://"} {
		_, err := BackendProxy(bad)
		assert.Error(t, err, bad)
	}
}
