package state

import (
	"encoding/json"
	"net/url"
	"strings"
)

// What an MCP App may do in its sandbox (docs/mcp-apps.md, "Security"):
// decided once here, and used by both sides, the page (which tells the
// app what it was granted) and the sandbox server (which turns it into
// the proxy page's Content-Security-Policy header).

// AppCSP is an MCP App resource's _meta.ui.csp: the origins it may reach.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// AppPermissions are the browser features an app asked for
// (_meta.ui.permissions) or was granted.
type AppPermissions struct {
	Camera         *struct{} `json:"camera,omitempty"`
	Microphone     *struct{} `json:"microphone,omitempty"`
	Geolocation    *struct{} `json:"geolocation,omitempty"`
	ClipboardWrite *struct{} `json:"clipboardWrite,omitempty"`
}

// AppResourceMeta is an MCP App resource's _meta.ui.
type AppResourceMeta struct {
	CSP           *AppCSP         `json:"csp,omitempty"`
	Permissions   *AppPermissions `json:"permissions,omitempty"`
	Domain        string          `json:"domain,omitempty"`
	PrefersBorder *bool           `json:"prefersBorder,omitempty"`
}

// maxCSPSources bounds each list: a resource that names more gets the
// first ones.
const maxCSPSources = 32

// SanitizeCSP keeps the sources a policy may name: origins (http, https,
// ws, wss) with an optional "*." subdomain wildcard and port, nothing
// else (no path, no keyword, no quote, no separator). What is dropped is
// simply not allowed: the spec's "no loosening".
func SanitizeCSP(c *AppCSP) AppCSP {
	if c == nil {
		return AppCSP{}
	}
	return AppCSP{
		ConnectDomains:  cspSources(c.ConnectDomains),
		ResourceDomains: cspSources(c.ResourceDomains),
		FrameDomains:    cspSources(c.FrameDomains),
		BaseURIDomains:  cspSources(c.BaseURIDomains),
	}
}

func cspSources(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if len(out) == maxCSPSources {
			break
		}
		if src, ok := CSPSource(s); ok && !seen[src] {
			seen[src] = true
			out = append(out, src)
		}
	}
	return out
}

// CSPSource returns s as a source expression when it is a plain origin
// (scheme://host[:port], host maybe "*.domain"), lower-cased.
func CSPSource(s string) (string, bool) {
	if len(s) > 300 || strings.ContainsAny(s, " \t\r\n;,'\"\\") {
		return "", false
	}
	scheme, rest, ok := strings.Cut(strings.ToLower(strings.TrimSuffix(s, "/")), "://")
	if !ok {
		return "", false
	}
	switch scheme {
	case "http", "https", "ws", "wss":
	default:
		return "", false
	}
	host := rest
	wildcard := strings.HasPrefix(host, "*.")
	if wildcard {
		host = host[2:]
	}
	u, err := url.Parse(scheme + "://" + host)
	if err != nil || u.Host != host || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Hostname() == "" {
		return "", false
	}
	for _, r := range u.Hostname() {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '[' || r == ']' || r == ':') {
			return "", false
		}
	}
	return scheme + "://" + rest, true
}

// AppPolicy is the Content-Security-Policy of an app and its sandbox
// proxy page: the spec's restrictive default widened only by the
// (sanitized) domains the resource declares.
func AppPolicy(c AppCSP, frameAncestors []string) string {
	list := func(base string, extra []string, none string) string {
		parts := []string{}
		if base != "" {
			parts = append(parts, base)
		}
		parts = append(parts, extra...)
		if len(parts) == 0 {
			return none
		}
		return strings.Join(parts, " ")
	}
	res := c.ResourceDomains
	directives := []string{
		"default-src 'none'",
		"script-src " + list("'self' 'unsafe-inline'", res, ""),
		"style-src " + list("'self' 'unsafe-inline'", res, ""),
		"img-src " + list("'self' data:", res, ""),
		"font-src " + list("'self'", res, ""),
		"media-src " + list("'self' data:", res, ""),
		"connect-src " + list("", c.ConnectDomains, "'none'"),
		"frame-src " + list("", c.FrameDomains, "'none'"),
		"base-uri " + list("", c.BaseURIDomains, "'self'"),
		"object-src 'none'",
		"form-action 'none'",
	}
	if len(frameAncestors) > 0 {
		directives = append(directives, "frame-ancestors "+strings.Join(frameAncestors, " "))
	}
	return strings.Join(directives, "; ")
}

// GrantPermissions is what Stepwise grants of what an app asks: only
// clipboard-write. Camera, microphone and geolocation stay off: the page
// itself forbids them (its Permissions-Policy), so no frame inside it can
// have them.
func GrantPermissions(asked *AppPermissions) AppPermissions {
	var granted AppPermissions
	if asked != nil && asked.ClipboardWrite != nil {
		granted.ClipboardWrite = &struct{}{}
	}
	return granted
}

// AllowAttribute is an iframe's allow attribute for granted permissions.
func (p AppPermissions) AllowAttribute() string {
	var out []string
	if p.Camera != nil {
		out = append(out, "camera")
	}
	if p.Microphone != nil {
		out = append(out, "microphone")
	}
	if p.Geolocation != nil {
		out = append(out, "geolocation")
	}
	if p.ClipboardWrite != nil {
		out = append(out, "clipboard-write")
	}
	return strings.Join(out, "; ")
}

// AppSandbox is the inner frame's sandbox attribute: scripts, and forms
// (whose submit events apps use; form-action 'none' keeps them from
// navigating). No same-origin (the app's origin is opaque: no cookies, no
// storage), no popups, no top navigation, no modals.
const AppSandbox = "allow-scripts allow-forms"

// ParseAppCSPQuery reads the csp query parameter the page gives the proxy
// page (JSON of AppCSP) and sanitizes it.
func ParseAppCSPQuery(q string) AppCSP {
	var c AppCSP
	if q == "" || json.Unmarshal([]byte(q), &c) != nil {
		return AppCSP{}
	}
	return SanitizeCSP(&c)
}
