package site

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
)

// BackendProxy forwards requests (the /api/ paths: history, WebSocket,
// SSE, commands) to a real backend, so the app is same-origin with it.
// httputil.ReverseProxy forwards WebSocket upgrades and flushes streams.
func BackendProxy(backend string) (http.Handler, error) {
	target, err := url.Parse(backend)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, fmt.Errorf("-backend %q is not an absolute http(s) URL", backend)
	}
	p := httputil.NewSingleHostReverseProxy(target)
	p.FlushInterval = -1 // SSE events go out as they come
	// The Host header stays the public one: the browser's Origin names it,
	// so a backend's same-origin check on the WebSocket still passes.
	return p, nil
}
