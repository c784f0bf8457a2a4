package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/server/demo"
)

// testHosts lets the tests' requests in: httptest.NewRequest's Host is
// example.com.
var testHosts = []string{"example.com"}

func TestHostAllowed(t *testing.T) {
	allowed := []string{"chat.example.org", "*.corp.example"}
	for host, want := range map[string]bool{
		"127.0.0.1:8080":           true,
		"[::1]:8080":               true,
		"192.168.1.20":             true,
		"localhost:8080":           true,
		"LOCALHOST.":               true,
		"app.localhost:8080":       true,
		"chat.example.org":         true,
		"Chat.Example.Org.:443":    true,
		"a.corp.example":           true,
		"corp.example":             false,
		"rebind.evil.example:8080": false,
		"localhost.evil.example":   false,
		"chat.example.org.evil":    false,
		"":                         false,
	} {
		assert.Equal(t, want, hostAllowed(host, allowed), host)
	}
	assert.True(t, hostAllowed("anything.example", []string{"*"}))
}

// DNS rebinding: a rebind.evil.example Host/Origin pair (same-origin with
// itself) reaches nothing: not the commands, not the WebSocket, not the
// pages. The server's own names do.
func TestRebindingHostIsRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	agent, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), sc, demo.Options{})
	require.NoError(t, err)
	defer agent.Close()
	handler, err := New(Config{WebDir: dir, API: &demo.Handler{Agent: agent}, AllowedHosts: []string{"chat.example.org"}})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	post := func(host string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/r1/commands", strings.NewReader(`{"type":"stop"}`))
		req.Host = host
		req.Header.Set("Origin", "http://"+host)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusMisdirectedRequest, post("rebind.evil.example:8080"))
	assert.Equal(t, http.StatusAccepted, post("chat.example.org"))
	assert.Equal(t, http.StatusAccepted, post("localhost:8080"))
	assert.Equal(t, http.StatusAccepted, post(strings.TrimPrefix(srv.URL, "http://")))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/sessions/r1/ws", &websocket.DialOptions{
		Host: "rebind.evil.example:8080", HTTPHeader: http.Header{"Origin": {"http://rebind.evil.example:8080"}}})
	require.Error(t, err)
	assert.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode)

	page := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = "rebind.evil.example"
	handler.ServeHTTP(page, req)
	assert.Equal(t, http.StatusMisdirectedRequest, page.Code)
}
