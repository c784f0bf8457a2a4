//go:build browser

package browsertest

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/server/site"
)

// TestEmbedExampleCompletesATurn opens the embed example page over a slow
// link, drives the widget through the loader's API and watches the turn
// finish in the frame, and a question open the panel.
func TestEmbedExampleCompletesATurn(t *testing.T) {
	p := newPage(t)
	p.throttle(link20)
	p.do(chromedp.Navigate(serverURL + "/web/embed-example.html"))
	p.waitJS(`window.Stepwise && document.getElementById('stepwise-launcher')`, 10*time.Second)
	if eval[string](p, `document.getElementById('stepwise-launcher').getAttribute('aria-expanded')`) != "false" {
		t.Fatal("the panel starts open")
	}
	p.do(chromedp.Click(chromedp.ID("stepwise-launcher")))
	p.waitJS(`!document.getElementById('stepwise-panel').hidden`, 2*time.Second)
	frame := `document.querySelector('#stepwise-panel iframe').contentDocument`
	p.waitJS(frame+`.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitJS(`document.getElementById('log').textContent.includes('ready')`, 10*time.Second)

	p.do(chromedp.Click(chromedp.ID("ask")))
	p.waitJS(frame+`.querySelector('[data-testid="conversation"]').dataset.agentStatus === "idle" && `+
		frame+`.querySelectorAll('[data-kind="user"]').length === 1 && `+frame+`.querySelector('[data-kind="group"]')`, 30*time.Second)
	log := eval[string](p, `document.getElementById('log').textContent`)
	if !strings.Contains(log, "status: running") || !strings.Contains(log, "status: idle") {
		t.Fatalf("events from the widget: %q", log)
	}
	if got := eval[string](p, frame+`.querySelector('[data-kind="user"]').textContent`); got != "/parallel" {
		t.Fatalf("the widget sent %q", got)
	}

	// A question opens the panel and is announced to the page.
	p.do(chromedp.Click(chromedp.ID("stepwise-launcher")))
	p.waitJS(`document.getElementById('stepwise-panel').hidden`, 2*time.Second)
	p.do(chromedp.Click(chromedp.ID("question")))
	p.waitJS(`document.getElementById('log').textContent.includes('question: ')`, 30*time.Second)
	if eval[bool](p, `document.getElementById('stepwise-panel').hidden`) {
		t.Error("a question did not open the panel")
	}
}

// The embed bridge obeys its parent window only, and only when the parent
// is at the origin the loader named (parent_origin). The app runs framed
// by a host page on another origin (localhost vs 127.0.0.1, two servers),
// in replay mode so that every frame it would send is recorded. A test
// script in the app's frame answers a barrier message with the frames
// recorded so far: messages from one window arrive in order, and the app
// handles each before the next, so whatever the messages before the
// barrier caused is in the answer. The steps start once the replay has
// played to its end: a message sent while the replayed run goes on is
// queued until the run ends, which may come after the barrier.
func TestEmbedIgnoresOtherOrigins(t *testing.T) {
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/host":
			fmt.Fprintf(w, `<!doctype html><title>host</title>
<script>window.__log = []; addEventListener("message", e => __log.push({origin: e.origin, data: e.data}));</script>
<iframe name="app" src="%s" style="width:600px;height:500px"></iframe>
<iframe name="sibling" src="%s"></iframe>`, html.EscapeString(r.URL.Query().Get("app")), html.EscapeString(r.URL.Query().Get("sibling")))
		case "/sibling":
			fmt.Fprint(w, `<!doctype html><title>sibling</title><script>
addEventListener("message", e => {
  if (!e.data || e.data.cmd !== "post") return;
  parent.frames.app.postMessage(e.data.msg, "*");
  parent.postMessage({type: "sibling:posted"}, "*");
});</script>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer host.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(host.URL, "http://"))
	parentOrigin := "http://localhost:" + port // the origin the loader names
	otherOrigin := "http://127.0.0.1:" + port  // the same server, another origin

	h, err := site.New(site.Config{WebDir: "../../web", FrameAncestors: []string{parentOrigin, otherOrigin}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/fixtures/", http.StripPrefix("/fixtures/", http.FileServer(http.Dir("testdata"))))
	mux.Handle("/", h)
	appSrv := httptest.NewServer(mux)
	defer appSrv.Close()
	appURL := appSrv.URL + "/?replay=/fixtures/group.jsonl&rate=max&lang=en&parent_origin=" + url.QueryEscape(parentOrigin)

	// A step runs in the host page; when acked names a message, the step
	// is done once the host received it (the message it caused was
	// dispatched in the app's frame by then).
	type step struct{ js, acked string }
	// frames opens the host page at hostOrigin, runs steps in it once the
	// app is ready, and returns the frames the app recorded by the barrier.
	frames := func(t *testing.T, hostOrigin string, steps ...step) []string {
		t.Helper()
		p := newIsolatedPage(t)
		p.addInitScript(embedProbe)
		q := url.Values{"app": {appURL}, "sibling": {parentOrigin + "/sibling"}}
		p.do(chromedp.Navigate(hostOrigin + "/host?" + q.Encode()))
		received := func(typ string) string {
			return `__log.some(m => m.data && m.data.type === "` + typ + `")`
		}
		p.waitJS(received("stepwise-test:ready"), 30*time.Second)
		for _, s := range steps {
			eval[bool](p, s.js+`, true`)
			if s.acked != "" {
				p.waitJS(received(s.acked), 10*time.Second)
			}
		}
		eval[bool](p, `frames.app.postMessage("stepwise-test:barrier", "*"), true`)
		p.waitJS(received("stepwise-test:frames"), 10*time.Second)
		return eval[[]string](p, `__log.find(m => m.data && m.data.type === "stepwise-test:frames").data.frames`)
	}
	send := func(text string) string {
		return `{type: "stepwise:send", text: ` + strconv.Quote(text) + `}`
	}

	t.Run("parent at the named origin", func(t *testing.T) {
		got := frames(t, parentOrigin,
			// A window at the parent's origin that is not the parent.
			step{`frames.sibling.postMessage({cmd: "post", msg: ` + send("/from-sibling") + `}, "*")`, "sibling:posted"},
			// The app's own window.
			step{`frames.app.postMessage("stepwise-test:self-post", "*")`, "stepwise-test:self-posted"},
			// The parent itself: obeyed.
			step{`frames.app.postMessage(` + send("/from-parent") + `, "` + appSrv.URL + `")`, ""},
		)
		if len(got) != 1 || !strings.Contains(got[0], `"/from-parent"`) {
			t.Fatalf("frames sent: %q, want only the parent's /from-parent", got)
		}
	})
	t.Run("parent at another origin", func(t *testing.T) {
		got := frames(t, otherOrigin, step{`frames.app.postMessage(` + send("/from-wrong-origin") + `, "*")`, ""})
		if len(got) != 0 {
			t.Fatalf("a parent at %s, not %s, commanded the app: %q", otherOrigin, parentOrigin, got)
		}
	})
}

// embedProbe runs in every frame before its scripts. In the app's frame it
// tells the top page when the app is ready and idle, posts a command to its own
// window when asked (and says so while that message is dispatched, before
// the app's own listener runs), and answers a barrier message with the
// frames the app recorded.
const embedProbe = `(() => {
  if (!new URLSearchParams(location.search).has("parent_origin")) return;
  addEventListener("message", e => {
    if (e.data === "stepwise-test:barrier")
      top.postMessage({type: "stepwise-test:frames", frames: (window.__stepwiseFrames || []).slice()}, "*");
    if (e.data === "stepwise-test:self-post")
      postMessage({type: "stepwise:send", text: "/from-itself"}, "*");
    if (e.source === window && e.data && e.data.type === "stepwise:send")
      top.postMessage({type: "stepwise-test:self-posted"}, "*");
  });
  // Ready once the app runs and its replay has played to the end (it sets
  // window.__result): while the replayed run goes on, a message is queued
  // until the run ends, which may be after the barrier.
  let mounted = false, result, told = false;
  const tell = () => {
    if (!mounted || result === undefined || told) return;
    told = true;
    top.postMessage({type: "stepwise-test:ready"}, "*");
  };
  Object.defineProperty(window, "__result", {configurable: true, get: () => result, set: v => { result = v; tell(); }});
  const mo = new MutationObserver(() => {
    if (document.documentElement && document.documentElement.dataset.stepwise === "ready") {
      mo.disconnect();
      mounted = true;
      tell();
    }
  });
  mo.observe(document, {attributes: true, subtree: true});
})()`

// newIsolatedPage is newPage in a browser of its own that keeps cross-site
// frames in the page's process, so that init scripts (embedProbe) run in
// them too. (Tests do not run in parallel: allocCtx is swapped for the
// call.)
func newIsolatedPage(t *testing.T) *page {
	t.Helper()
	exec := os.Getenv("CHROMIUM")
	if exec == "" {
		exec = "/usr/bin/chromium"
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exec),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,site-per-process,IsolateOrigins"),
	)
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel) // after the page's own cleanup
	shared := allocCtx
	allocCtx = ctx
	defer func() { allocCtx = shared }()
	return newPage(t)
}
