package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// wasmFile is app.wasm held in memory with its compressed forms, so each
// request costs no compression (app.Handler serves it uncompressed).
type wasmFile struct {
	raw, br, gz []byte
	hash        string // content hash: the app's version
}

// loadWasm reads dir/app.wasm and, when they are copies of this app.wasm,
// the app.wasm.gz and app.wasm.br that `make build` writes next to it.
// Freshness is a matter of content, never of mtimes (brotli -k truncates
// its copy's mtime to the second): the .gz is checked by decompressing it,
// the .br by app.wasm.br.sha256, the hash of the app.wasm it was made
// from. Without a good .gz it gzips once here; without a good .br, clients
// get gzip.
func loadWasm(dir string) (*wasmFile, error) {
	path := filepath.Join(dir, "app.wasm")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s (run `make build` first): %w", path, err)
	}
	sum := sha256.Sum256(raw)
	w := &wasmFile{raw: raw, hash: hex.EncodeToString(sum[:6])}
	if want, err := os.ReadFile(path + ".br.sha256"); err == nil && strings.TrimSpace(string(want)) == hex.EncodeToString(sum[:]) {
		w.br, _ = os.ReadFile(path + ".br")
	}
	if gz, err := os.ReadFile(path + ".gz"); err == nil && gunzipsTo(gz, raw) {
		w.gz = gz
	} else {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		w.gz = b.Bytes()
	}
	return w, nil
}

// gunzipsTo reports whether gz decompresses to exactly raw.
func gunzipsTo(gz, raw []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(zr, int64(len(raw))+1))
	return err == nil && bytes.Equal(got, raw)
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
