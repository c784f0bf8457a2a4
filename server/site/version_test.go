package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A deploy that changes only a static file or a server flag is a new
// version: the service worker's cache and go-app's ETags change with it,
// so browsers get the new files and installed apps update. A deploy that
// changes nothing keeps the version (no needless update).
func TestVersionFollowsWhatPagesReceive(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("app.wasm", "\x00asm")
	write("stepwise.css", "body { color: black }")
	type deploy struct{ worker, cssETag string }
	serve := func(env map[string]string) deploy {
		handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir, Env: env})
		require.NoError(t, err)
		get := func(path string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			require.Equal(t, http.StatusOK, rec.Code, path)
			return rec
		}
		body, _ := io.ReadAll(get("/app-worker.js").Body)
		return deploy{string(body), get("/web/stepwise.css").Header().Get("ETag")}
	}
	first := serve(nil)
	require.NotEmpty(t, first.cssETag)
	assert.Equal(t, first, serve(nil), "the same files and settings: the same version")

	write("app.wasm.gz", "a compressed copy, not the app")
	assert.Equal(t, first, serve(nil), "app.wasm's compressed copies are app.wasm")

	write("stepwise.css", "body { color: navy }")
	restyled := serve(nil)
	assert.NotEqual(t, first.worker, restyled.worker, "a new stylesheet: a new service worker")
	assert.NotEqual(t, first.cssETag, restyled.cssETag)
	// A browser holding the old stylesheet gets the new one, not a 304.
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodGet, "/web/stepwise.css", nil)
	req.Header.Set("If-None-Match", first.cssETag)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), "navy")

	flagged := serve(map[string]string{"STEPWISE_PAGE_PROTOCOL": "ai-sdk"})
	assert.NotEqual(t, restyled.worker, flagged.worker, "a new server flag reaches pages: a new version")

	write("app.wasm", "\x00asm2")
	assert.NotEqual(t, restyled.worker, serve(nil).worker, "a new app.wasm: a new version")
}
