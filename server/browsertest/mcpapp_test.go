//go:build browser

package browsertest

// MCP Apps (docs/mcp-apps.md) in the real page: the demo agent's stock
// card, the official SDK's apps, a hostile app, and the sandbox's
// isolation. The app's frame is driven and read from the test through an
// isolated world in it (its DOM, not its globals): clicks there are the
// app's own events.

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// appFrames are the frames of the apps on the page (the sandbox proxies'
// inner frames), in document order.
func (p *page) appFrames() []cdp.FrameID {
	return p.framesWhere(func(url, parentURL string) bool {
		return strings.HasPrefix(parentURL, sandboxURL) && strings.HasPrefix(url, "about:srcdoc")
	})
}

// framesWhere are the page's frames that match (by their URL and their
// parent's), in document order.
func (p *page) framesWhere(match func(url, parentURL string) bool) []cdp.FrameID {
	p.t.Helper()
	tree, err := chromedp.Call(p.ctx, cdppage.GetFrameTree, cdp.Empty{})
	if err != nil {
		p.t.Fatalf("frame tree: %v", err)
	}
	var out []cdp.FrameID
	var walk func(t *cdppage.FrameTree, parentURL string)
	walk = func(t *cdppage.FrameTree, parentURL string) {
		if match(t.Frame.URL, parentURL) {
			out = append(out, t.Frame.ID)
		}
		for _, c := range t.ChildFrames {
			walk(c, t.Frame.URL)
		}
	}
	walk(tree.FrameTree, "")
	return out
}

// appContexts are the test's attachments to frames that run in a
// process of their own (Chromium isolates sandboxed frames), by target.
var (
	appContextsMu sync.Mutex
	appContexts   = map[target.ID]context.Context{}
)

// inApp evaluates js (a function body) in the i-th app's frame and returns
// its value as JSON ("" while that frame is not there).
func (p *page) inApp(i int, js string) string {
	p.t.Helper()
	return p.inFrame(p.appFrames(), "about:srcdoc", i, js)
}

// inFrame evaluates js (a function body) in the i-th of frames, or of the
// frame targets whose URL starts with targetURL, and returns its value as
// JSON ("" while that frame is not there). A frame in the page's process
// is reached through an isolated world (its DOM, not its globals); one in
// a process of its own through its target.
func (p *page) inFrame(frames []cdp.FrameID, targetURL string, i int, js string) string {
	p.t.Helper()
	expr := "Promise.resolve((() => { " + js + " })()).then(v => JSON.stringify(v))"
	yes := true
	if len(frames) > i {
		world, err := chromedp.Call(p.ctx, cdppage.CreateIsolatedWorld, cdppage.CreateIsolatedWorldParams{FrameID: frames[i], WorldName: "stepwise-test"})
		if err == nil {
			res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: world.ExecutionContextID, ReturnByValue: &yes, AwaitPromise: &yes})
			var s string
			if err == nil && res.ExceptionDetails == nil && res.Result != nil && json.Unmarshal(res.Result.Value, &s) == nil {
				return s
			}
		}
	}
	targets, err := chromedp.Targets(p.ctx)
	if err != nil {
		return ""
	}
	var matching []*target.Info
	for _, tg := range targets {
		if tg.Type == "iframe" && strings.HasPrefix(tg.URL, targetURL) {
			matching = append(matching, tg)
		}
	}
	if len(matching) <= i {
		return ""
	}
	appContextsMu.Lock()
	ctx, ok := appContexts[matching[i].TargetID]
	if !ok {
		ctx, _ = chromedp.NewContext(p.ctx, chromedp.WithTargetID(matching[i].TargetID))
		appContexts[matching[i].TargetID] = ctx
	}
	appContextsMu.Unlock()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return ""
	}
	return v
}

// waitApp waits until js, run in the i-th app's frame, returns true.
func (p *page) waitApp(i int, js string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for p.inApp(i, js) != "true" {
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting in the app for %s; app body: %s", js, p.inApp(i, `return document.body ? document.body.innerText : null`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const appSection = `document.querySelector('[data-testid="mcp-app"]')`

// The demo's stock card: handshake, input and result, a resize, a tool
// call back from its range picker, a link and a message confirmed (or
// not) in Stepwise's own UI, full screen and back.
func TestMCPAppDemoStockCard(t *testing.T) {
	p := newPage(t)
	p.open("/?session=mcp-demo-card&lang=en")
	p.waitConnected()
	p.send("/app")
	p.waitJS(appSection+` && `+appSection+`.dataset.phase === "ready"`, 20*time.Second, appSection+`?.dataset.phase`, appSection+`?.innerText`)
	// The app drew the result and said its size: the frame follows it.
	p.waitApp(0, `return document.getElementById("price").textContent === "113.76 USD"`, 10*time.Second)
	p.waitJS(`parseInt(document.querySelector('.mcp-app-frame').style.height) > 200`, 10*time.Second,
		`document.querySelector('.mcp-app-frame').style.height`)
	if got := p.inApp(0, `return document.getElementById("name").textContent`); got != `"ACME Corp. (ACME)"` {
		t.Fatalf("app name = %q", got)
	}
	// The host context: the page's language reached the app.
	if got := p.inApp(0, `return document.documentElement.lang`); got != `"en"` {
		t.Errorf("app lang = %q, want en", got)
	}

	// The range picker calls show_stock back through the backend.
	p.inApp(0, `document.querySelector('[data-range="6M"]').click(); return true`)
	p.waitApp(0, `return document.querySelector('[data-range="6M"]').getAttribute("aria-pressed") === "true"`, 10*time.Second)
	if got := p.inApp(0, `return document.getElementById("range-label").textContent`); got != `"2025-08-08 → 2026-01-30"` {
		t.Errorf("6M range label = %q", got)
	}

	// A link waits for the person; Cancel answers the app, nothing opens.
	p.inApp(0, `document.getElementById("open").click(); return true`)
	p.waitJS(`document.querySelector('[data-testid="mcp-app-confirm"][data-kind="link"]')`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('[data-testid="mcp-app-confirm-text"]').textContent`); got != "https://example.com/quote/ACME" {
		t.Fatalf("link shown = %q", got)
	}
	p.screenshotSized("mcpapp-demo-link", "light", 1100)
	p.click(`[data-testid="mcp-app-deny"]`)
	p.waitJS(`!document.querySelector('[data-testid="mcp-app-confirm"]')`, 5*time.Second)

	// A message the person confirms is sent as theirs.
	p.inApp(0, `document.getElementById("ask").click(); return true`)
	p.waitJS(`document.querySelector('[data-testid="mcp-app-confirm"][data-kind="message"]')`, 10*time.Second)
	want := "Why did ACME move over 6M?"
	if got := eval[string](p, `document.querySelector('[data-testid="mcp-app-confirm-text"]').textContent`); got != want {
		t.Fatalf("message shown = %q", got)
	}
	p.click(`[data-testid="mcp-app-allow"]`)
	p.waitJS(`[...document.querySelectorAll('[data-kind="user"]')].some(u => u.textContent.includes(`+jsString(want)+`))`, 10*time.Second)
	p.waitJS(agentStatus+` !== "running"`, 30*time.Second)

	// Full screen, from the bar, and back with Escape.
	p.click(`[data-testid="mcp-app-fullscreen"]`)
	p.waitJS(appSection+`.matches(':popover-open') && `+appSection+`.dataset.mode === "fullscreen"`, 5*time.Second)
	// As high as the window's viewport (headless Chromium's is shorter
	// than its window).
	if h, vh := eval[float64](p, appSection+`.getBoundingClientRect().height`), eval[float64](p, `innerHeight`); h < vh-1 {
		t.Errorf("full screen app is %v px high in a %v px viewport", h, vh)
	}
	p.do(chromedp.KeyEvent("\x1b"))
	p.waitJS(`!`+appSection+`.matches(':popover-open') && `+appSection+`.dataset.mode === "inline"`, 5*time.Second)

	// The view model reports the tool's app.
	v := p.view()
	raw, _ := json.Marshal(v)
	if !strings.Contains(string(raw), `"ui":{"resourceUri":"ui://stepwise-demo/stock-card","visibility":["model","app"]}`) {
		t.Errorf("view model has no ui: %s", raw)
	}
	for _, theme := range []string{"light", "dark"} {
		for _, w := range []int{360, 1100} {
			p.screenshotSized("mcpapp-demo-"+theme+"-"+itoa(w), theme, w)
		}
	}
}

// screenshotSized takes a screenshot in a theme and width.
func (p *page) screenshotSized(name, theme string, width int) {
	p.t.Helper()
	p.sized(theme, width)
	time.Sleep(300 * time.Millisecond) // the app's ResizeObserver and the frame's transition
	p.screenshot(name)
}

// In the embed (web/embed.js): the page framed by another, the app framed
// by the page, its link confirmed in the embedded page's own UI.
func TestMCPAppInTheEmbed(t *testing.T) {
	p := newPage(t)
	p.do(chromedp.Navigate(serverURL + "/web/embed-example.html"))
	p.waitJS(`window.Stepwise && document.getElementById('stepwise-launcher')`, 10*time.Second)
	p.do(chromedp.Click(chromedp.ID("open")))
	frame := `document.querySelector('#stepwise-panel iframe').contentDocument`
	p.waitJS(frame+`?.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.do(evalAction(`Stepwise.send("/app")`))
	section := frame + `.querySelector('[data-testid="mcp-app"]')`
	p.waitJS(section+`?.dataset.phase === "ready"`, 30*time.Second, section+`?.dataset.phase`, section+`?.innerText`)
	p.waitApp(0, `return document.getElementById("price").textContent === "113.76 USD"`, 10*time.Second)
	p.inApp(0, `document.getElementById("open").click(); return true`)
	p.waitJS(frame+`.querySelector('[data-testid="mcp-app-confirm-text"]')?.textContent === "https://example.com/quote/ACME"`, 10*time.Second)
	p.screenshot("mcpapp-embed-link")
	p.do(evalAction(frame + `.querySelector('[data-testid="mcp-app-deny"]').click()`))
	p.waitJS(`!`+frame+`.querySelector('[data-testid="mcp-app-confirm"]')`, 5*time.Second)
}
