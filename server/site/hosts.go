package site

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// DNS rebinding: a page on rebind.evil.example whose name the attacker
// then points at 127.0.0.1 is same-origin with itself, so the Origin
// checks pass, and reaches this server (and the agent behind it) from the
// victim's browser. Its requests carry Host: rebind.evil.example: only
// the names this server is known by are served. An IP address is always
// one (a page cannot be same-origin with an address it does not have),
// and so are localhost and its subdomains.

// hostAllowed reports whether a request's Host is one of allowed: exact
// names, "*.example.com" for its subdomains, or "*" for any.
func hostAllowed(host string, allowed []string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.ToLower(strings.Trim(name, "[]")), ".")
	if name == "" {
		return false
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	for _, a := range allowed {
		a = strings.TrimSuffix(strings.ToLower(a), ".")
		switch {
		case a == "*", a == name:
			return true
		case strings.HasPrefix(a, "*.") && strings.HasSuffix(name, a[1:]):
			return true
		}
	}
	return false
}

// allowedHostsOnly refuses a request whose Host is not allowed.
func allowedHostsOnly(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, allowed) {
			http.Error(w, "This server does not answer to the name "+r.Host+" (its -allowed-hosts flag lists the names it answers to).", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}
