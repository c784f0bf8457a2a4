package agentproxy

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProtocol(t *testing.T) {
	for in, want := range map[string]Protocol{"": Stepwise, "stepwise": Stepwise, "ag-ui": AGUI, "AI-SDK": AISDK} {
		p, err := ParseProtocol(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, p, in)
	}
	_, err := ParseProtocol("langgraph")
	assert.Error(t, err)
	for _, bad := range []string{"", "agent", "ftp://x/y", "http://"} {
		_, err := New(AGUI, bad)
		assert.Error(t, err, bad)
	}
}

// The answer streams through as it comes: the first event reaches the app
// while the backend still holds the rest.
func TestStreamsWithoutBuffering(t *testing.T) {
	release := make(chan struct{})
	var got *http.Request
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		body, _ := io.ReadAll(r.Body)
		assert.JSONEq(t, `{"threadId":"t"}`, string(body))
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"type\":\"RUN_STARTED\"}\n\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "data: {\"type\":\"RUN_FINISHED\"}\n\n")
	}))
	defer backend.Close()
	h, err := New(AGUI, backend.URL+"/agents/weather?key=1")
	require.NoError(t, err)
	app := httptest.NewServer(h)
	defer app.Close()

	req, _ := http.NewRequest(http.MethodPost, app.URL+AGUIPath, strings.NewReader(`{"threadId":"t"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", app.URL)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := bufio.NewReader(resp.Body)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "data: {\"type\":\"RUN_STARTED\"}\n", line)
	close(release)
	rest, _ := io.ReadAll(r)
	assert.Contains(t, string(rest), "RUN_FINISHED")
	assert.Equal(t, "/agents/weather", got.URL.Path)
	assert.Equal(t, "key=1", got.URL.RawQuery)
	assert.Equal(t, "text/event-stream", got.Header.Get("Accept"))
	assert.Empty(t, got.Header.Get("Origin"))
}

// Stop aborts the POST: the backend's request ends too.
func TestAbortReachesTheBackend(t *testing.T) {
	ended := make(chan struct{})
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"type\":\"start\"}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(ended)
	}))
	defer backend.Close()
	h, err := New(AISDK, backend.URL+"/api/chat")
	require.NoError(t, err)
	app := httptest.NewServer(h)
	defer app.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, app.URL+ChatPath, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, err = bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	cancel()
	resp.Body.Close()
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the backend request did not end")
	}
}

func TestRoutesAndRefusals(t *testing.T) {
	var paths []string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.EscapedPath())
		w.WriteHeader(http.StatusNoContent)
	}))
	defer backend.Close()
	chat, err := New(AISDK, backend.URL+"/api/chat/")
	require.NoError(t, err)
	agent, err := New(AGUI, backend.URL)
	require.NoError(t, err)

	do := func(h http.Handler, method, path, ctype, origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "http://stepwise.test"+path, strings.NewReader(`{}`))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	assert.Equal(t, http.StatusNoContent, do(chat, "GET", "/api/chat/c%201/stream", "", "").Code)
	assert.Equal(t, http.StatusNoContent, do(chat, "POST", ChatPath, "application/json; charset=utf-8", "http://stepwise.test").Code)
	assert.Equal(t, http.StatusNoContent, do(agent, "POST", AGUIPath, "application/json", "").Code)
	assert.Equal(t, []string{"GET /api/chat/c%201/stream", "POST /api/chat/", "POST /"}, paths)

	for _, tc := range []struct {
		h                           http.Handler
		method, path, ctype, origin string
		code                        int
	}{
		{chat, "POST", AGUIPath, "application/json", "", http.StatusNotFound},
		{agent, "POST", ChatPath, "application/json", "", http.StatusNotFound},
		{chat, "GET", "/api/chat/a/b/stream", "", "", http.StatusNotFound},
		{chat, "GET", "/api/sessions/x/history", "", "", http.StatusNotFound},
		{chat, "GET", ChatPath, "", "", http.StatusMethodNotAllowed},
		{agent, "POST", AGUIPath, "text/plain", "", http.StatusUnsupportedMediaType},
		{agent, "POST", AGUIPath, "application/json", "https://evil.example", http.StatusForbidden},
	} {
		rec := do(tc.h, tc.method, tc.path, tc.ctype, tc.origin)
		assert.Equal(t, tc.code, rec.Code, tc.method+" "+tc.path)
		assert.Contains(t, rec.Body.String(), `"message"`)
	}
	assert.Len(t, paths, 3, "refused requests never reach the backend")
}

func TestUnreachableBackendIsAClearError(t *testing.T) {
	backend := httptest.NewServer(http.NotFoundHandler())
	url := backend.URL
	backend.Close()
	h, err := New(AGUI, url)
	require.NoError(t, err)
	req := httptest.NewRequest("POST", "http://stepwise.test"+AGUIPath, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusBadGateway, rec.Code)
	assert.Contains(t, rec.Body.String(), "could not be reached")
}
