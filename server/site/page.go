package site

import "net/http"

// PageHeaderer is an API (Config.API) with something to add to each page's
// response header: the demo agent gives a browser its owner cookie with
// its first page.
type PageHeaderer interface {
	PageHeader(http.Header, *http.Request)
}

// withPageHeader lets api add to the header of each page response ("/"),
// once the page's handler has set its own (go-app sets Cache-Control) and
// right before the header is written.
func withPageHeader(next http.Handler, api http.Handler) http.Handler {
	ph, ok := api.(PageHeaderer)
	if !ok {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&hookedWriter{ResponseWriter: w, before: func() { ph.PageHeader(w.Header(), r) }}, r)
	})
}

// hookedWriter runs before once, as the header is about to be written.
type hookedWriter struct {
	http.ResponseWriter
	before func()
	ran    bool
}

func (w *hookedWriter) run() {
	if !w.ran {
		w.ran = true
		w.before()
	}
}

func (w *hookedWriter) WriteHeader(code int) {
	w.run()
	w.ResponseWriter.WriteHeader(code)
}

func (w *hookedWriter) Write(b []byte) (int, error) {
	w.run()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *hookedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
