// Package sandbox serves the MCP Apps sandbox proxy (SEP-1865, "Sandbox
// proxy"): the page a Stepwise page frames, on another origin, to run an
// MCP App's HTML in a frame of its own. It serves two files and nothing
// else; what an app may do is decided by the Stepwise page and by the
// policy this server puts on the proxy page (docs/mcp-apps.md).
package sandbox

import (
	_ "embed"
	"net/http"
	"net/url"
	"strings"

	"stepwise/state"
)

//go:embed proxy.html
var proxyHTML []byte

//go:embed proxy.js
var proxyJS []byte

// Config configures the proxy.
type Config struct {
	// HostAllowed reports whether a Stepwise page on this host (a URL's
	// Host: name and port) may use the proxy. The page names its origin
	// in the query (host=); the proxy page talks to that origin only and
	// may be framed by it only.
	HostAllowed func(host string) bool
	// FrameAncestors are the origins that may embed the Stepwise page
	// itself (its -frame-ancestors): a frame's ancestors all must be
	// allowed, so they are the proxy's too.
	FrameAncestors []string
}

// New returns the proxy's handler: GET / (the page) and GET /proxy.js,
// under any path prefix (a deployment may serve it under one).
func New(cfg Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		switch {
		case strings.HasSuffix(r.URL.Path, "/proxy.js"):
			h.Set("Content-Type", "text/javascript; charset=utf-8")
			h.Set("Content-Security-Policy", "default-src 'none'")
			w.Write(proxyJS)
		case strings.HasSuffix(r.URL.Path, "/"):
			host, ok := hostOrigin(r.URL.Query().Get("host"), cfg.HostAllowed)
			if !ok {
				http.Error(w, "This page is the sandbox of a Stepwise page's MCP Apps; it is not to be opened on its own.", http.StatusBadRequest)
				return
			}
			csp := state.ParseAppCSPQuery(r.URL.Query().Get("csp"))
			// 'self': the app's own frame (srcdoc) inherits this policy,
			// and the proxy is its parent.
			ancestors := append([]string{"'self'", host}, cfg.FrameAncestors...)
			h.Set("Content-Security-Policy", state.AppPolicy(csp, ancestors))
			h.Set("Content-Type", "text/html; charset=utf-8")
			w.Write(proxyHTML)
		default:
			http.NotFound(w, r)
		}
	})
}

// hostOrigin returns the page's origin when it is a plain http(s) origin
// the deployment answers to.
func hostOrigin(s string, allowed func(string) bool) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(s, " ;,'\"") {
		return "", false
	}
	if allowed != nil && !allowed(u.Host) {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}
