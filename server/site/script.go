package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
)

// scriptPatch replaces old, which must occur exactly once, by new.
type scriptPatch struct{ why, old, new string }

// patchedScript is one of go-app's scripts (app.js, wasm_exec.js) with
// Stepwise's patches, made once from go-app's handler.
type patchedScript struct {
	body        []byte
	contentType string
	etag        string
}

// newPatchedScript takes the script at path from go-app's handler and
// applies patches. When go-app changes the script so that a patch no
// longer applies exactly once, it fails and says which.
func newPatchedScript(goapp http.Handler, path string, patches []scriptPatch) (*patchedScript, error) {
	rec := httptest.NewRecorder()
	goapp.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("go-app's %s: status %d", path, rec.Code)
	}
	js := rec.Body.String()
	for _, p := range patches {
		if n := strings.Count(js, p.old); n != 1 {
			return nil, fmt.Errorf("go-app's %s changed (%s: %d matches of %q): update server/site", path, p.why, n, p.old)
		}
		js = strings.Replace(js, p.old, p.new, 1)
	}
	sum := sha256.Sum256([]byte(js))
	return &patchedScript{
		body:        []byte(js),
		contentType: rec.Header().Get("Content-Type"),
		etag:        `"` + hex.EncodeToString(sum[:8]) + `"`,
	}, nil
}

func (s *patchedScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", s.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", s.etag)
	if r.Header.Get("If-None-Match") == s.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(s.body)))
	if r.Method != http.MethodHead {
		w.Write(s.body)
	}
}
