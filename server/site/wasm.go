package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wasmFile is app.wasm held in memory with its compressed forms, so each
// request costs no compression (app.Handler serves it uncompressed).
type wasmFile struct {
	raw, br, gz []byte
	hash        string // content hash: the app's version
	modTime     time.Time
}

// loadWasm reads dir/app.wasm and, when present, the app.wasm.br and
// app.wasm.gz that `make build` writes next to it. Without a .gz it gzips
// once here; without a .br, clients that only accept brotli get gzip.
func loadWasm(dir string) (*wasmFile, error) {
	path := filepath.Join(dir, "app.wasm")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s (run `make build` first): %w", path, err)
	}
	info, _ := os.Stat(path)
	w := &wasmFile{raw: raw, modTime: info.ModTime()}
	sum := sha256.Sum256(raw)
	w.hash = hex.EncodeToString(sum[:6])
	// A compressed copy older than app.wasm is stale (app.wasm was rebuilt
	// without it): serving it would run old code.
	fresh := func(p string) []byte {
		st, err := os.Stat(p)
		if err != nil || st.ModTime().Before(info.ModTime()) {
			return nil
		}
		b, _ := os.ReadFile(p)
		return b
	}
	w.br = fresh(path + ".br")
	if w.gz = fresh(path + ".gz"); w.gz == nil {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		w.gz = b.Bytes()
	}
	return w, nil
}

// ServeHTTP sends the best encoding the client accepts.
func (w *wasmFile) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	etag := `"` + w.hash + `"`
	h.Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		rw.WriteHeader(http.StatusNotModified)
		return
	}
	body := w.raw
	switch accept := r.Header.Get("Accept-Encoding"); {
	case w.br != nil && acceptsEncoding(accept, "br"):
		h.Set("Content-Encoding", "br")
		body = w.br
	case acceptsEncoding(accept, "gzip"):
		h.Set("Content-Encoding", "gzip")
		body = w.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	rw.Write(body)
}

// acceptsEncoding reports whether an Accept-Encoding header admits enc
// (with a q-value above zero).
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}
