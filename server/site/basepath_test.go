package site

import (
	"context"
	"encoding/json"
	"io"
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

	client "stepwise/app"
	"stepwise/server/demo"
)

func fakeWebDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "boot.js"), []byte("// boot"), 0o644))
	return dir
}

func TestNormalizeBasePath(t *testing.T) {
	for in, want := range map[string]string{"": "", "/": "", "/chat/": "/chat", "chat": "/chat", "/chat": "/chat", " /a/b-c_d.e~/ ": "/a/b-c_d.e~"} {
		got, err := NormalizeBasePath(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"/a//b", "/../x", "/a b", "/a?b", "/a#b", `/a"b`, "/a%2fb"} {
		_, err := NormalizeBasePath(bad)
		assert.Error(t, err, bad)
	}
}

// Under /chat, everything a visit uses is below /chat: the page's links,
// the loader's fetch of app.wasm and its preload, the worker (scoped there
// by its URL) and its test for the API, the manifest's scope, and the
// API's default paths. The API sees its own paths (/api/...).
func TestSiteUnderBasePath(t *testing.T) {
	var apiPaths []string
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiPaths = append(apiPaths, r.URL.Path)
		io.WriteString(w, "{}")
	})
	h, err := New(Config{AllowedHosts: testHosts, WebDir: fakeWebDir(t), API: api, BasePath: "/chat",
		Env: map[string]string{client.EnvSessionsPath: "off"}})
	require.NoError(t, err)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}

	page := get("/chat/?lang=en")
	require.Equal(t, http.StatusOK, page.Code)
	body := page.Body.String()
	for _, want := range []string{`src="/chat/app.js"`, `src="/chat/wasm_exec.js"`, `href="/chat/manifest.webmanifest"`, `href="/chat/web/logo.svg"`, `src="/chat/web/boot.js"`} {
		assert.Contains(t, body, want)
	}
	assert.NotRegexp(t, `(src|href)="/(app|web|manifest|wasm)`, body, "a link outside /chat")
	assert.Equal(t, []string{wasmPreload("/chat")}, page.Header().Values("Link"))
	assert.Contains(t, wasmPreload("/chat"), "</chat/web/app.wasm>")

	appJS := get("/chat/app.js").Body.String()
	assert.Contains(t, appJS, `fetch("/chat/web/app.wasm")`)
	assert.Contains(t, appJS, `"/chat/app-worker.js"`, "the worker's URL, whose folder is its scope")
	assert.Contains(t, appJS, `"GOAPP_ROOT_PREFIX":"/chat/"`)
	assert.Contains(t, appJS, `"`+client.EnvHistoryPath+`":"/chat/api/sessions/{session_id}/history"`)
	assert.Contains(t, appJS, `"`+client.EnvWSPath+`":"/chat/api/sessions/{session_id}/ws"`)
	assert.Contains(t, appJS, `"`+client.EnvAgentPath+`":"/chat/api/agent"`)
	assert.Contains(t, appJS, `"`+client.EnvSessionsPath+`":"off"`, "a path set by a flag is kept")

	worker := get("/chat/app-worker.js").Body.String()
	assert.Contains(t, worker, `url.pathname.startsWith("/chat/api/")`)
	assert.Contains(t, worker, `"/chat/web/app.wasm"`)
	var manifest map[string]any
	require.NoError(t, json.Unmarshal(get("/chat/manifest.webmanifest").Body.Bytes(), &manifest))
	assert.Equal(t, "/chat/", manifest["scope"])
	assert.Equal(t, "/chat/", manifest["start_url"])

	assert.Equal(t, http.StatusOK, get("/chat/web/app.wasm").Code)
	assert.Equal(t, http.StatusOK, get("/chat/web/boot.js").Code)
	assert.Equal(t, http.StatusOK, get("/chat/api/sessions/x/history").Code)
	assert.Equal(t, []string{"/api/sessions/x/history"}, apiPaths)

	redirect := get("/chat?lang=en")
	assert.Equal(t, http.StatusFound, redirect.Code)
	assert.Equal(t, "/chat/?lang=en", redirect.Header().Get("Location"))
	for _, outside := range []string{"/", "/app.js", "/web/app.wasm", "/api/sessions/x/history", "/chatter/"} {
		rec := get(outside)
		assert.Equal(t, http.StatusNotFound, rec.Code, outside)
		assert.NotEmpty(t, rec.Header().Get("Content-Security-Policy"), outside)
	}
	assert.Equal(t, []string{"/api/sessions/x/history"}, apiPaths)
}

// The site at the root is as it was: the manifest scoped to "/", the
// loader and the worker as before.
func TestSiteAtTheRoot(t *testing.T) {
	h, err := New(Config{AllowedHosts: testHosts, WebDir: fakeWebDir(t)})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/manifest.webmanifest", nil))
	assert.Contains(t, rec.Body.String(), `"scope":"/"`)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app-worker.js", nil))
	assert.Contains(t, rec.Body.String(), `url.pathname.startsWith("/api/")`)
}

// A page of an allowed origin (a static build on a CDN) may use the demo
// agent's API: CORS on its requests and preflights, its WebSocket and
// commands accepted. Other origins get no CORS and are refused as before.
// No credentials: no Access-Control-Allow-Credentials.
func TestAllowedOriginsUseTheAPI(t *testing.T) {
	const cdn = "https://chat.example.com"
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	agent, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), sc, demo.Options{})
	require.NoError(t, err)
	defer agent.Close()
	agent.Speed = 100
	origins, err := ParseOrigins("HTTPS://Chat.Example.com, http://127.0.0.1:9999")
	require.NoError(t, err)
	assert.Equal(t, []string{cdn, "http://127.0.0.1:9999"}, origins)
	h, err := New(Config{WebDir: fakeWebDir(t), API: &demo.Handler{Agent: agent, OriginPatterns: origins}, AllowedOrigins: origins})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	do := func(method, path, origin string, header http.Header, body string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := do(http.MethodGet, "/api/sessions/c1/history", cdn, nil, "")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, cdn, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Credentials"))
	assert.Contains(t, resp.Header.Values("Vary"), "Origin")

	resp = do(http.MethodOptions, "/api/sessions/c1/commands", cdn, http.Header{"Access-Control-Request-Method": {"POST"}, "Access-Control-Request-Headers": {"content-type"}}, "")
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, cdn, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Methods"), "POST")
	assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), "Content-Type")

	resp = do(http.MethodPost, "/api/sessions/c1/commands", cdn, http.Header{"Content-Type": {"application/json"}}, `{"type":"user_message","session_id":"c1","content":"/parallel"}`)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, cdn, resp.Header.Get("Access-Control-Allow-Origin"))

	const other = "https://evil.example"
	resp = do(http.MethodGet, "/api/sessions/c1/history", other, nil, "")
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
	resp = do(http.MethodPost, "/api/sessions/c1/commands", other, http.Header{"Content-Type": {"application/json"}}, `{"type":"stop","session_id":"c1"}`)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	resp = do(http.MethodOptions, "/api/sessions/c1/commands", other, http.Header{"Access-Control-Request-Method": {"POST"}}, "")
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/sessions/c1/ws"
	c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {cdn}}})
	require.NoError(t, err, "the allowed origin's WebSocket")
	c.CloseNow()
	_, resp, err = websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {other}}})
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	for _, bad := range []string{"chat.example.com", "https://x/y", "ftp://x", "https://u:p@x"} {
		_, err := ParseOrigins(bad)
		assert.Error(t, err, bad)
	}
}

func TestBackendCredentialsWrap(t *testing.T) {
	var got http.Header
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() })
	visitor := func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/api/x", nil)
		r.Header.Set("Cookie", "a=1")
		r.Header.Set("Authorization", "Basic v")
		r.Header.Set("X-Api-Key", "visitor's")
		return r
	}
	c := BackendCredentials{Header: http.Header{"X-Api-Key": {"deployment's"}}}
	r := visitor()
	c.Wrap(next).ServeHTTP(httptest.NewRecorder(), r)
	assert.Equal(t, http.Header{"X-Api-Key": {"deployment's"}}, got)
	assert.Equal(t, "a=1", r.Header.Get("Cookie"), "the visitor's request itself is left as it was")

	c = BackendCredentials{ForwardCookie: true, ForwardAuthorization: true}
	c.Wrap(next).ServeHTTP(httptest.NewRecorder(), visitor())
	assert.Equal(t, "a=1", got.Get("Cookie"))
	assert.Equal(t, "Basic v", got.Get("Authorization"))

	assert.Error(t, BackendCredentials{Header: http.Header{"Cookie": {"x"}}, ForwardCookie: true}.Check())
	assert.Error(t, BackendCredentials{Header: http.Header{"Authorization": {"x"}}, ForwardAuthorization: true}.Check())

	name, value, err := ParseHeader("  x-api-key :  abc def ")
	require.NoError(t, err)
	assert.Equal(t, "X-Api-Key", name)
	assert.Equal(t, "abc def", value)
}
