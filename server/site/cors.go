package site

import (
	"net/http"
	"strings"
)

// allowOrigins lets pages of these origins (a static build on a CDN,
// -allowed-origins) call the API next: their requests get
// Access-Control-Allow-Origin, and their preflights (a JSON command, a
// DELETE) an answer. Credentials are not allowed: the app fetches with
// credentials "same-origin", so a page on another origin sends no cookie
// and reads no answer that needed one. Session ids are the capability
// (PROTOCOL.md), and the demo agent's owner cookie stays SameSite=Strict:
// a page served elsewhere keeps its list of conversations in the browser,
// as an embedded one does. The API still decides what a request of that
// origin may do (the demo agent's Origin checks take the same origins).
func allowOrigins(origins []string, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	allowed := map[string]bool{}
	for _, o := range origins {
		allowed[o] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin == "" || !allowed[strings.ToLower(origin)] {
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
