package site

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// compressText gzips the site's text responses (the page, app.js,
// wasm_exec.js, the styles, the manifest, embed.js) for clients that accept
// it: on a first visit they arrive alongside app.wasm and share the link
// with it. The API (streams among it) and app.wasm, which has its own
// encodings, pass through untouched.
func compressText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || r.Header.Get("Range") != "" ||
			strings.HasPrefix(r.URL.Path, "/api/") || strings.HasSuffix(r.URL.Path, "/app.wasm") ||
			!acceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
			next.ServeHTTP(w, r)
			return
		}
		// The gzip form's validator is the plain one's with a suffix; the
		// handler behind compares against its own.
		inm := r.Header.Get("If-None-Match")
		if strings.Contains(inm, gzipETagSuffix+`"`) {
			r = r.Clone(r.Context())
			r.Header.Set("If-None-Match", strings.ReplaceAll(inm, gzipETagSuffix+`"`, `"`))
		}
		status, body := serveWhole(next, w, r)
		h := w.Header()
		h.Add("Vary", "Accept-Encoding")
		var gz bool
		switch status {
		case http.StatusOK:
			gz = h.Get("Content-Encoding") == "" && len(body) >= 512 && compressible(h.Get("Content-Type"))
		case http.StatusNotModified:
			gz = strings.Contains(inm, gzipETagSuffix+`"`)
		}
		if gz {
			if etag := h.Get("ETag"); strings.HasSuffix(etag, `"`) {
				h.Set("ETag", strings.TrimSuffix(etag, `"`)+gzipETagSuffix+`"`)
			}
		}
		if gz && status == http.StatusOK {
			body = gzipBytes(body)
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

const gzipETagSuffix = "-gz"

// compressible reports whether a response of this type gets smaller gzipped.
func compressible(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/javascript", mt == "application/json", mt == "application/manifest+json", mt == "image/svg+xml":
		return true
	}
	return false
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&out)
	zw.Write(b)
	zw.Close()
	gzipWriters.Put(zw)
	return out.Bytes()
}

// serveWhole runs next into a buffer, puts the header it wrote in w's and
// returns its status and body, for the caller to mend before writing.
func serveWhole(next http.Handler, w http.ResponseWriter, r *http.Request) (status int, body []byte) {
	buf := &bufferedResponse{header: http.Header{}}
	next.ServeHTTP(buf, r)
	h := w.Header()
	for k, v := range buf.header {
		h[k] = v
	}
	if buf.status == 0 {
		return http.StatusOK, buf.body.Bytes()
	}
	return buf.status, buf.body.Bytes()
}

// bufferedResponse holds a whole response (the site's text files are small).
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}
