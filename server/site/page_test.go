package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerAPI is an API that adds to each page's header, and counts.
type headerAPI struct {
	http.Handler
	calls int
}

func (a *headerAPI) PageHeader(h http.Header, r *http.Request) {
	a.calls++
	h.Set("Cache-Control", "private, no-cache")
	h.Add("Set-Cookie", "probe=1; Path=/api")
}

// An API with a PageHeader adds to the page's header after the page's own
// fields (go-app's Cache-Control), on the 200 and on a 304; other
// responses are left alone.
func TestAPIAddsToThePageHeader(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	api := &headerAPI{Handler: http.NotFoundHandler()}
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir, API: api})
	require.NoError(t, err)

	page := httptest.NewRecorder()
	handler.ServeHTTP(page, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusOK, page.Code)
	assert.Equal(t, "private, no-cache", page.Header().Get("Cache-Control"))
	assert.Equal(t, "probe=1; Path=/api", page.Header().Get("Set-Cookie"))
	assert.Contains(t, page.Body.String(), "<html")

	again := httptest.NewRequest(http.MethodGet, "/", nil)
	again.Header.Set("If-None-Match", page.Header().Get("ETag"))
	notModified := httptest.NewRecorder()
	handler.ServeHTTP(notModified, again)
	require.Equal(t, http.StatusNotModified, notModified.Code)
	assert.Equal(t, "probe=1; Path=/api", notModified.Header().Get("Set-Cookie"))
	assert.Equal(t, 2, api.calls)

	for _, path := range []string{"/app.js", "/web/app.wasm", "/app-worker.js", "/manifest.webmanifest"} {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		assert.Empty(t, rec.Header().Get("Set-Cookie"), path)
	}
	assert.Equal(t, 2, api.calls, "called for pages only")

	// An API without one changes nothing.
	plain, err := New(Config{AllowedHosts: testHosts, WebDir: dir, API: http.NotFoundHandler()})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	plain.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
	assert.Empty(t, rec.Header().Get("Set-Cookie"))
}
