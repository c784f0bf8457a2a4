package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWasmEncodingsAndStaleCopies(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "app.wasm")
	require.NoError(t, os.WriteFile(wasm+".br", []byte("old brotli"), 0o644))
	require.NoError(t, os.WriteFile(wasm, []byte("\x00asm new"), 0o644))
	past := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(wasm+".br", past, past))
	w, err := loadWasm(dir)
	require.NoError(t, err)
	assert.Nil(t, w.br, "a .br older than app.wasm is not served")

	get := func(accept string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", accept)
		w.ServeHTTP(rec, req)
		return rec
	}
	assert.Equal(t, "gzip", get("gzip, deflate, br").Header().Get("Content-Encoding"))
	assert.Equal(t, "", get("identity").Header().Get("Content-Encoding"))
	assert.Equal(t, "", get("gzip;q=0").Header().Get("Content-Encoding"))
	assert.Equal(t, "application/wasm", get("").Header().Get("Content-Type"))

	require.NoError(t, os.WriteFile(wasm+".br", []byte("fresh brotli"), 0o644))
	w, err = loadWasm(dir)
	require.NoError(t, err)
	rec := get("gzip, br")
	assert.Equal(t, "br", rec.Header().Get("Content-Encoding"))
	assert.Equal(t, "fresh brotli", rec.Body.String())
	etag := rec.Header().Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	w.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusNotModified, rec.Code)
}

func TestSecurityHeaders(t *testing.T) {
	h := securityHeaders(Config{FrameAncestors: []string{"https://host.example"}}, http.NotFoundHandler())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	assert.Contains(t, csp, "frame-ancestors https://host.example")
	assert.Contains(t, csp, "object-src 'none'")
	assert.Contains(t, csp, "'wasm-unsafe-eval'")
	assert.NotContains(t, csp, "'unsafe-eval'", "only wasm compilation, never eval")
	assert.Contains(t, csp, "script-src 'self' 'wasm-unsafe-eval';", "no inline script")
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
	assert.Equal(t, "strict-origin-when-cross-origin", rec.Header().Get("Referrer-Policy"))
}
