package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	client "stepwise/app"
	"stepwise/components/i18n"
	"stepwise/server/site"
)

// export writes the app as static files for a CDN or any file host
// ("stepwise export DIR"): the prerendered page, app.wasm and its
// compressed copies, the service worker, the manifest and web/'s files,
// all as the server would send them, and _headers, the response headers
// the host must add (the CSP first). The page talks to the API at
// -api-url, another origin, which must allow this one (-allowed-origins).
func export(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("stepwise export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	webDir := fs.String("web", "web", "`directory` of app.wasm and the static assets")
	apiURL := fs.String("api-url", "", "the `URL` the API's /api/ paths are under: the Stepwise server's (run with -allowed-origins naming this site) or your backend's; empty for this site's own origin")
	basePath := fs.String("base-path", "", "the `path` the files are served under (/chat/); empty for the root")
	frameAncestors := fs.String("frame-ancestors", "", "space-separated `origins` allowed to embed the app (CSP frame-ancestors)")
	transport := fs.String("transport", "", "the page's `transport`: ws or sse (default ws)")
	agentName := fs.String("agent-name", "", "the agent `name` in the brand header (default Stepwise)")
	faviconService := fs.String("favicon-service", "", "favicon `URL` for sources without one, {domain} replaced; off for none")
	fs.Usage = usageWithEnv(fs, "Usage: stepwise export [flags] DIR")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	unknownEnv, err := applyEnv(fs, os.Environ())
	if err != nil {
		fmt.Fprintln(stderr, "stepwise export:", err)
		return 2
	}
	for _, name := range unknownEnv {
		fmt.Fprintf(stderr, "stepwise export: ignored: %s names no flag\n", name)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	cfg, err := exportConfig(*webDir, *apiURL, *basePath, *frameAncestors)
	if err != nil {
		fmt.Fprintln(stderr, "stepwise export:", err)
		return 2
	}
	for key, v := range map[string]string{client.EnvTransport: *transport, client.EnvAgentName: *agentName, client.EnvFaviconService: *faviconService} {
		if v != "" {
			cfg.Env[key] = v
		}
	}
	files, err := exportFiles(cfg)
	if err == nil {
		err = writeExport(fs.Arg(0), files)
	}
	if err != nil {
		fmt.Fprintln(stderr, "stepwise export:", err)
		return 1
	}
	fmt.Fprintf(stderr, "stepwise export: %d files in %s; serve them at %s/ with the headers of %s (docs/deploy.md)\n",
		len(files), fs.Arg(0), cfg.BasePath, filepath.Join(fs.Arg(0), "_headers"))
	return 0
}

// exportConfig is the site of a static build: no API of its own, the
// API's paths on apiURL, which the CSP lets the page connect to.
func exportConfig(webDir, apiURL, basePath, frameAncestors string) (site.Config, error) {
	base, err := site.NormalizeBasePath(basePath)
	if err != nil {
		return site.Config{}, err
	}
	// Any Host: export asks the site itself for its files (the static host
	// has no Host check to make).
	cfg := site.Config{WebDir: webDir, BasePath: base, FrameAncestors: strings.Fields(frameAncestors), Env: map[string]string{}, AllowedHosts: []string{"*"}}
	api := base // the API on this site's own origin, below the base path
	if apiURL != "" {
		u, err := url.Parse(apiURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return site.Config{}, fmt.Errorf("-api-url %q: want an absolute http(s) URL without query, such as https://agent.example.com", apiURL)
		}
		api = strings.TrimSuffix(u.String(), "/")
		ws := "ws://" + u.Host
		if u.Scheme == "https" {
			ws = "wss://" + u.Host
		}
		cfg.ConnectSrc = []string{u.Scheme + "://" + u.Host, ws}
	}
	d := client.DefaultConfig()
	for key, path := range map[string]string{
		client.EnvHistoryPath: d.HistoryPath, client.EnvWSPath: d.WSPath, client.EnvEventsPath: d.EventsPath,
		client.EnvCommandsPath: d.CommandsPath, client.EnvSessionsPath: d.SessionsPath,
	} {
		cfg.Env[key] = api + path
	}
	return cfg, nil
}

// exportFiles asks the site for every file a visit uses, as a browser
// would, and returns them by path (relative to the export's folder).
func exportFiles(cfg site.Config) (map[string][]byte, error) {
	h, err := site.New(cfg)
	if err != nil {
		return nil, err
	}
	get := func(path, encoding string) ([]byte, error) {
		req := httptest.NewRequest(http.MethodGet, cfg.BasePath+path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return nil, fmt.Errorf("%s: status %d", path, rec.Code)
		}
		if got := rec.Header().Get("Content-Encoding"); got != encoding && !(encoding == "identity" && got == "") {
			return nil, nil // not available in this encoding
		}
		return rec.Body.Bytes(), nil
	}
	files := map[string][]byte{}
	for path, name := range map[string]string{
		"/": "index.html", "/app.js": "app.js", "/wasm_exec.js": "wasm_exec.js", "/app-worker.js": "app-worker.js",
		"/manifest.webmanifest": "manifest.webmanifest", "/app.css": "app.css",
	} {
		if files[name], err = get(path, "identity"); err != nil {
			return nil, err
		}
	}
	// The catalogs the app fetches for languages beyond vi and en.
	for _, lang := range i18n.Languages {
		if i18n.Builtin(lang) {
			continue
		}
		if files["web/i18n/"+lang+".json"], err = get("/web/i18n/"+lang+".json", "identity"); err != nil {
			return nil, err
		}
	}
	// app.wasm as the server sends it: plain, brotli, gzip.
	for enc, name := range map[string]string{"identity": "web/app.wasm", "br": "web/app.wasm.br", "gzip": "web/app.wasm.gz"} {
		b, err := get("/web/app.wasm", enc)
		if err != nil {
			return nil, err
		}
		if b != nil {
			files[name] = b
		}
	}
	err = filepath.WalkDir(cfg.WebDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), "app.wasm") {
			return err // app.wasm and its copies: above
		}
		rel, _ := filepath.Rel(cfg.WebDir, path)
		b, err := os.ReadFile(path)
		files["web/"+filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	files["_headers"] = []byte(hostHeaders(cfg))
	return files, nil
}

// hostHeaders is the _headers file (Netlify's and Cloudflare Pages'
// format; docs/deploy.md says what to set elsewhere): the security
// headers on every file, revalidation (file names carry no version: the
// app's version is in app.js and the worker), and the page's preload of
// app.wasm.
func hostHeaders(cfg site.Config) string {
	var b strings.Builder
	b.WriteString("# The response headers for the files of this folder (stepwise export).\n")
	fmt.Fprintf(&b, "%s/*\n", cfg.BasePath)
	sec := site.SecurityHeaders(cfg)
	names := make([]string, 0, len(sec))
	for k := range sec {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "  %s: %s\n", k, sec.Get(k))
	}
	b.WriteString("  Cache-Control: no-cache\n")
	preload := "<" + cfg.BasePath + "/web/app.wasm>; rel=preload; as=fetch; crossorigin=anonymous"
	for _, page := range []string{cfg.BasePath + "/", cfg.BasePath + "/index.html"} {
		fmt.Fprintf(&b, "%s\n  Link: %s\n", page, preload)
	}
	fmt.Fprintf(&b, "%s/web/app.wasm\n  Content-Type: application/wasm\n", cfg.BasePath)
	return b.String()
}

// writeExport writes files into dir, which must be new or empty: stale
// files of another build (an app.wasm.br of an older app.wasm) would be
// served beside the new ones.
func writeExport(dir string, files map[string][]byte) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty: export writes into a new or empty folder", dir)
	}
	for name, b := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
