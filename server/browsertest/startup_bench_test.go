//go:build browser

package browsertest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// bootProbe runs before a page's own scripts: it notes when the wasm module
// is compiled and instantiated, when the Go program starts, and when a page
// without our ready mark (the React peer) first shows its conversation.
const bootProbe = `
(() => {
  const m = window.__boot = {};
  const now = () => performance.now();
  const f = WebAssembly.instantiateStreaming;
  if (f) WebAssembly.instantiateStreaming = function (...a) {
    m.instantiateStart ??= now();
    const r = f.apply(this, a);
    r.then(() => { m.instantiated ??= now(); }, () => {});
    return r;
  };
  let G;
  Object.defineProperty(globalThis, "Go", {configurable: true, get() { return G; }, set(v) {
    G = v;
    const run = v.prototype.run;
    v.prototype.run = function (...a) { m.run ??= now(); return run.apply(this, a); };
  }});
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-testid="conversation"]')) { m.conversation = now(); obs.disconnect(); }
  }).observe(document, {childList: true, subtree: true});
})();
`

// bootTimes is one page load, in ms from its navigation start.
type bootTimes struct {
	Usable       float64   `json:"usable"`           // the app runs and takes input
	Typeable     float64   `json:"typeable"`         // the prerendered composer keeps what is typed (web/boot.js)
	HTML         float64   `json:"html"`             // the document's last byte
	FCP          float64   `json:"fcp"`              // first contentful paint
	WasmStart    float64   `json:"wasmStart"`        // app.wasm requested
	WasmEnd      float64   `json:"wasmEnd"`          // its last byte
	WasmTransfer float64   `json:"wasmTransfer"`     // bytes on the wire (0 from the service worker)
	InstStart    float64   `json:"instantiateStart"` // instantiateStreaming called
	Instantiated float64   `json:"instantiated"`     // compiled and instantiated
	Run          float64   `json:"run"`              // go.run called
	Main         float64   `json:"main"`             // Go runtime started, packages initialised
	Requests     []request `json:"requests"`         // every request but the page's, in order of start
}

// request is one resource a page fetched (Resource Timing).
type request struct {
	Path     string  `json:"path"`
	Start    float64 `json:"start"`
	End      float64 `json:"end"`
	Transfer float64 `json:"transfer"` // bytes on the wire (header included); 0 from a cache or the service worker
	Body     float64 `json:"body"`     // body bytes as sent (encoded)
}

// readBootTimes reads a loaded page's times; usableJS says when it became
// usable.
func readBootTimes(p *page, usableJS string) bootTimes {
	p.t.Helper()
	return eval[bootTimes](p, `(() => {
  const b = window.__boot || {};
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const wasm = performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.endsWith("/app.wasm"))[0];
  const main = performance.getEntriesByName("stepwise:main")[0];
  const boot = performance.getEntriesByName("stepwise:boot")[0];
  return {
    usable: `+usableJS+`, typeable: boot ? boot.startTime : 0,
    html: nav.responseEnd, fcp: fcp ? fcp.startTime : 0,
    wasmStart: wasm ? wasm.startTime : 0, wasmEnd: wasm ? wasm.responseEnd : 0, wasmTransfer: wasm ? wasm.transferSize : 0,
    instantiateStart: b.instantiateStart || 0, instantiated: b.instantiated || 0, run: b.run || 0, main: main ? main.startTime : 0,
    requests: performance.getEntriesByType("resource").map(e => ({path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd, transfer: e.transferSize, body: e.encodedBodySize})),
  };
})()`)
}

const stepwiseUsable = `Number(document.documentElement.dataset.readyAt)`

// startupSample is one app's first visits, reloads and returns, each in a
// fresh browser (empty HTTP cache, no service worker, no compiled code).
type startupSample struct {
	first, reload, returning []bootTimes
}

// measureStartup loads url in n fresh browsers behind l (nil: localhost as
// it is), then reloads each twice, the way a person comes back: after the
// service worker (if any) has the app and the browser has had a moment to
// cache compiled code. Then it comes back in a new tab of that browser, the
// first one left: a reload reuses the module compiled in the tab's process,
// a new tab has only what the browser keeps on disk.
func measureStartup(t *testing.T, n int, l *link, url, readyJS, usableJS string, afterFirst func(p *page)) startupSample {
	var s startupSample
	for i := 0; i < n; i++ {
		p := newPage(t)
		if l != nil {
			p.throttle(*l)
		}
		p.addInitScript(bootProbe)
		p.do(chromedp.Navigate(url))
		p.waitJS(readyJS, 60*time.Second)
		s.first = append(s.first, readBootTimes(p, usableJS))
		if afterFirst != nil {
			afterFirst(p)
		}
		time.Sleep(2 * time.Second)
		for j := 0; j < 2; j++ {
			p.do(chromedp.Reload())
			p.waitJS(readyJS, 60*time.Second)
			s.reload = append(s.reload, readBootTimes(p, usableJS))
		}
		p.do(chromedp.Navigate("about:blank"))
		tab, closeTab := chromedp.NewContext(p.ctx)
		back := &page{t: t, ctx: tab}
		if l != nil {
			back.throttle(*l)
		}
		back.addInitScript(bootProbe)
		back.do(chromedp.Navigate(url))
		back.waitJS(readyJS, 60*time.Second)
		s.returning = append(s.returning, readBootTimes(back, usableJS))
		closeTab()
		p.close()
	}
	return s
}

// spread is "median [min–max]" of the values f picks.
func spread(runs []bootTimes, f func(bootTimes) float64) string {
	if len(runs) == 0 {
		return "–"
	}
	v := make([]float64, len(runs))
	for i, r := range runs {
		v[i] = f(r)
	}
	sort.Float64s(v)
	if v[len(v)-1] == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f [%.0f–%.0f]", median(v), v[0], v[len(v)-1])
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// benchStartup prints first-visit and reload times over issue 13's link,
// Stepwise next to the React peer, where a Stepwise first visit's time
// goes and what it fetches meanwhile, then the same on localhost.
func benchStartup(t *testing.T) {
	const n = 5
	const url = "/?session=bench-startup&lang=en"
	const ready = `document.documentElement.dataset.stepwise === "ready"`
	swReady := func(p *page) {
		p.waitJS(workerServesWasm, 60*time.Second)
	}
	peer := reactPeerServer(t)
	for _, l := range []*link{&link20, nil} {
		name := "localhost (no throttling)"
		if l != nil {
			name = "a " + l.name + " link (Chromium throttling)"
		}
		stepwise := measureStartup(t, n, l, serverURL+url, ready, stepwiseUsable, swReady)
		var react startupSample
		if peer != "" {
			react = measureStartup(t, n, l, peer+"/?events=/empty.jsonl&rate=max",
				`window.__boot.conversation`, `window.__boot.conversation`, nil)
		}
		printStartup(name, n, stepwise, react)
	}
}

// printStartup prints one link's figures.
func printStartup(name string, n int, stepwise, react startupSample) {
	fmt.Printf("\nstart-up over %s, ms from navigation to a usable app, median [min–max] of %d fresh browsers (reloads: 2 each):\n", name, n)
	fmt.Printf("%-14s %-22s %-22s\n", "", "Stepwise", "React peer")
	usable := func(b bootTimes) float64 { return b.Usable }
	fmt.Printf("%-14s %-22s %-22s\n", "first visit", spread(stepwise.first, usable), spread(react.first, usable))
	fmt.Printf("%-14s %-22s %-22s\n", "reload", spread(stepwise.reload, usable), spread(react.reload, usable))
	fmt.Printf("%-14s %-22s %-22s  (the same browser, a new tab)\n", "return", spread(stepwise.returning, usable), spread(react.returning, usable))
	fmt.Printf("%-14s %-22s %-22s\n", "first paint", spread(stepwise.first, func(b bootTimes) float64 { return b.FCP }), spread(react.first, func(b bootTimes) float64 { return b.FCP }))
	typeable := func(b bootTimes) float64 { return b.Typeable }
	fmt.Printf("%-14s %-22s %-22s  (the prerendered composer keeps text and Enter until the app runs)\n", "typeable", spread(stepwise.first, typeable), "–")
	fmt.Printf("%-14s %-22s %-22s\n", "  on reload", spread(stepwise.reload, typeable), "–")
	fmt.Printf("%-14s %-22s %-22s\n", "  on return", spread(stepwise.returning, typeable), "–")

	f := stepwise.first
	fmt.Println("where a Stepwise first visit goes (ms, median [min–max]):")
	fmt.Printf("  page HTML received             at %s\n", spread(f, func(b bootTimes) float64 { return b.HTML }))
	fmt.Printf("  app.wasm requested             at %s\n", spread(f, func(b bootTimes) float64 { return b.WasmStart }))
	fmt.Printf("  download (%.2f MB on the wire)     %s\n", f[0].WasmTransfer/1e6, spread(f, func(b bootTimes) float64 { return b.WasmEnd - b.WasmStart }))
	fmt.Printf("  compile after the last byte        %s\n", spread(f, func(b bootTimes) float64 { return b.Instantiated - b.WasmEnd }))
	fmt.Printf("  Go runtime start, package init     %s\n", spread(f, func(b bootTimes) float64 { return b.Main - b.Run }))
	fmt.Printf("  first render to usable             %s\n", spread(f, func(b bootTimes) float64 { return b.Usable - b.Main }))
	var others, otherBytes float64
	for _, q := range f[0].Requests {
		if !strings.HasSuffix(q.Path, "/app.wasm") && q.Start < f[0].WasmEnd {
			others++
			otherBytes += q.Transfer
		}
	}
	fmt.Printf("  fetched while app.wasm downloads: %.0f other requests, %.1f KB:", others, otherBytes/1e3)
	for _, q := range f[0].Requests {
		if !strings.HasSuffix(q.Path, "/app.wasm") && q.Start < f[0].WasmEnd {
			fmt.Printf(" %s (%.1f KB)", q.Path, q.Transfer/1e3)
		}
	}
	fmt.Println()
	r := stepwise.reload
	fmt.Printf("a reload: compiled at %s (instantiateStreaming %s ms: short when V8 reuses the module compiled in the tab's process), Go main at %s, usable at %s\n",
		spread(r, func(b bootTimes) float64 { return b.Instantiated }), spread(r, func(b bootTimes) float64 { return b.Instantiated - b.InstStart }),
		spread(r, func(b bootTimes) float64 { return b.Main }), spread(r, usable))
	r = stepwise.returning
	fmt.Printf("a return in a new tab: compiled at %s (instantiateStreaming %s ms), Go main at %s, usable at %s\n",
		spread(r, func(b bootTimes) float64 { return b.Instantiated }), spread(r, func(b bootTimes) float64 { return b.Instantiated - b.InstStart }),
		spread(r, func(b bootTimes) float64 { return b.Main }), spread(r, usable))
}

// reactPeerServer serves ../shared/bench/react-peer as static files (gzip
// where the browser accepts it, with validators for a reload), and an
// empty stream: the page is up when it shows its empty conversation.
func reactPeerServer(t *testing.T) string {
	dir := filepath.Join("..", "..", "..", "shared", "bench", "react-peer")
	files, err := readTree(dir)
	if err != nil {
		fmt.Printf("no React peer (%v): skipped\n", err)
		return ""
	}
	files["/empty.jsonl"] = nil
	modTime := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, body, ok := staticFile(files, w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		sum := sha256.Sum256(body)
		etag := hex.EncodeToString(sum[:8])
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && len(body) > 1024 {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(body)
			zw.Close()
			body = b.Bytes()
			etag += "-gz"
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Header().Set("Vary", "Accept-Encoding")
		w.Header().Set("ETag", `"`+etag+`"`)
		http.ServeContent(w, r, name, modTime, bytes.NewReader(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// benchEmbed prints what a host page transfers for Stepwise over issue 13's
// link before its panel is opened, and when its own load event fires, for
// each data-load mode (eager is what every host page paid before).
func benchEmbed(t *testing.T) {
	fmt.Printf("\nembed over a %s link: bytes the app's server sent to a host page before the panel was opened, and the host page's load event\n", link20.name)
	for _, mode := range []string{"open", "idle", "eager"} {
		s := newEmbedSite(t, `data-session="bench-embed" data-lang="en" data-load="`+mode+`" async`, "")
		p := newPage(t)
		p.throttle(link20)
		p.do(chromedp.Navigate(s.host + "/"))
		p.waitJS(hostIdle, 60*time.Second)
		load := eval[float64](p, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
		note := "after the host page's load and two idle callbacks"
		if mode != "open" {
			p.waitJS(`__events.includes("ready")`, 60*time.Second)
			note = "once the app, loaded unopened, said it was ready"
		}
		fmt.Printf("  data-load=%-6s %9d bytes %s; host load event at %.0f ms\n", mode, s.sent.Load(), note, load)
		p.close()
	}
}
