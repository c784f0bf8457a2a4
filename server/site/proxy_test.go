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

// A backend's text frame that is not UTF-8 reaches the page as valid
// UTF-8 (a browser would close the WebSocket on it); the page's frames,
// the backend's cookies, its origin check and its close status go through.
func TestBackendProxyWebSocketKeepsTextFramesUTF8(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "backend", Value: "1"})
		c, err := websocket.Accept(w, r, nil) // same origin as the page's Host
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		c.Write(ctx, websocket.MessageText, []byte("{\"type\":\"error\",\"error\":{\"message\":\"VCB\xff\xfe\"}}"))
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		c.Write(ctx, websocket.MessageText, append([]byte("echo "), msg...))
		c.Write(ctx, websocket.MessageBinary, []byte{0xff})
		c.Close(4000, "bye")
	}))
	defer backend.Close()
	proxy, err := BackendProxy(backend.URL)
	require.NoError(t, err)
	front := httptest.NewServer(proxy)
	defer front.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(front.URL, "http") + "/api/sessions/p1/ws"

	_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "the backend's origin check decides")

	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {front.URL}}})
	require.NoError(t, err)
	defer c.CloseNow()
	assert.Contains(t, resp.Header.Get("Set-Cookie"), "backend=1")
	typ, msg, err := c.Read(ctx)
	require.NoError(t, err)
	assert.Equal(t, websocket.MessageText, typ)
	assert.Equal(t, "{\"type\":\"error\",\"error\":{\"message\":\"VCB\uFFFD\"}}", string(msg))
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte("hello")))
	_, msg, err = c.Read(ctx)
	require.NoError(t, err)
	assert.Equal(t, "echo hello", string(msg))
	typ, msg, err = c.Read(ctx)
	require.NoError(t, err)
	assert.Equal(t, websocket.MessageBinary, typ)
	assert.Equal(t, []byte{0xff}, msg, "binary frames pass as they are")
	_, _, err = c.Read(ctx)
	assert.Equal(t, websocket.StatusCode(4000), websocket.CloseStatus(err))
}
