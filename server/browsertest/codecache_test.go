//go:build browser

package browsertest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// workerServesWasm holds once the service worker controls the page and
// has app.wasm in its cache: the next page load takes the wasm from there.
const workerServesWasm = `navigator.serviceWorker.controller && caches.match("/web/app.wasm").then(r => !!r)`

// cacheStorageUsage is the bytes Cache Storage holds: the service
// worker's copies, and the code Chromium keeps beside its app.wasm.
const cacheStorageUsage = `navigator.storage.estimate().then(e => e.usageDetails?.caches || 0)`

// wasmInitiator is how the page's app.wasm was requested: "link" by the
// preload, "fetch" by app.js itself.
const wasmInitiator = `performance.getEntriesByType("resource").find(e => new URL(e.name).pathname === "/web/app.wasm")?.initiatorType || ""`

// openCodeCacheReplay opens a short replay in a fresh browser (its first
// visit) and returns the page, once the replay has ended, and its URL.
//
// Its V8 offers a module's code to keep from 200 KB of optimised machine
// code on, not 1 MB: Chromium 156's V8 offers it once 1,000 bytes have
// been optimised and then nothing more for 2 s, or at once from 1 MB
// (--wasm-caching-threshold, --wasm-caching-timeout-ms,
// --wasm-caching-hard-threshold), and headless Chromium offers it only
// the second way. Whether a visit optimises 1 MB is V8's tiering and what
// the visit did, close to the threshold for this short replay; what these
// tests check is the page's side, that its loads let Chromium keep and
// read the code.
func openCodeCacheReplay(t *testing.T) (*page, string) {
	writeLongConversation(t, filepath.Join("testdata", "bench-codecache-conversation.jsonl"), 100)
	const url = "/?replay=/streams/bench-codecache-conversation.jsonl&rate=max&lang=en"
	p := newPageWithJSFlags(t, 3*time.Minute, "--wasm-caching-hard-threshold=200000")
	p.open(url)
	p.waitJS(`window.__result`, time.Minute)
	return p, url
}

// A new tab runs the code Chromium compiled and kept at an earlier visit
// instead of compiling app.wasm again: the preload of app.wasm serves a
// first visit only (server/site/loader.go), since a fetch that takes over
// a preload from the service worker gets no code cache.
func TestNewTabRunsCachedWasmCode(t *testing.T) {
	first, url := openCodeCacheReplay(t)
	if got := eval[string](first, wasmInitiator); got != "link" {
		t.Errorf("a first visit's app.wasm was requested by %q, want the preload (link)", got)
	}
	first.waitJS(workerServesWasm, 30*time.Second)

	// The worker's copy of app.wasm has no compiled code with it yet: the
	// first tab it serves compiles, and Chromium keeps that code beside
	// the worker's copy once V8 offers it (here from 200 KB optimised:
	// openCodeCacheReplay), which Cache Storage's usage shows. The next
	// tab then reads it.
	before := eval[float64](first, cacheStorageUsage)
	for tabNo := 1; tabNo <= 2; tabNo++ {
		tabCtx, closeTab := chromedp.NewContext(first.ctx)
		defer closeTab()
		tab := &page{t: t, ctx: tabCtx}
		names := traceWasm(t, tab, func() {
			tab.open(url)
			tab.waitJS(`window.__result`, time.Minute)
		})
		if got := eval[string](tab, wasmInitiator); got != "fetch" {
			t.Fatalf("new tab %d: app.wasm was requested by %q, want app.js's fetch (no preload once the worker serves it)", tabNo, got)
		}
		t.Logf("new tab %d: %v", tabNo, names)
		if names["wasm.Deserialize"] > 0 {
			return
		}
		if tabNo == 2 {
			t.Fatalf("a new tab compiled app.wasm again after the code compiled in the one before was kept; its wasm trace events: %v", names)
		}
		tab.waitJS(fmt.Sprintf("%s.then(n => n > %f)", cacheStorageUsage, before+64<<10), time.Minute, cacheStorageUsage)
	}
}

// traceWasm records V8's wasm trace events while f runs in p and counts
// them by name.
func traceWasm(t *testing.T, p *page, f func()) map[string]int {
	t.Helper()
	p.do(chromedp.Navigate("about:blank")) // the tab exists before the trace starts
	stop := startTrace[struct{ Name string }](t, p, "v8.wasm")
	f()
	names := map[string]int{}
	for _, e := range stop() {
		names[e.Name]++
	}
	return names
}

// startTrace starts recording the trace events of the given categories
// (p's whole browser) and returns the function that stops it and returns
// them, each decoded into a T.
func startTrace[T any](t *testing.T, p *page, categories ...string) (stop func() []T) {
	t.Helper()
	var mu sync.Mutex
	var events []T
	done := make(chan struct{})
	chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				var te T
				if json.Unmarshal(v, &te) == nil {
					events = append(events, te)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		t.Fatalf("tracing: %v", err)
	}
	return func() []T {
		t.Helper()
		if _, err := chromedp.Call(p.ctx, tracing.End, cdp.Empty{}); err != nil {
			t.Fatalf("tracing: %v", err)
		}
		<-done
		mu.Lock()
		defer mu.Unlock()
		return events
	}
}

// A reload preloads app.wasm again, as a first visit does, while the page
// is parsed: V8 finds the module it compiled in the tab's process, so the
// code cache a preload forgoes is not needed there.
func TestReloadPreloadsWasm(t *testing.T) {
	p, _ := openCodeCacheReplay(t)
	p.waitJS(workerServesWasm, 30*time.Second)

	stop := startTrace[struct{ Name string }](t, p, "v8.wasm")
	p.do(chromedp.Reload())
	p.waitJS(`window.__result`, time.Minute)
	names := map[string]int{}
	for _, e := range stop() {
		names[e.Name]++
	}
	if got := eval[string](p, wasmInitiator); got != "link" {
		t.Errorf("a reload's app.wasm was requested by %q, want the preload (link)", got)
	}
	// Compiled afresh, the module would take ~2,000 lazy compilations.
	if names["wasm.GetNativeModuleFromCache"] == 0 || names["wasm.CompileLazy"] > 100 {
		t.Errorf("a reload compiled app.wasm instead of reusing the tab's module; wasm trace events: %v", names)
	}
}
