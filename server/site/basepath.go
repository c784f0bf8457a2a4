package site

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// NormalizeBasePath reads a base path (-base-path): "/chat/", "chat" and
// "/chat" are all "/chat"; "" and "/" are the root, "".
func NormalizeBasePath(s string) (string, error) {
	p := "/" + strings.Trim(strings.TrimSpace(s), "/")
	if p == "/" {
		return "", nil
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("-base-path %q: want a path such as /chat/", s)
		}
		for _, c := range seg {
			// Unreserved characters only: the path goes into URLs, scripts
			// and the CSP unescaped.
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~", c)) {
				return "", fmt.Errorf("-base-path %q: letters, digits and -._~ only, segments separated by /", s)
			}
		}
	}
	return p, nil
}

// underBasePath serves next below base: /chat/... reaches it as /...,
// /chat is sent to /chat/, and every other path is not found. Nothing
// else lives on this server's root but /healthz (served in front).
func underBasePath(base string, next http.Handler) http.Handler {
	if base == "" {
		return next
	}
	strip := http.StripPrefix(base, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == base:
			to := base + "/"
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, to, http.StatusFound)
		case strings.HasPrefix(r.URL.Path, base+"/"):
			strip.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

// newManifest is go-app's web app manifest with its scope set to the base
// path: go-app scopes every app to "/", which would claim the whole
// origin for an app installed from /chat/.
func newManifest(goapp http.Handler, base string) (*patchedScript, error) {
	var patches []scriptPatch
	if base != "" {
		patches = append(patches, scriptPatch{why: "scope the app to its base path", old: `"scope":"/"`, new: `"scope":"` + base + `/"`})
	}
	return newPatchedScript(goapp, "/manifest.webmanifest", patches)
}

// ParseOrigins reads origins (-allowed-origins): scheme://host[:port]
// each, separated by spaces or commas; returned in their serialised form
// (lowercase, no path), as a browser's Origin header has them.
func ParseOrigins(s string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		u, err := url.Parse(f)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("%q is not an origin: want scheme://host[:port], such as https://chat.example.com", f)
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return out, nil
}
