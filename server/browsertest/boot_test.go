//go:build browser

package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"stepwise/server/demo"
	"stepwise/server/site"
	"stepwise/state/wire"
)

// heldSite is the app on its own server whose app.wasm waits until the test
// lets it go: the prerendered page stays the page, for as long as the test
// needs, however fast the machine.
type heldSite struct {
	url     string
	agent   *demo.Agent
	release func()
}

func newHeldSite(t *testing.T) *heldSite {
	t.Helper()
	scenarios, err := demo.LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	s := &heldSite{agent: openAgent(t, scenarios)}
	s.agent.Speed = 4
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: s.agent}})
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	var once sync.Once
	s.release = func() { once.Do(func() { close(gate) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { s.release(); srv.Close() })
	s.url = srv.URL
	return s
}

// userMessages are the texts of the session's user messages, as the agent
// stored them.
func userMessages(t *testing.T, a *demo.Agent, session string) []string {
	t.Helper()
	events, err := a.Events(session)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, raw := range events {
		if ev, err := wire.DecodeEvent(raw); err == nil && ev.Type == "user_message" {
			texts = append(texts, ev.UserText())
		}
	}
	return texts
}

// navigateNoWait starts loading url and returns once the page is committed,
// without waiting for its load event (which waits for app.wasm).
func (p *page) navigateNoWait(url string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, cdppage.Navigate, cdppage.NavigateParams{URL: url}); err != nil {
		p.t.Fatalf("navigate: %v", err)
	}
}

// startingPage waits until the prerendered page has been taken over by
// web/boot.js (the app itself held back).
func (p *page) startingPage() {
	p.t.Helper()
	p.waitJS(`window.stepwiseBoot && document.documentElement.dataset.boot === "starting"`, 30*time.Second)
	if eval[string](p, `document.documentElement.dataset.stepwise || ""`) != "" {
		p.t.Fatal("the app runs already: the test would not type before it")
	}
}

const composerValue = `document.getElementById("composer-input").value`

// pressEnter presses Enter in the focused element as a keyboard does: one
// key-down that carries its text, so that a handler preventing its
// default keeps the line break out (chromedp's "\r" sends the text apart).
func (p *page) pressEnter() {
	p.t.Helper()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		ev := input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
		if typ == input.DispatchKeyEventTypeKeyDown {
			ev.Text, ev.UnmodifiedText = "\r", "\r"
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchKeyEvent, ev); err != nil {
			p.t.Fatalf("Enter: %v", err)
		}
	}
}

// TestTypedBeforeBootIsSentOnce: over a slow link, with the app held back,
// a person types into the prerendered composer and presses Enter, then
// types more. The page says, quietly and in the page's language, that the
// app is starting, then that the message will be sent; nothing but the
// composer can be clicked. When the app runs, the message reaches the agent
// once, and the text typed after it is still in the box, with the focus.
func TestTypedBeforeBootIsSentOnce(t *testing.T) {
	const session = "boot-typed"
	s := newHeldSite(t)
	p := newPage(t)
	p.throttle(link20)
	p.navigateNoWait(s.url + "/?session=" + session + "&lang=en")
	p.startingPage()

	if got := eval[string](p, `document.querySelector('[data-testid="starting"]').textContent`); got != "Starting… you can type already." {
		t.Errorf("starting note %q", got)
	}
	// Nothing that looks clickable does nothing: the only control enabled
	// is the composer's send button, which boot.js handles.
	if got := eval[[]string](p, `[...document.querySelectorAll("button, a[href], input, select")].filter(e => !e.disabled && !e.closest("#app-wasm-loader")).map(e => e.dataset.testid || e.outerHTML.slice(0, 80))`); !reflect.DeepEqual(got, []string{"send"}) {
		t.Errorf("enabled controls while starting: %q, want only the send button", got)
	}
	if eval[bool](p, `getComputedStyle(document.getElementById("app-wasm-loader")).display !== "none"`) {
		t.Error("go-app's loading screen covers the prerendered page")
	}

	p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), "/parallel"))
	p.pressEnter()
	p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), "and more"))
	if got := eval[string](p, `[...document.querySelectorAll('[data-testid="boot-pending"]')].map(e => e.textContent).join("|")`); got != "/parallel" {
		t.Errorf("the message waiting to be sent shows as %q", got)
	}
	if got := eval[string](p, composerValue); got != "and more" {
		t.Errorf("the box holds %q before the app runs", got)
	}
	if got := eval[string](p, `document.querySelector('[data-testid="starting"]').textContent`); got != "Starting… your message will be sent as soon as the app is ready." {
		t.Errorf("note once a message waits: %q", got)
	}
	p.screenshot("boot-typed-before-ready")
	p.axe("starting, a message waiting")

	s.release()
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 60*time.Second)
	p.waitJS(agentStatus+` === "idle" && document.querySelectorAll('[data-kind="user"]').length === 1 && document.querySelector('[data-kind="group"]')`, 60*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="user"]').textContent`); got != "/parallel" {
		t.Errorf("the page shows %q sent", got)
	}
	if got := userMessages(t, s.agent, session); !reflect.DeepEqual(got, []string{"/parallel"}) {
		t.Fatalf("the agent received %q, want the message typed before the app ran, once", got)
	}
	if got := eval[string](p, composerValue); got != "and more" {
		t.Errorf("after the app took over, the box holds %q", got)
	}
	if !eval[bool](p, `document.activeElement === document.getElementById("composer-input")`) {
		t.Error("the box lost the focus when the app took over")
	}
	if eval[int](p, `document.querySelectorAll('[data-testid="starting"], [data-testid="boot-pending"]').length`) != 0 {
		t.Error("the starting note or the waiting message outlived the start")
	}
}

// TestEnterBeforeBootKeepsOrder: two messages sent before the app runs,
// one with Enter and one with the send button, go out once each, in order
// (replay mode records the frames the page sends).
func TestEnterBeforeBootKeepsOrder(t *testing.T) {
	s := newHeldSite(t)
	p := newPage(t)
	p.throttle(link20)
	p.navigateNoWait(s.url + "/?replay=/scenarios/error.jsonl&rate=max&lang=fr")
	p.startingPage()
	if got := eval[string](p, `document.querySelector('[data-testid="starting"]').textContent`); got != "Démarrage… vous pouvez déjà écrire." {
		t.Errorf("starting note %q", got)
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), "first"))
	p.pressEnter()
	p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), "second"))
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="send"]`)))
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="send"]`))) // an empty box sends nothing
	if got := eval[int](p, `document.querySelectorAll('[data-testid="boot-pending"]').length`); got != 2 {
		t.Fatalf("%d messages wait, want 2", got)
	}
	s.release()
	p.waitJS(`window.__result`, 60*time.Second)
	p.waitJS(`(window.__stepwiseFrames || []).length >= 2`, 10*time.Second)
	var texts []string
	for _, f := range p.frames() {
		if f["type"] == "user_message" {
			texts = append(texts, frameText(f))
		}
	}
	if !reflect.DeepEqual(texts, []string{"first", "second"}) {
		t.Fatalf("the page sent %q, want first then second, once each", texts)
	}
	if got := eval[string](p, composerValue); got != "" {
		t.Errorf("the box holds %q", got)
	}
}

// frameText is a user_message frame's text (its text parts).
func frameText(f map[string]any) string {
	parts, _ := f["content"].([]any)
	var b strings.Builder
	for _, part := range parts {
		if m, ok := part.(map[string]any); ok {
			if s, ok := m["text"].(string); ok {
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// recordBootStart notes how the page looked when web/boot.js took it over
// (it sets window.stepwiseBoot last, and the app runs after it).
const recordBootStart = `
Object.defineProperty(window, "stepwiseBoot", {configurable: true, set(v) {
  const root = document.documentElement, shell = document.querySelector(".shell");
  window.__bootStart = {lang: root.lang, boot: root.dataset.boot || "",
    hidden: !!shell && getComputedStyle(shell).visibility === "hidden", empty: !!document.querySelector("#conversation > .empty")};
  Object.defineProperty(window, "stepwiseBoot", {value: v, configurable: true, writable: true});
}});
`

type bootStart struct {
	Lang   string `json:"lang"`
	Boot   string `json:"boot"`
	Hidden bool   `json:"hidden"`
	Empty  bool   `json:"empty"`
}

// TestCachedShellInAnotherLanguageIsHidden: the service worker serves every
// navigation the shell it cached (in the browser's language, without a
// conversation). Opened in another language, that shell stays hidden until
// the app has rendered, rather than shown in the wrong words; opened on a
// conversation, it does not invite the reader to start one.
func TestCachedShellInAnotherLanguageIsHidden(t *testing.T) {
	p := newPage(t)
	p.open("/?session=boot-shell-1&lang=en")
	p.waitJS(`navigator.serviceWorker.controller && caches.match("/").then(r => !!r)`, 30*time.Second)
	p.addInitScript(recordBootStart)

	p.do(chromedp.Navigate(serverURL + "/?session=boot-shell-2&lang=fr"))
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 30*time.Second)
	got := eval[bootStart](p, `window.__bootStart`)
	if want := (bootStart{Lang: "en", Boot: "stale", Hidden: true, Empty: false}); got != want {
		t.Fatalf("the cached shell as boot.js left it: %+v, want %+v", got, want)
	}
	if eval[string](p, `getComputedStyle(document.querySelector(".shell")).visibility + " " + document.documentElement.lang + " " + (document.documentElement.dataset.boot || "")`) != "visible fr " {
		t.Fatal("the app's page is not shown in French once it runs")
	}

	// In its own language the cached shell shows at once.
	p.do(chromedp.Navigate(serverURL + "/?lang=en"))
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 30*time.Second)
	if got := eval[bootStart](p, `window.__bootStart`); got != (bootStart{Lang: "en", Boot: "starting", Empty: true}) {
		t.Fatalf("the cached shell in its language: %+v", got)
	}
}

// TestPrerenderedPageHidesDecorations: the prerendered page, which a
// person on a slow link reads and types into for seconds, exposes no
// unnamed graphic to assistive technology, as the app's page does not.
// (go-app's server-side encoder writes an attribute whose value is "true"
// with no value: aria-hidden there hides nothing.)
func TestPrerenderedPageHidesDecorations(t *testing.T) {
	s := newHeldSite(t)
	p := newPage(t)
	p.navigateNoWait(s.url + "/?session=decorations&lang=en")
	p.startingPage()
	if got := p.unnamedGraphics(); len(got) > 0 {
		t.Errorf("the prerendered page exposes unnamed graphics: %v", got)
	}
	s.release()
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 60*time.Second)
	if got := p.unnamedGraphics(); len(got) > 0 {
		t.Errorf("the app's page exposes unnamed graphics: %v", got)
	}
}

// unnamedGraphics lists the accessibility tree's images without a name,
// each with its DOM node's tag and attributes.
func (p *page) unnamedGraphics() []string {
	p.t.Helper()
	tree, err := chromedp.Call(p.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		p.t.Fatal(err)
	}
	var found []string
	for _, n := range tree.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		role := strings.Trim(string(n.Role.Value), `"`)
		name := ""
		if n.Name != nil {
			name = strings.Trim(string(n.Name.Value), `"`)
		}
		if (role == "image" || role == "img" || role == "graphics-document") && name == "" {
			what := fmt.Sprintf("node %d", n.BackendDOMNodeID)
			if d, err := chromedp.Call(p.ctx, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: n.BackendDOMNodeID}); err == nil {
				what = fmt.Sprintf("<%s %s>", strings.ToLower(d.Node.NodeName), strings.Join(d.Node.Attributes, " "))
			}
			found = append(found, role+" "+what)
		}
	}
	return found
}
