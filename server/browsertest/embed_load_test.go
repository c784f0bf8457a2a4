//go:build browser

package browsertest

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/server/demo"
	"stepwise/server/site"
)

// embedSite is the app on its own server and agent, and a host page on
// another origin that embeds it with embed.js, as a customer's site would.
// It keeps what the app's server sent: bytes on the wire and the paths
// asked for, in order.
type embedSite struct {
	app, host string
	agent     *demo.Agent
	sent      atomic.Int64

	mu    sync.Mutex
	paths []string
}

// newEmbedSite serves the host page at host+"/": body is its content,
// attrs the embed script's attributes (data-stepwise-url is added).
func newEmbedSite(t *testing.T, attrs, body string) *embedSite {
	t.Helper()
	s := &embedSite{}
	scenarios, err := demo.LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	s.agent = openAgent(t, scenarios)
	s.agent.Speed = 4
	// Another port: the app is a cross-origin frame, as on a customer's
	// site, but of the same site (the host), so Chromium keeps it in the
	// page's process and the page's network emulation covers it.
	hostLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.host = "http://" + hostLn.Addr().String()
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: s.agent}, FrameAncestors: []string{s.host}})
	if err != nil {
		t.Fatal(err)
	}
	app := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	app.Listener = countingListener{app.Listener, &s.sent}
	app.Start()
	t.Cleanup(app.Close)
	s.app = app.URL

	page := fmt.Sprintf(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A host page</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 640px; margin: 40px auto; color: #1b1c2a; }</style></head>
<body><h1>A host page</h1><p>Its own content, loaded first.</p>
<script>
window.__events = [];
["ready", "status", "question"].forEach(n => addEventListener("stepwise:" + n, e =>
  __events.push(n + (e.detail && e.detail.status ? ":" + e.detail.status : ""))));
</script>
<script src="%s/web/embed.js" data-stepwise-url="%s" %s></script>
%s
</body></html>`, s.app, s.app, attrs, body)
	host := &httptest.Server{Listener: hostLn, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})}}
	host.Start()
	t.Cleanup(host.Close)
	return s
}

// asked returns the paths the app's server was asked for so far.
func (s *embedSite) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.n}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// hostIdle waits until the host page has loaded and the browser has been
// idle twice since.
const hostIdle = `new Promise(done => {
  const idle = () => requestIdleCallback(() => requestIdleCallback(() => done(true)));
  if (document.readyState === "complete") idle(); else addEventListener("load", idle);
})`

// embedBudget is issue 13's budget for what a host page transfers for
// Stepwise before its panel is opened.
const embedBudget = 20_000

// TestEmbedCostsNothingUntilOpened: with data-load="open", a host page on a
// slow link fetches the loader and the launcher's icon, and nothing else,
// until the launcher is pressed; then a placeholder in the page's language
// shows at once, and gives way to the app.
func TestEmbedCostsNothingUntilOpened(t *testing.T) {
	s := newEmbedSite(t, `data-session="embed-open" data-lang="fr" data-load="open" async`, "")
	p := newPage(t)
	p.throttle(link20)
	p.do(chromedp.Navigate(s.host + "/"))
	p.waitJS(`document.getElementById("stepwise-launcher")`, 20*time.Second)
	p.waitJS(hostIdle, 20*time.Second)
	before := s.sent.Load()
	for _, path := range s.asked() {
		if path != "/web/embed.js" && path != "/web/logo.svg" {
			t.Errorf("before the panel is opened, the host page fetched %s from the app (all: %q)", path, s.asked())
		}
	}
	t.Logf("bytes for Stepwise before the panel is opened: %d", before)
	if before > embedBudget {
		t.Errorf("the host page transferred %d bytes for Stepwise before the panel was opened, over the %d budget", before, embedBudget)
	}
	if got := eval[string](p, `document.getElementById("stepwise-launcher").getAttribute("aria-label")`); got != "Ouvrir l'assistant" {
		t.Errorf("launcher label %q", got)
	}

	// Opening shows the panel and the placeholder at once, in French.
	got := eval[string](p, `(() => {
  document.getElementById("stepwise-launcher").click();
  const panel = document.getElementById("stepwise-panel");
  const status = panel.querySelector('[role="status"]');
  return [panel.hidden, !!panel.querySelector("iframe"), status && status.textContent].join("|");
})()`)
	if want := "false|true|Ouverture de l'assistant…"; got != want {
		t.Fatalf("right after the click: hidden|frame|placeholder = %q, want %q", got, want)
	}
	p.screenshot("embed-placeholder")
	p.waitJS(`__events.includes("ready")`, 60*time.Second)
	p.waitJS(`!document.querySelector('#stepwise-panel [role="status"]')`, 5*time.Second)
	if got := eval[string](p, `document.getElementById("stepwise-launcher").getAttribute("aria-label")`); got != "Fermer l'assistant" {
		t.Errorf("open launcher label %q", got)
	}
}

// TestEmbedLoadsWhenTheHostIsIdle: by default the app loads once the host
// page has loaded (its frame is requested after the host's load event), with
// no open and no command.
func TestEmbedLoadsWhenTheHostIsIdle(t *testing.T) {
	s := newEmbedSite(t, `data-session="embed-idle" data-lang="en" async`, "")
	p := newPage(t)
	p.throttle(link20)
	p.do(chromedp.Navigate(s.host + "/"))
	p.waitJS(`__events.includes("ready")`, 60*time.Second)
	order := eval[string](p, `(() => {
  const loaded = performance.getEntriesByType("navigation")[0].loadEventEnd;
  const frame = performance.getEntriesByType("resource").find(e => e.initiatorType === "iframe");
  return frame ? (frame.startTime >= loaded ? "after load" : "before load: " + frame.startTime + " < " + loaded) : "no frame";
})()`)
	if order != "after load" {
		t.Fatalf("the app's frame was requested %s", order)
	}
	if !eval[bool](p, `document.getElementById("stepwise-panel").hidden`) {
		t.Error("loading the app opened the panel")
	}
}

// TestEmbedQueuesCommandsUntilReady: a send() made before the app has loaded
// (data-load="open", nothing opened) loads it, reaches the agent once when
// it is ready, and the question it asks opens the panel.
func TestEmbedQueuesCommandsUntilReady(t *testing.T) {
	const session = "embed-queue"
	s := newEmbedSite(t, `data-session="`+session+`" data-load="open"`, `<script>
window.__before = [Stepwise.version, !!document.querySelector("#stepwise-panel iframe")].join(",");
Stepwise.on("question", d => (window.__questions = (window.__questions || 0) + 1));
Stepwise.send("/question");
window.__panelAfterSend = document.getElementById("stepwise-panel").hidden;
</script>`)
	p := newPage(t)
	p.throttle(link20)
	p.do(chromedp.Navigate(s.host + "/"))
	p.waitJS(`window.__questions === 1`, 60*time.Second)
	if got := eval[string](p, `window.__before`); got != "2,false" {
		t.Fatalf("before send(): version,frame = %q", got)
	}
	if !eval[bool](p, `window.__panelAfterSend`) {
		t.Error("send() opened the panel")
	}
	if eval[bool](p, `document.getElementById("stepwise-panel").hidden`) {
		t.Error("the question did not open the panel")
	}
	if got := eval[int](p, `__events.filter(e => e === "ready").length`); got != 1 {
		t.Errorf("ready %d times", got)
	}
	if got := userMessages(t, s.agent, session); len(got) != 1 || got[0] != "/question" {
		t.Fatalf("the agent received %q, want the one message sent before the app loaded", got)
	}
	// It stays once: a later command reaches the agent after anything sent
	// before it, and the run it stops ends.
	eval[bool](p, `Stepwise.stop(), true`)
	p.waitJS(`__events.slice(__events.indexOf("question")).some(e => e === "status:stopped" || e === "status:idle")`, 30*time.Second)
	if got := userMessages(t, s.agent, session); len(got) != 1 {
		t.Fatalf("the agent received %q", got)
	}
}
