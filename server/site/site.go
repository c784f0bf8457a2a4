// Package site serves the Stepwise app: the go-app handler, the
// pre-compressed app.wasm, the static files of web/, and security headers.
package site

import (
	"io/fs"
	"log"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	client "stepwise/app"
	"stepwise/server/demo"
)

// Config configures the site.
type Config struct {
	// WebDir holds app.wasm and the static assets (web/).
	WebDir string
	// FrameAncestors lists the origins allowed to embed the app in a frame
	// (CSP frame-ancestors); empty allows only this origin.
	FrameAncestors []string
	// ConnectSrc lists extra origins the app may connect to (a backend on
	// another origin).
	ConnectSrc []string
	// API serves /api/: the demo agent, or a proxy to a real backend.
	API http.Handler
	// Env is passed to every page (go-app's Env): the client's settings.
	Env map[string]string
	// Scenarios are served as event streams at /scenarios/NAME.jsonl, for
	// the replay page mode.
	Scenarios demo.Scenarios
	// AllowedHosts are the names the site answers to besides IP addresses
	// and localhost (hosts.go): "name", "*.domain", or "*" for any.
	AllowedHosts []string
	// FrameSrc are the origins the page may frame: the MCP Apps sandbox
	// proxy's (docs/mcp-apps.md). Empty: none but its own.
	FrameSrc []string
	// BasePath serves the site under this path ("/chat"; "" for the root,
	// see NormalizeBasePath): a reverse proxy in front forwards /chat/...
	// with the prefix kept. The pages, app.wasm, the worker (scoped to
	// it) and the API's default paths are all below it; the API handler
	// sees its paths without it (/api/...).
	BasePath string
	// AllowedOrigins are other origins whose pages may call the API
	// (CORS): a static build served elsewhere (cors.go).
	AllowedOrigins []string
}

// New returns the site's handler. It fails when app.wasm is missing.
func New(cfg Config) (http.Handler, error) {
	client.Routes()
	wasm, err := loadWasm(cfg.WebDir)
	if err != nil {
		return nil, err
	}
	if wasm.br == nil {
		log.Printf("stepwise: no app.wasm.br made from this app.wasm (install brotli and run make build): serving gzip")
	}
	base := cfg.BasePath
	worker, err := serviceWorkerTemplate(base)
	if err != nil {
		return nil, err
	}
	h := &app.Handler{
		Name:            "Stepwise",
		ShortName:       "Stepwise",
		Title:           "Stepwise",
		Description:     "A calm, readable conversation with your tool-using AI agent.",
		Lang:            "vi",
		BackgroundColor: "#0f1020",
		ThemeColor:      "#4f46e5",
		LoadingLabel:    " ",
		Env:             pageEnv(cfg), // the client's settings (server flags) and the scenarios reach every page
		Icon: app.Icon{
			Default:  "/web/icons/icon-192.png",
			Large:    "/web/icons/icon-512.png",
			Maskable: "/web/icons/maskable-512.png",
			SVG:      "/web/logo.svg",
		},
		Styles:                []string{"/web/stepwise.css", "/web/mcp-apps.css", "/web/renderers.css"},
		Scripts:               []string{"/web/boot.js defer", "/web/mermaid-host.js defer"}, // boot.js keeps what is typed before the app runs; mermaid-host.js sizes diagrams
		WasmContentLength:     strconv.Itoa(len(wasm.raw)),
		ServiceWorkerTemplate: worker,
		CacheableResources:    catalogURLs(),
		Resources:             staticDir{http.StripPrefix("/web", http.FileServer(filesOnly{http.Dir(cfg.WebDir)})), base},
	}
	loaderPatches := appJSPatches(base)
	if h.Version, err = shellVersion(wasm.hash, cfg.WebDir, h, loaderPatches); err != nil {
		return nil, err
	}
	loader, err := newPatchedScript(h, "/app.js", loaderPatches)
	if err != nil {
		return nil, err
	}
	manifest, err := newManifest(h, base)
	if err != nil {
		return nil, err
	}
	wasmExec, err := newPatchedScript(h, "/wasm_exec.js", wasmExecPatches)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/app.js", loader)
	mux.Handle("/wasm_exec.js", wasmExec)
	mux.Handle("/manifest.webmanifest", manifest)
	mux.Handle("/manifest.json", manifest)
	mux.Handle("/web/app.wasm", wasm)
	mux.Handle("/app.wasm", wasm)
	mux.HandleFunc("GET "+catalogPath+"{file}", serveCatalog)
	mux.HandleFunc("GET /scenarios/{file}", func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutSuffix(r.PathValue("file"), ".jsonl")
		sc := cfg.Scenarios[name]
		if !ok || sc == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(sc.EventsJSONL())
	})
	if cfg.API != nil {
		mux.Handle("/api/", allowOrigins(cfg.AllowedOrigins, streamsWithoutDeadlines(cfg.API)))
	}
	mux.Handle("/", preloadWasm(base, servePage(inReadersLanguage(h), cfg.API)))
	return allowedHostsOnly(cfg.AllowedHosts, securityHeaders(cfg, underBasePath(base, compressText(mux)))), nil
}

// inReadersLanguage hands the prerender the reader's language when the URL
// names none: the browser's first Accept-Language, which is the language
// the app itself takes (navigator.language) once it runs. The prerendered
// page, on screen and typed into until then, is already in its words.
func inReadersLanguage(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Add("Vary", "Accept-Language")
			q := r.URL.Query()
			if tag := firstLanguage(r.Header.Get("Accept-Language")); q.Get("lang") == "" && tag != "" {
				r = r.Clone(r.Context())
				q.Set("lang", tag)
				r.URL.RawQuery = q.Encode()
			}
		}
		next.ServeHTTP(w, r)
	})
}

// firstLanguage is the first tag of an Accept-Language header ("" for none
// or "*").
func firstLanguage(header string) string {
	first, _, _ := strings.Cut(header, ",")
	tag, _, _ := strings.Cut(first, ";")
	if tag = strings.TrimSpace(tag); tag == "*" {
		return ""
	}
	return tag
}

// securityHeaders sets SecurityHeaders on every response.
func securityHeaders(cfg Config, next http.Handler) http.Handler {
	headers := SecurityHeaders(cfg)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range headers {
			h[k] = slices.Clone(v)
		}
		next.ServeHTTP(w, r)
	})
}

// SecurityHeaders are the headers of every response: a strict policy.
// go-app's page loads its scripts from files, so no inline script runs at
// all; compiling app.wasm needs 'wasm-unsafe-eval' (which allows no
// JavaScript eval). A static build (export) writes them out for its host.
func SecurityHeaders(cfg Config) http.Header {
	ancestors := "'self'"
	if len(cfg.FrameAncestors) > 0 {
		ancestors = strings.Join(cfg.FrameAncestors, " ")
	}
	connect := strings.Join(append([]string{"'self'"}, cfg.ConnectSrc...), " ")
	csp := strings.Join([]string{
		"default-src 'self'",
		"script-src 'self' 'wasm-unsafe-eval'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob: https: http:", // source favicons come from the sites searched; blob: an attached image's preview
		"connect-src " + connect,
		"frame-src " + strings.Join(append([]string{"'self'"}, cfg.FrameSrc...), " "),
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors " + ancestors,
	}, "; ")
	return http.Header{
		"Content-Security-Policy":    {csp},
		"X-Content-Type-Options":     {"nosniff"},
		"Referrer-Policy":            {"strict-origin-when-cross-origin"},
		"Cross-Origin-Opener-Policy": {"same-origin"},
		"Permissions-Policy":         {"camera=(), microphone=(), geolocation=()"},
	}
}

// filesOnly serves files, never a directory: /web/ and its folders list
// nothing (404).
type filesOnly struct{ http.FileSystem }

func (f filesOnly) Open(name string) (http.File, error) {
	file, err := f.FileSystem.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := file.Stat(); err != nil || st.IsDir() {
		file.Close()
		return nil, fs.ErrNotExist
	}
	return file, nil
}

// streamsWithoutDeadlines lifts the server's write timeout from an
// EventSource's GET before the API (the demo agent, or the proxy to a
// backend) streams it: a stream lives for hours, and bounds each write
// itself if it wants to. net/http already lifts the read deadline of a
// request without a body once the handler runs, and every deadline of a
// hijacked connection (a WebSocket). Everything else keeps its timeouts.
func streamsWithoutDeadlines(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		api.ServeHTTP(w, r)
	})
}

// staticDir serves /web/... from the web directory and resolves the
// site's URLs (the page's links, scripts, the worker's files) below the
// base path (app.LocalDir expects the folder above web/ and resolves to
// relative paths; app.PrefixedLocation serves no files).
type staticDir struct {
	http.Handler
	basePath string
}

func (d staticDir) Resolve(location string) string {
	if d.basePath == "" || !strings.HasPrefix(location, "/") || strings.HasPrefix(location, "//") {
		return location // no base path, or a relative or remote URL
	}
	return d.basePath + location
}

// pageEnv is what every page is given: the client's settings, and the
// names of the scenarios this server plays (-scenarios ones included), which
// the empty state suggests.
func pageEnv(cfg Config) map[string]string {
	env := map[string]string{}
	if cfg.BasePath != "" {
		// The API's default paths, below the base path (a path set by a
		// flag is taken as it is).
		d := client.DefaultConfig()
		for k, path := range map[string]string{
			client.EnvHistoryPath: d.HistoryPath, client.EnvWSPath: d.WSPath, client.EnvEventsPath: d.EventsPath,
			client.EnvCommandsPath: d.CommandsPath, client.EnvSessionsPath: d.SessionsPath, client.EnvFilesPath: d.FilesPath,
			client.EnvAgentPath: d.AgentPath, client.EnvChatPath: d.ChatPath,
		} {
			env[k] = cfg.BasePath + path
		}
		env[client.EnvCatalogPath] = cfg.BasePath + catalogPath
	}
	for k, v := range cfg.Env {
		env[k] = v
	}
	if len(cfg.Scenarios) > 0 {
		env[client.EnvScenarios] = strings.Join(cfg.Scenarios.Names(), ",")
	}
	return env
}
