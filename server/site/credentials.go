package site

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// BackendCredentials decide what identifies a request the server proxies
// to a backend (-backend): headers of the deployment's own (an API key, a
// service token), and whether the visitor's own Cookie and Authorization
// go along. By default they do not: the backend sees the deployment, not
// the visitor, and a visitor's cookies for this site are none of its
// business.
type BackendCredentials struct {
	// Header is set on every request to the backend, replacing any value
	// the visitor sent under the same name. It never reaches the browser:
	// only requests carry it, and nothing logs it.
	Header http.Header
	// ForwardCookie and ForwardAuthorization pass the visitor's own
	// Cookie and Authorization headers on, for a backend that knows the
	// visitor (the same site's login).
	ForwardCookie, ForwardAuthorization bool
}

// Check refuses a header that would replace a forwarded credential: the
// backend would see the deployment's value and never the visitor's.
func (c BackendCredentials) Check() error {
	if c.ForwardCookie && c.Header.Get("Cookie") != "" {
		return fmt.Errorf("-backend-header Cookie and -forward-credentials cookie contradict each other: keep one")
	}
	if c.ForwardAuthorization && c.Header.Get("Authorization") != "" {
		return fmt.Errorf("-backend-header Authorization and -forward-credentials authorization contradict each other: keep one")
	}
	return nil
}

// Wrap returns next (a proxy to the backend) behind these credentials:
// each request reaches it with the visitor's Cookie and Authorization
// removed unless forwarded, and Header set. The proxies copy the request's
// headers to the backend's request, WebSocket upgrades included.
func (c BackendCredentials) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		if !c.ForwardCookie {
			r.Header.Del("Cookie")
		}
		if !c.ForwardAuthorization {
			r.Header.Del("Authorization")
		}
		for k, vs := range c.Header {
			r.Header[k] = append([]string(nil), vs...)
		}
		if len(c.Header) > 0 {
			r = r.WithContext(context.WithValue(r.Context(), deploymentHeaderKey{}, c.Header))
		}
		next.ServeHTTP(w, r)
	})
}

// deploymentHeaderKey carries BackendCredentials.Header to the WebSocket
// relay, which forwards only the headers it knows of a request.
type deploymentHeaderKey struct{}

// deploymentHeader returns the headers Wrap set on r, if any.
func deploymentHeader(r *http.Request) http.Header {
	h, _ := r.Context().Value(deploymentHeaderKey{}).(http.Header)
	return h
}

// ParseHeader reads "Name: value" (-backend-header). Its errors never
// quote the value, which may be a secret.
func ParseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case !ok:
		return "", "", fmt.Errorf("want \"Name: value\" (no colon found)")
	case !validHeaderName(name):
		return "", "", fmt.Errorf("want \"Name: value\" (the name before the colon is not a header name)")
	case strings.ContainsAny(value, "\r\n\x00"):
		return "", "", fmt.Errorf("the value of header %s holds a line break or NUL", name)
	}
	return http.CanonicalHeaderKey(name), value, nil
}

// validHeaderName: an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
