package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompressText(t *testing.T) {
	css := strings.Repeat("body { color: red; }\n", 100)
	inner := http.NewServeMux()
	inner.HandleFunc("/web/stepwise.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, css)
	})
	inner.HandleFunc("/web/icon.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(bytes.Repeat([]byte{0}, 2048))
	})
	inner.HandleFunc("/api/history", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.Repeat(`{"a":1}`, 200))
	})
	h := compressText(inner)
	get := func(path string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	rec := get("/web/stepwise.css", "Accept-Encoding", "gzip, br")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	assert.Contains(t, rec.Header().Values("Vary"), "Accept-Encoding")
	zr, err := gzip.NewReader(rec.Body)
	require.NoError(t, err)
	plain, _ := io.ReadAll(zr)
	assert.Equal(t, css, string(plain))
	etag := rec.Header().Get("ETag")
	assert.Equal(t, `"v1-gz"`, etag, "the gzip form has its own validator")

	rec = get("/web/stepwise.css", "Accept-Encoding", "gzip", "If-None-Match", etag)
	assert.Equal(t, http.StatusNotModified, rec.Code, "a revalidation of the gzip form")
	assert.Equal(t, `"v1-gz"`, rec.Header().Get("ETag"))

	rec = get("/web/stepwise.css")
	assert.Equal(t, "", rec.Header().Get("Content-Encoding"), "no Accept-Encoding: plain")
	assert.Equal(t, css, rec.Body.String())
	assert.Equal(t, `"v1"`, rec.Header().Get("ETag"))

	assert.Equal(t, "", get("/web/icon.png", "Accept-Encoding", "gzip").Header().Get("Content-Encoding"), "images are compressed already")
	assert.Equal(t, "", get("/api/history", "Accept-Encoding", "gzip").Header().Get("Content-Encoding"), "the API passes through")
}
