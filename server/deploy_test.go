package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/server/demo"
	"stepwise/state"
)

// lines returns what the server logged so far.
func (s *server) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// get fetches url and returns the status and body.
func get(t *testing.T, url string, header http.Header) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func demoArgs(t *testing.T) []string {
	return []string{"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", filepath.Join(t.TempDir(), "stepwise.db")}
}

// Every flag can come from its variable; the command line wins.
func TestServerReadsItsFlagsFromTheEnvironment(t *testing.T) {
	web := fakeWeb(t)
	env := []string{"STEPWISE_WEB=" + web, "STEPWISE_DATA=" + filepath.Join(t.TempDir(), "d.db"), "STEPWISE_AGENT_NAME=FromEnv", "STEPWISE_LOG_FORMAT=json"}
	s := startServerEnv(t, env, "-addr", "127.0.0.1:0")
	_, _, body := get(t, s.URL+"/app.js", nil)
	assert.Contains(t, body, `"STEPWISE_PAGE_AGENT_NAME":"FromEnv"`)
	var line map[string]any
	require.NoError(t, json.Unmarshal([]byte(s.lines()[len(s.lines())-1]), &line), "STEPWISE_LOG_FORMAT=json: JSON lines")

	s = startServerEnv(t, env, "-addr", "127.0.0.1:0", "-agent-name", "FromFlag", "-data", filepath.Join(t.TempDir(), "d.db"))
	_, _, body = get(t, s.URL+"/app.js", nil)
	assert.Contains(t, body, `"STEPWISE_PAGE_AGENT_NAME":"FromFlag"`)
}

func TestHealthz(t *testing.T) {
	s := startServer(t, append(demoArgs(t), "-base-path", "/chat/")...)
	for _, path := range []string{"/healthz", "/chat/healthz"} {
		code, h, body := get(t, s.URL+path, nil)
		assert.Equal(t, http.StatusOK, code, path)
		assert.Equal(t, "ok\n", body, path)
		assert.Equal(t, "no-store", h.Get("Cache-Control"))
	}

	// In front of a backend the probe answers without asking it: the
	// server can serve its pages whether or not the agent is up.
	s = startServer(t, "-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-backend", "http://127.0.0.1:1")
	code, _, body := get(t, s.URL+"/healthz", nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok\n", body)

	// The demo agent's data file that takes no writes (here: closed) makes
	// the probe fail.
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	agent, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), sc, demo.Options{})
	require.NoError(t, err)
	var logs bytes.Buffer
	d := deployment{logger: slog.New(slog.NewTextHandler(&logs, nil))}
	h := d.front(agent.Health, http.NotFoundHandler())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Empty(t, logs.String(), "a passing probe is not logged")
	agent.Close()
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Contains(t, rec.Body.String(), "data file")
	assert.Contains(t, logs.String(), "health check failed")
}

// The demo agent's data file serves one process: a second server on the
// same file stops at once and says why.
func TestSecondServerOnTheSameDataFileRefuses(t *testing.T) {
	args := demoArgs(t)
	startServer(t, args...)
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STEPWISE_TEST_SERVE="+string(raw))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the second server must not serve: %s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "is in use by another server")
	assert.Contains(t, string(out), "give each server its own -data")
}

// One line per request, JSON with -log-format json: method, path, query
// keys, status, duration; never a query's values, a message's text or a
// header's value.
func TestRequestLog(t *testing.T) {
	s := startServer(t, append(demoArgs(t), "-log-format", "json")...)
	code, _, _ := get(t, s.URL+"/?session=querysecret&lang=en", nil)
	require.Equal(t, http.StatusOK, code)
	get(t, s.URL+"/healthz", nil)

	// A turn over the WebSocket, with a message whose text must stay out of
	// the log.
	const text = "my private words 7f3a"
	ctx := testContext(t)
	cl := dialSession(t, ctx, s.URL, "logged", nil)
	cl.subscribe("")
	cl.send(`{"type":"user_message","session_id":"logged","content":"` + text + `"}`)
	cl.readUntil("the turn's end", func() bool { return cl.store.Status() == state.StatusIdle && len(cl.store.Items()) > 1 })
	cl.c.Close(websocket.StatusNormalClosure, "")
	require.Equal(t, 0, s.stop())

	var requests []map[string]any
	for _, l := range s.lines() {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), "not JSON: %s", l)
		assert.NotContains(t, l, text)
		assert.NotContains(t, l, "querysecret")
		if m["msg"] == "request" {
			requests = append(requests, m)
		}
	}
	var page, ws []map[string]any
	for _, r := range requests {
		switch r["path"] {
		case "/":
			page = append(page, r)
		case "/api/sessions/logged/ws":
			ws = append(ws, r)
		case "/healthz":
			t.Errorf("a passing probe was logged: %v", r)
		}
	}
	require.Len(t, page, 1, "one line for the page: %v", requests)
	assert.Equal(t, "GET", page[0]["method"])
	assert.Equal(t, "lang,session", page[0]["query"])
	assert.EqualValues(t, 200, page[0]["status"])
	assert.Contains(t, page[0], "duration")
	require.Len(t, ws, 1, "one line for the WebSocket, when it ends: %v", requests)
	assert.EqualValues(t, 101, ws[0]["status"])
}

// recordingBackend records the headers of every request it gets, the
// WebSocket's upgrade included, and answers as a backend would.
type recordingBackend struct {
	mu       sync.Mutex
	requests []http.Header
	*httptest.Server
}

func newRecordingBackend(t *testing.T) *recordingBackend {
	b := &recordingBackend{}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.requests = append(b.requests, r.Header.Clone())
		b.mu.Unlock()
		switch {
		case strings.HasSuffix(r.URL.Path, "/ws"):
			c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
			if err != nil {
				return
			}
			c.Write(r.Context(), websocket.MessageText, []byte(`{"type":"ping"}`))
			c.Close(websocket.StatusNormalClosure, "")
		case r.Method == http.MethodPost:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"session_id":"s1","agent_status":"idle","last_event_id":null,"messages":[],"pending_approval":null}`)
		}
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *recordingBackend) last() http.Header {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.requests[len(b.requests)-1]
}

// visitor is what a browser on the app's origin sends.
func visitor(base string) http.Header {
	return http.Header{"Cookie": {"visitor_session=v1"}, "Authorization": {"Basic dmlzaXRvcg=="}, "Origin": {base}}
}

// The deployment's headers reach the backend on every request (HTTP and
// the WebSocket's upgrade), the visitor's own credentials do not, and
// nothing the browser gets or the log holds has the token.
func TestBackendHeadersReachTheBackendOnly(t *testing.T) {
	const token = "tok-5e1ab0"
	b := newRecordingBackend(t)
	secret := filepath.Join(t.TempDir(), "tenant")
	require.NoError(t, os.WriteFile(secret, []byte("X-Tenant: acme\n"), 0o600))
	s := startServerEnv(t, []string{"STEPWISE_BACKEND_HEADER=Authorization: Bearer " + token + "\nX-Api-Key: " + token},
		"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-backend", b.URL)

	code, h, body := get(t, s.URL+"/api/sessions/s1/history", visitor(s.URL))
	require.Equal(t, http.StatusOK, code)
	got := b.last()
	assert.Equal(t, "Bearer "+token, got.Get("Authorization"))
	assert.Equal(t, token, got.Get("X-Api-Key"))
	assert.Empty(t, got.Values("Cookie"), "the visitor's cookie is not the backend's")
	seen := []string{body}
	for k, v := range h {
		seen = append(seen, k+": "+strings.Join(v, ","))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/api/sessions/s1/ws", &websocket.DialOptions{HTTPHeader: visitor(s.URL)})
	require.NoError(t, err)
	_, msg, err := c.Read(ctx)
	require.NoError(t, err)
	c.CloseNow()
	seen = append(seen, string(msg), strings.Join(resp.Header.Values("Set-Cookie"), ","))
	got = b.last()
	assert.Equal(t, "Bearer "+token, got.Get("Authorization"), "the WebSocket's upgrade carries the header")
	assert.Equal(t, token, got.Get("X-Api-Key"), "the WebSocket's upgrade carries every header")
	assert.Empty(t, got.Values("Cookie"))

	for _, path := range []string{"/", "/app.js", "/app-worker.js", "/manifest.webmanifest", "/wasm_exec.js", "/healthz"} {
		_, h, body := get(t, s.URL+path, nil)
		seen = append(seen, body)
		for k, v := range h {
			seen = append(seen, k+": "+strings.Join(v, ","))
		}
	}
	for _, x := range seen {
		assert.NotContains(t, x, token, "the browser got the token")
	}
	require.Equal(t, 0, s.stop())
	logged := strings.Join(s.lines(), "\n")
	assert.NotContains(t, logged, token, "the log holds the token")
	assert.Contains(t, logged, "backend_headers=\"Authorization, X-Api-Key\"", "the start-up line names the headers")

	// From a file (a mounted secret), in front of an AG-UI agent.
	s = startServerEnv(t, []string{"STEPWISE_BACKEND_HEADER_FILE=" + secret},
		"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-backend", b.URL+"/agent", "-protocol", "ag-ui")
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/agent", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header = visitor(s.URL)
	req.Header.Set("Content-Type", "application/json")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	got = b.last()
	assert.Equal(t, "acme", got.Get("X-Tenant"))
	assert.Empty(t, got.Values("Cookie"))
	assert.Empty(t, got.Values("Authorization"))
}

// -forward-credentials passes the visitor's own cookie and Authorization
// to a backend that knows the visitor.
func TestForwardCredentials(t *testing.T) {
	b := newRecordingBackend(t)
	s := startServer(t, "-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-backend", b.URL, "-forward-credentials", "cookie,authorization")
	code, _, _ := get(t, s.URL+"/api/sessions/s1/history", visitor(s.URL))
	require.Equal(t, http.StatusOK, code)
	got := b.last()
	assert.Equal(t, "visitor_session=v1", got.Get("Cookie"))
	assert.Equal(t, "Basic dmlzaXRvcg==", got.Get("Authorization"))

	s = startServer(t, "-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-backend", b.URL, "-forward-credentials", "cookie")
	get(t, s.URL+"/api/sessions/s1/history", visitor(s.URL))
	got = b.last()
	assert.Equal(t, "visitor_session=v1", got.Get("Cookie"))
	assert.Empty(t, got.Values("Authorization"))
}

// Settings that cannot work stop the server at start with a reason.
func TestDeployFlagsRefuseContradictions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-backend", "http://127.0.0.1:1", "-backend-header", "Authorization: Bearer x", "-forward-credentials", "authorization"}, "contradict"},
		{[]string{"-backend-header", "Authorization: Bearer x"}, "for a -backend"},
		{[]string{"-backend", "http://127.0.0.1:1", "-forward-credentials", "session"}, "-forward-credentials"},
		{[]string{"-base-path", "/a b/"}, "-base-path"},
		{[]string{"-allowed-origins", "https://x.example/path"}, "not an origin"},
		{[]string{"-log-format", "xml"}, "-log-format"},
	} {
		raw, _ := json.Marshal(append(demoArgs(t), tc.args...))
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STEPWISE_TEST_SERVE="+string(raw))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v must not start: %s", tc.args, out)
		assert.Equal(t, 2, exit.ExitCode(), "%v", tc.args)
		assert.Contains(t, string(out), tc.want, "%v", tc.args)
	}
}

// The request log's writer keeps what the handlers behind it need: a
// WebSocket hijacks (logged 101), an SSE stream flushes.
func TestRequestLogKeepsStreamsWorking(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	h := logRequests(logger, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: 1\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		c.Close(websocket.StatusNormalClosure, "")
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/sse?token=abc", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err, "the event arrives before the stream ends")
	assert.Equal(t, "data: 1\n", line)
	resp.Body.Close()

	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", nil)
	require.NoError(t, err)
	c.Read(ctx)
	c.CloseNow()

	require.Eventually(t, func() bool { return strings.Count(logs.String(), "\n") == 2 }, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), `"path":"/ws","status":101`)
	assert.Contains(t, logs.String(), `"path":"/sse","query":"token","status":200`)
	assert.NotContains(t, logs.String(), "abc")
}

// syncBuffer is a buffer a server's handlers write while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestQueryKeys(t *testing.T) {
	assert.Equal(t, "", queryKeys(""))
	assert.Equal(t, "lang,session", queryKeys("session=a&lang=en"))
	assert.Equal(t, "a,b", queryKeys("b&a=1&%73ecret=x&=y"))
}

// Export: the site as files, the API on another origin in its config and
// CSP, the headers to set written out.
func TestExport(t *testing.T) {
	web := fakeWeb(t)
	require.NoError(t, os.WriteFile(filepath.Join(web, "stepwise.css"), []byte("body{}"), 0o644))
	dir := filepath.Join(t.TempDir(), "out")
	var stderr bytes.Buffer
	require.Equal(t, 0, export([]string{"-web", web, "-api-url", "https://agent.example.com/", "-agent-name", "Helper", dir}, &stderr), stderr.String())
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, name)
		return string(b)
	}
	for _, name := range []string{"index.html", "app.js", "wasm_exec.js", "app-worker.js", "manifest.webmanifest", "app.css", "web/app.wasm", "web/app.wasm.gz", "web/stepwise.css"} {
		read(name)
	}
	assert.Contains(t, read("index.html"), `data-testid="composer"`, "the page is prerendered")
	appJS := read("app.js")
	assert.Contains(t, appJS, `"STEPWISE_PAGE_HISTORY_PATH":"https://agent.example.com/api/sessions/{session_id}/history"`)
	assert.Contains(t, appJS, `"STEPWISE_PAGE_WS_PATH":"https://agent.example.com/api/sessions/{session_id}/ws"`)
	assert.Contains(t, appJS, `"STEPWISE_PAGE_AGENT_NAME":"Helper"`)
	assert.Contains(t, appJS, `fetch("/web/app.wasm")`, "Stepwise's loader, not go-app's")
	headers := read("_headers")
	assert.Contains(t, headers, "connect-src 'self' https://agent.example.com wss://agent.example.com;")
	assert.Contains(t, headers, "Link: </web/app.wasm>; rel=preload")
	_, err := os.Stat(filepath.Join(dir, "web/app.wasm.br.sha256"))
	assert.True(t, os.IsNotExist(err), "the server's own bookkeeping stays out")

	assert.Equal(t, 1, export([]string{"-web", web, dir}, &stderr), "a folder that is not empty is refused")
	assert.Contains(t, stderr.String(), "not empty")
	assert.Equal(t, 2, export([]string{"-web", web, "-api-url", "agent.example.com", filepath.Join(t.TempDir(), "x")}, io.Discard))

	under := filepath.Join(t.TempDir(), "chat")
	require.Equal(t, 0, export([]string{"-web", web, "-base-path", "/chat/", under}, &stderr), stderr.String())
	b, err := os.ReadFile(filepath.Join(under, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `src="/chat/app.js"`)
	b, err = os.ReadFile(filepath.Join(under, "_headers"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "/chat/*\n")
	assert.Contains(t, string(b), "connect-src 'self';", "no -api-url: the API is on the site's own origin")
	b, err = os.ReadFile(filepath.Join(under, "app.js"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"STEPWISE_PAGE_HISTORY_PATH":"/chat/api/sessions/{session_id}/history"`)
}

// healthcheck asks a running server, as the container's HEALTHCHECK does.
func TestHealthcheckCommand(t *testing.T) {
	s := startServer(t, demoArgs(t)...)
	addr := strings.TrimPrefix(s.URL, "http://")
	_, port, _ := net.SplitHostPort(addr)
	t.Setenv("STEPWISE_ADDR", ":"+port) // a wildcard address is asked on loopback
	var stderr bytes.Buffer
	assert.Equal(t, 0, healthcheck(nil, &stderr), stderr.String())
	assert.Equal(t, 1, healthcheck([]string{"-addr", "127.0.0.1:1"}, &stderr))
}
