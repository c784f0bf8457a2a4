package site

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
)

// BackendProxy forwards requests (the /api/ paths: history, WebSocket,
// SSE, commands) to a real backend, so the app is same-origin with it.
// httputil.ReverseProxy flushes streams; a WebSocket goes through the
// relay (wsrelay.go), which keeps its text frames UTF-8. The history and
// SSE need no such care: the page decodes them, bad bytes and all.
func BackendProxy(backend string) (http.Handler, error) {
	target, err := url.Parse(backend)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, fmt.Errorf("-backend %q is not an absolute http(s) URL", backend)
	}
	p := httputil.NewSingleHostReverseProxy(target)
	p.FlushInterval = -1 // SSE events go out as they come
	// The Host header stays the public one: the browser's Origin names it,
	// so a backend's same-origin check on the WebSocket still passes.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isWebSocketUpgrade(r) {
			relayWebSocket(target, w, r)
			return
		}
		p.ServeHTTP(w, r)
	}), nil
}
