package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page asks for app.wasm with its headers, app.js fetches it as is, runs
// it once the page is parsed and registers the service worker only once it
// runs.
func TestLoaderFetchesTheWasmEarlyAndOnce(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()

	get := func(path string, header ...string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, _ := get("/")
	assert.Equal(t, []string{wasmPreload("")}, resp.Header.Values("Link"))
	resp, _ = get("/web/stepwise.css")
	assert.Empty(t, resp.Header.Values("Link"), "the page's alone")

	resp, js := get("/app.js")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "javascript")
	assert.Contains(t, js, `instantiateStreaming(
      fetch("/web/app.wasm"),`, "the wasm compiles from the response itself, not from a stream made of it")
	assert.NotContains(t, js, "fetchWithProgress(\"")
	assert.Equal(t, 1, strings.Count(js, "goappInitServiceWorker();"))
	run := strings.Index(js, "go.run(wasm.instance);")
	register := strings.Index(js, "goappInitServiceWorker();")
	assert.True(t, run > 0 && register > run, "the service worker is registered after the app runs")
	parsed := strings.Index(js, `document.addEventListener("DOMContentLoaded"`)
	assert.True(t, parsed > 0 && parsed < run, "the app runs after the page's deferred scripts (web/boot.js)")

	resp, _ = get("/app.js", "If-None-Match", resp.Header.Get("ETag"))
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
}
