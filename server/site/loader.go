package site

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
)

// goappLoad is how go-app's app.js fetches the wasm: through a stream it
// builds for its progress label. A Response made from a stream has no URL,
// so Chromium cannot keep the compiled module in its code cache and
// compiles 10 MB of wasm on every visit.
const goappLoad = `fetchWithProgress("/web/app.wasm", showProgress)`

// directLoad fetches the wasm as is: a repeat visit (the service worker
// serves it) reuses the compiled code. The app shows no progress label.
const directLoad = `fetch("/web/app.wasm")`

// appJS serves go-app's app.js with directLoad in place of goappLoad; when
// go-app changes its script, it serves it unchanged.
func appJS(goapp http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		r2 := r.Clone(r.Context())
		r2.Header.Del("If-None-Match")
		goapp.ServeHTTP(rec, r2)
		body := bytes.Replace(rec.Body.Bytes(), []byte(goappLoad), []byte(directLoad), 1)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}
