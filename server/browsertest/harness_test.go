//go:build browser

// Package browsertest drives the real app in headless Chromium against the
// real server handler. Run with `make browser` (it builds app.wasm first).
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	client "stepwise/app"
	"stepwise/server/demo"
	"stepwise/server/sandbox"
	"stepwise/server/site"
)

var (
	agent      *demo.Agent
	serverURL  string
	sandboxURL string // the MCP Apps sandbox proxy's
	allocCtx   context.Context
	// allocOpts start the browsers: newPageWithJSFlags adds V8 flags to
	// them for one test's browser.
	allocOpts []chromedp.ExecAllocatorOption
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// The test scenarios (testdata/scenarios) hold their runs at a gate:
	// tests stop or reload "mid-run" at a known point, then Release.
	scenarios, err := demo.LoadScenarios("testdata/scenarios")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dataDir, err := os.MkdirTemp("", "stepwise-browsertest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dataDir)
	agent, err = demo.Open(filepath.Join(dataDir, "stepwise.db"), scenarios, demo.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer agent.Close()
	agent.Speed = 4
	// The MCP Apps sandbox proxy, on an origin of its own (mcpapp_test.go).
	sandboxSrv := httptest.NewServer(sandbox.New(sandbox.Config{HostAllowed: func(host string) bool { return site.HostAllowed(host, nil) }}))
	defer sandboxSrv.Close()
	sandboxURL = sandboxSrv.URL + "/"
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: agent},
		Env: map[string]string{client.EnvSandbox: sandboxURL}, FrameSrc: []string{sandboxSrv.URL}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// Test fixtures are served beside the app, as a backend's captured
	// streams would be.
	mux := http.NewServeMux()
	mux.Handle("/fixtures/", http.StripPrefix("/fixtures/", http.FileServer(http.Dir("testdata"))))
	mux.Handle("/streams/", benchStreamServer) // make bench's generated streams
	mux.Handle("/", handler)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	serverURL = srv.URL

	exec := os.Getenv("CHROMIUM")
	if exec == "" {
		exec = "/usr/bin/chromium"
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exec),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1100, 900),
	)
	// V8's flags for an experiment (make bench-stream JSFLAGS="..."), e.g.
	// every wasm function optimised before the page runs, to tell V8's
	// tiering from the page's own cost; never set by make test.
	if flags := os.Getenv("STEPWISE_JS_FLAGS"); flags != "" {
		opts = append(opts, chromedp.Flag("js-flags", flags))
	}
	// Chromium's own output (V8's tracing flags print there) kept in a
	// file for an experiment; make test never sets it.
	if name := os.Getenv("STEPWISE_CHROMIUM_OUT"); name != "" {
		out, err := os.Create(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer out.Close()
		opts = append(opts, chromedp.CombinedOutput(out))
	}
	var cancel context.CancelFunc
	allocOpts = opts
	allocCtx, cancel = chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	return m.Run()
}

// page is one browser tab with its console log.
type page struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	logs    []string
	dialogs []string // JavaScript dialogs the page opened (there must be none)

	closeOnce sync.Once
	closeTab  func()
}

// newPage opens a tab; it closes when the test ends, printing the console
// when the test failed.
func newPage(t *testing.T) *page {
	t.Helper()
	return newPageWithin(t, 90*time.Second)
}

// newPageWithin is newPage for a tab that may live longer (benchmarks).
func newPageWithin(t *testing.T, timeout time.Duration) *page {
	t.Helper()
	return newPageIn(t, allocCtx, timeout)
}

// newPageWithJSFlags is newPageWithin in a browser of its own whose V8
// runs with jsFlags (after any of STEPWISE_JS_FLAGS, which it replaces).
func newPageWithJSFlags(t *testing.T, timeout time.Duration, jsFlags string) *page {
	t.Helper()
	opts := append(allocOpts[:len(allocOpts):len(allocOpts)], chromedp.Flag("js-flags", strings.TrimSpace(os.Getenv("STEPWISE_JS_FLAGS")+" "+jsFlags)))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	return newPageIn(t, alloc, timeout)
}

func newPageIn(t *testing.T, alloc context.Context, timeout time.Duration) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	p := &page{t: t, ctx: ctx}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.dialogs) > 0 {
			t.Errorf("the page opened dialogs: %q", p.dialogs)
		}
	})
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
			p.log(string(e.Type) + ": " + strings.Join(parts, " "))
		case *cdppage.EventJavascriptDialogOpening:
			p.mu.Lock()
			p.dialogs = append(p.dialogs, e.Message)
			p.mu.Unlock()
			go chromedp.Call(ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: false})
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			p.log("exception: " + msg)
		}
	})
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			p.mu.Lock()
			for _, l := range p.logs {
				t.Log("console:", l)
			}
			p.mu.Unlock()
		}
		p.close()
	})
	p.closeTab = func() {
		cancelTimeout()
		cancel()
	}
	return p
}

// close closes the tab (and its browser) before the test ends.
func (p *page) close() {
	p.closeOnce.Do(p.closeTab)
}

func (p *page) log(s string) {
	p.mu.Lock()
	p.logs = append(p.logs, s)
	p.mu.Unlock()
}

// do runs chromedp actions, failing the test on error.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates JS and returns its result decoded as T.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", js, err)
	}
	return v
}

// waitJS polls a JS condition until it is true or the timeout passes. On
// a timeout it reports the page's text and the values of the show
// expressions.
func (p *page) waitJS(cond string, timeout time.Duration, show ...string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("Promise.resolve("+cond+").then(v => !!v)", chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			text, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 800) : ""`))
			var shown []string
			for _, expr := range show {
				v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`Promise.resolve(`+expr+`).then(v => v === undefined ? "undefined" : JSON.stringify(v))`, chromedp.EvalAwaitPromise))
				if err != nil {
					v = err.Error()
				}
				shown = append(shown, expr+" = "+v)
			}
			p.t.Fatalf("timed out waiting for %s; %s; page text: %s", cond, strings.Join(shown, "; "), text)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// screenshot saves the page as testdata/screens/NAME.png.
func (p *page) screenshot(name string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	writeShot(p.t, name, buf)
}

// open loads a path of the app and waits until the wasm app has rendered.
func (p *page) open(path string) {
	p.t.Helper()
	p.openAt(serverURL, path)
}

// openAt is open on another server.
func (p *page) openAt(base, path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(base + path))
	// The prerendered page has the composer too: wait for the wasm app,
	// which sets the page language from the URL.
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 30*time.Second)
}

// addInitScript runs js in every document the tab loads, before its own
// scripts.
func (p *page) addInitScript(js string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: js}); err != nil {
		p.t.Fatalf("init script: %v", err)
	}
}

// frames returns the client frames the page sent (replay mode records them).
func (p *page) frames() []map[string]any {
	p.t.Helper()
	raw := eval[[]string](p, `window.__stepwiseFrames || []`)
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r), &out[i]); err != nil {
			p.t.Fatalf("frame %q: %v", r, err)
		}
	}
	return out
}

// waitConnected waits until the page's live connection is open.
func (p *page) waitConnected() {
	p.t.Helper()
	p.waitJS(`document.querySelector('[data-testid="connection"]').dataset.state === "open"`, 10*time.Second)
}

// reload presses F5 and waits until the wasm app runs again.
func (p *page) reload() {
	p.t.Helper()
	p.do(chromedp.Reload())
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
}

// replay opens a scenario in replay mode and waits for window.__result.
func (p *page) replay(scenario, rate, lang string) {
	p.t.Helper()
	p.replayURL("/scenarios/"+scenario+".jsonl", rate, lang)
	p.waitJS(`window.__result`, 60*time.Second)
}

// replayURL opens the app replaying the stream at url, without waiting for
// its end.
func (p *page) replayURL(url, rate, lang string) {
	p.t.Helper()
	p.open("/?replay=" + url + "&rate=" + rate + "&lang=" + lang)
}

// openAgent opens a demo agent on a data file of the test.
func openAgent(t *testing.T, scenarios demo.Scenarios) *demo.Agent {
	t.Helper()
	a, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), scenarios, demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
