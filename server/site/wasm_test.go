package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWasmEncodingsAndStaleCopies(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "app.wasm")
	raw := []byte("\x00asm new")
	require.NoError(t, os.WriteFile(wasm, raw, 0o644))
	// Copies of another app.wasm, newer than this one: stale all the same.
	require.NoError(t, os.WriteFile(wasm+".br", []byte("old brotli"), 0o644))
	require.NoError(t, os.WriteFile(wasm+".br.sha256", []byte(sha256Hex([]byte("\x00asm old"))+"\n"), 0o644))
	require.NoError(t, os.WriteFile(wasm+".gz", gzipped([]byte("\x00asm old")), 0o644))
	future := time.Now().Add(time.Hour)
	for _, p := range []string{wasm + ".br", wasm + ".gz"} {
		require.NoError(t, os.Chtimes(p, future, future))
	}
	w, err := loadWasm(dir)
	require.NoError(t, err)
	assert.Nil(t, w.br, "a .br of another app.wasm is not served")

	get := func(accept string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", accept)
		w.ServeHTTP(rec, req)
		return rec
	}
	rec := get("gzip, deflate, br")
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	assert.True(t, gunzipsTo(rec.Body.Bytes(), raw), "the stale .gz is replaced by a fresh one")
	assert.Equal(t, "", get("identity").Header().Get("Content-Encoding"))
	assert.Equal(t, "", get("gzip;q=0").Header().Get("Content-Encoding"))
	assert.Equal(t, "application/wasm", get("").Header().Get("Content-Type"))

	// A .br made from this app.wasm is served, whatever its mtime.
	require.NoError(t, os.WriteFile(wasm+".br", []byte("fresh brotli"), 0o644))
	require.NoError(t, os.WriteFile(wasm+".br.sha256", []byte(sha256Hex(raw)+"\n"), 0o644))
	past := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(wasm+".br", past, past))
	w, err = loadWasm(dir)
	require.NoError(t, err)
	rec = get("gzip, br")
	assert.Equal(t, "br", rec.Header().Get("Content-Encoding"))
	assert.Equal(t, "fresh brotli", rec.Body.String())
	etag := rec.Header().Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	w.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusNotModified, rec.Code)
}

// TestMakeBrotliIsServed compresses an app.wasm with the Makefile's own
// recipe, as make build does, and checks the server sends the brotli copy
// (brotli -k leaves it an older mtime than app.wasm, so a freshness check
// by mtime would send gzip).
func TestMakeBrotliIsServed(t *testing.T) {
	if _, err := exec.LookPath("brotli"); err != nil {
		skipOutsideCI(t, "brotli is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "app.wasm")
	raw := bytes.Repeat([]byte("\x00asm stepwise brotli test "), 4096)
	require.NoError(t, os.WriteFile(wasm, raw, 0o644))
	out, err := exec.Command("make", "-C", "../..", "--no-print-directory", "compress-wasm", "WASM="+wasm).CombinedOutput()
	require.NoError(t, err, "%s", out)

	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/web/app.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	// What was sent decompresses to the app.wasm on disk.
	dec := exec.Command("brotli", "-d", "-c")
	dec.Stdin = bytes.NewReader(body)
	got, err := dec.Output()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(raw, got), "the brotli body is this app.wasm")
}

// /web/ and its folders list nothing; their files are served.
func TestNoDirectoryListings(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "icons"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "icons", "icon-192.png"), []byte("png"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stepwise.css"), []byte("body{}"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	for path, want := range map[string]int{
		"/web/":                   http.StatusNotFound,
		"/web/icons/":             http.StatusNotFound,
		"/web/icons":              http.StatusNotFound,
		"/web/icons/icon-192.png": http.StatusOK,
		"/web/stepwise.css":       http.StatusOK,
	} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, path)
		assert.NotContains(t, string(body), "icon-192.png", "%s lists files", path)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
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
