//go:build browser

package browsertest

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The deployments of docs/deploy.md, each with the real binary in a child
// process configured as an operator would: behind a reverse proxy under a
// path, as static files on one origin with the API on another, and as two
// replicas behind a round-robin proxy in front of a backend.

// binServer is the stepwise binary serving in a child process.
type binServer struct {
	URL  string // http://127.0.0.1:port
	cmd  *exec.Cmd
	done chan struct{}
}

var binServingOn = regexp.MustCompile(`serving on (http://[^\s"/]+)`)

// startBin starts bin with these variables added to its environment and
// these flags, and waits until it listens.
func startBin(t *testing.T, bin string, env []string, args ...string) *binServer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &binServer{cmd: cmd, done: make(chan struct{})}
	listening := make(chan string, 1)
	var mu sync.Mutex
	var lines []string
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			if m := binServingOn.FindStringSubmatch(sc.Text()); m != nil {
				listening <- m[1]
			}
		}
		cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.kill()
		if t.Failed() {
			mu.Lock()
			for _, l := range lines {
				t.Log("server:", l)
			}
			mu.Unlock()
		}
	})
	select {
	case s.URL = <-listening:
	case <-s.done:
		t.Fatalf("the server exited at start-up: %s", strings.Join(lines, "\n"))
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not start")
	}
	return s
}

func (s *binServer) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

func webDir(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "../../web")
}

// keepHost forwards to target keeping the request's path and Host, as a
// reverse proxy in front of Stepwise must (the Origin checks compare the
// page's origin with the Host).
func keepHost(target string) *httputil.ReverseProxy {
	u, _ := url.Parse(target)
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded()
		},
		FlushInterval: -1,
	}
}

// cspViolations records the page's CSP violations in window.__csp.
const cspViolations = `window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`

// groupCount counts the conversation's tool groups.
const groupCount = `document.querySelectorAll('[data-kind="group"]').length`

// Served at /chat/ behind a reverse proxy that keeps the prefix, with its
// own site at /: the app, its worker (scoped to /chat/), the API and the
// embed loader all stay below /chat/; a turn runs, and F5 in the middle
// of it resumes.
func TestBasePathBehindAReverseProxy(t *testing.T) {
	bin := buildServer(t)
	var mu sync.Mutex
	var outside []string
	var app http.Handler
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/chat/") || r.URL.Path == "/chat":
			app.ServeHTTP(w, r)
		case r.URL.Path == "/":
			// The site's own page embeds the app.
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The site</title></head>
<body><h1>The site</h1><script src="/chat/web/embed.js" data-lang="en" data-load="eager" async></script></body></html>`)
		default:
			mu.Lock()
			outside = append(outside, r.URL.Path)
			mu.Unlock()
			http.NotFound(w, r)
		}
	}))
	defer proxy.Close()
	s := startBin(t, bin, []string{"STEPWISE_BASE_PATH=/chat/"},
		"-addr", "127.0.0.1:0", "-web", webDir(t), "-data", filepath.Join(t.TempDir(), "stepwise.db"))
	app = keepHost(s.URL)

	p := newPage(t)
	p.openAt(proxy.URL, "/chat/?session=under-a-path&lang=en")
	p.waitConnected()
	p.send("/long")
	p.waitJS(groupCount+` >= 2 && `+agentStatus+` === "running"`, 30*time.Second)
	p.waitJS(`navigator.serviceWorker.getRegistration().then(r => r && r.active && r.scope)`, 30*time.Second)
	if scope := eval[string](p, `navigator.serviceWorker.getRegistration().then(r => r.scope)`); scope != proxy.URL+"/chat/" {
		t.Errorf("the worker's scope is %q, want %s/chat/", scope, proxy.URL)
	}
	before := eval[int](p, groupCount)
	p.reload()
	p.waitConnected()
	p.waitJS(groupCount+` > `+fmt.Sprint(before)+` && `+agentStatus+` === "running"`, 60*time.Second)
	if got := eval[string](p, `location.pathname + location.search`); got != "/chat/?session=under-a-path&lang=en" {
		t.Errorf("after F5 the page is at %q", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	p.waitJS(agentStatus+` === "stopped"`, 20*time.Second)
	p.screens("deploy-base-path")
	links := eval[[]string](p, `[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')).filter(h => h.startsWith('/') && !h.startsWith('/chat/'))`)
	if len(links) > 0 {
		t.Errorf("links outside /chat/: %q", links)
	}

	// The embed loader, loaded from /chat/web/embed.js, points at /chat/.
	host := newPage(t)
	host.do(chromedp.Navigate(proxy.URL + "/"))
	frame := `document.querySelector('#stepwise-panel iframe')`
	host.waitJS(frame+` && `+frame+`.contentDocument && `+frame+`.contentDocument.documentElement.dataset.stepwise === "ready"`, 60*time.Second)
	if src := eval[string](host, frame+`.src`); !strings.HasPrefix(src, proxy.URL+"/chat/?") {
		t.Errorf("the embed's frame is at %q", src)
	}
	if logo := eval[string](host, `document.querySelector('#stepwise-launcher img').src`); logo != proxy.URL+"/chat/web/logo.svg" {
		t.Errorf("the launcher's logo is %q", logo)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, path := range outside {
		if path != "/favicon.ico" {
			t.Errorf("the app asked for %s, outside /chat/", path)
		}
	}
}

// hostHeaders reads the _headers file of an export: path pattern, then
// indented "Name: value" lines.
func hostHeaders(t *testing.T, dir string) map[string]http.Header {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]http.Header{}
	var current http.Header
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			current = http.Header{}
			rules[line] = current
		default:
			k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
			current.Add(k, strings.TrimSpace(v))
		}
	}
	return rules
}

// The static build (stepwise export) served by a plain file server, with
// the headers its _headers file says, talks to the demo agent's API on
// another origin: a turn runs without a CSP violation, and F5 brings the
// conversation back.
func TestStaticExportOnAnotherOrigin(t *testing.T) {
	bin := buildServer(t)
	dir := filepath.Join(t.TempDir(), "site")
	apiAddr := freeAddr(t)
	_, port, _ := strings.Cut(apiAddr, ":")
	apiOrigin := "http://localhost:" + port // another host than the files' 127.0.0.1: another site
	out, err := exec.Command(bin, "export", "-web", webDir(t), "-api-url", apiOrigin, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	rules := hostHeaders(t, dir)
	files := http.FileServer(http.Dir(dir))
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for pattern, h := range rules {
			if pattern == r.URL.Path || (strings.HasSuffix(pattern, "*") && strings.HasPrefix(r.URL.Path, strings.TrimSuffix(pattern, "*"))) {
				for k, v := range h {
					w.Header()[k] = v
				}
			}
		}
		files.ServeHTTP(w, r)
	}))
	defer static.Close()
	startBin(t, bin, nil, "-addr", apiAddr, "-web", webDir(t), "-data", filepath.Join(t.TempDir(), "stepwise.db"),
		"-allowed-origins", static.URL, "-sandbox-addr", "off") // apiAddr's port + 1 may be taken

	p := newPage(t)
	p.addInitScript(cspViolations)
	p.openAt(static.URL, "/?session=static-build&lang=en")
	p.waitConnected()
	p.send("/parallel")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-kind="group"]') && `+
		`document.querySelectorAll('[data-kind="user"]').length === 1`, 60*time.Second)
	if v := eval[[]string](p, `window.__csp`); len(v) > 0 {
		t.Errorf("CSP violations: %q", v)
	}
	p.reload()
	p.waitConnected()
	p.waitJS(`document.querySelector('[data-kind="group"]') && [...document.querySelectorAll('[data-kind="user"]')].some(e => e.textContent === "/parallel")`, 30*time.Second)
	if v := eval[[]string](p, `window.__csp`); len(v) > 0 {
		t.Errorf("CSP violations after F5: %q", v)
	}
	p.screens("deploy-static-export")
	if csp := eval[string](p, `fetch("/app.js").then(r => r.headers.get("Content-Security-Policy"))`); !strings.Contains(csp, "connect-src 'self' "+apiOrigin+" ws://localhost:"+port) {
		t.Errorf("the files' CSP: %q", csp)
	}
}

// roundRobin sends each request to the next live replica in turn, keeping
// the Host, and records which replica served what.
type roundRobin struct {
	mu       sync.Mutex
	replicas []string // live ones
	next     int
	served   []servedBy
}

type servedBy struct{ replica, path string }

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rr.mu.Lock()
	target := rr.replicas[rr.next%len(rr.replicas)]
	rr.next++
	rr.served = append(rr.served, servedBy{target, r.URL.Path})
	rr.mu.Unlock()
	keepHost(target).ServeHTTP(w, r)
}

func (rr *roundRobin) remove(replica string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for i, r := range rr.replicas {
		if r == replica {
			rr.replicas = append(rr.replicas[:i], rr.replicas[i+1:]...)
		}
	}
}

// servedSince returns the replicas that served path from the i-th
// request on.
func (rr *roundRobin) servedSince(i int, path string) (replicas []string, n int) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, s := range rr.served[i:] {
		if strings.HasSuffix(s.path, path) {
			replicas = append(replicas, s.replica)
		}
	}
	return replicas, len(rr.served)
}

// In front of a backend the server keeps no state: two replicas behind a
// round-robin proxy serve one conversation between them, and when the one
// holding the page's stream goes away, F5 lands on the other and resumes
// the running turn. The replicas are configured by environment variables
// alone, the backend's token among them; the backend gets it on every
// request, the browser never.
func TestReplicasBehindARoundRobinProxy(t *testing.T) {
	const token = "replica-token-93c1"
	bin := buildServer(t)
	b := newFakeBackend("idle")
	var authMu sync.Mutex
	var auth []string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authMu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		authMu.Unlock()
		b.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		b.restart("idle") // ends the streams, so that Close does not wait for them
		backend.Close()
	})
	b.onCommand = func(f map[string]any) (bool, string) {
		if f["type"] == "user_message" {
			b.setStatus("running")
			b.emit(`{"type":"user_message","text":"hello"}`,
				`{"type":"message_start","message":{"id":"m1","role":"assistant","message_type":"chat"}}`,
				`{"type":"group_start","index":0}`,
				`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"get_price","input":{"symbol":"VNM"},"tool_content_message":"Price of VNM"}}`)
		}
		return true, ""
	}
	env := []string{"STEPWISE_BACKEND=" + backend.URL, "STEPWISE_BACKEND_HEADER=Authorization: Bearer " + token,
		"STEPWISE_ADDR=127.0.0.1:0", "STEPWISE_WEB=" + webDir(t)}
	a, c := startBin(t, bin, env), startBin(t, bin, env)
	rr := &roundRobin{replicas: []string{a.URL, c.URL}}
	var leaked atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &headerCheck{ResponseWriter: w, token: token, leaked: &leaked}
		rr.ServeHTTP(rw, r)
	}))
	defer proxy.Close()

	p := newPage(t)
	p.openAt(proxy.URL, "/?session=replicated&lang=en")
	p.waitConnected()
	p.send("hello")
	tool := `document.querySelector('[data-kind="tool"][data-tool-id="t1"]')`
	p.waitJS(tool+` && `+tool+`.dataset.status === "active" && `+agentStatus+` === "running"`, 20*time.Second)
	first, mark := rr.servedSince(0, "")
	if !slices.Contains(first, a.URL) || !slices.Contains(first, c.URL) {
		t.Fatalf("round robin: both replicas should have served the first visit: %q", first)
	}
	streams, _ := rr.servedSince(0, "/ws")
	holder := streams[len(streams)-1]
	other := a.URL
	if holder == a.URL {
		other = c.URL
	}

	// The replica holding the stream goes (a deploy, a crash); F5 lands on
	// the other one and the turn resumes there.
	rr.remove(holder)
	if holder == a.URL {
		a.kill()
	} else {
		c.kill()
	}
	p.reload()
	p.waitConnected()
	p.waitJS(tool+` && `+tool+`.dataset.status === "active" && `+agentStatus+` === "running"`, 20*time.Second)
	b.setStatus("idle")
	b.emit(`{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","name":"get_price","content":"VNM 61,200","status":"success"}}`,
		`{"type":"content_block_stop","index":2}`,
		`{"type":"group_end","index":0,"summary":"Looked up VNM"}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"VNM trades at 61,200."}}`,
		`{"type":"content_block_stop","index":3}`,
		`{"type":"message_stop"}`)
	p.waitJS(`[...document.querySelectorAll('[data-kind="text"]')].some(e => e.textContent.includes("VNM trades at 61,200."))`, 20*time.Second)
	p.screens("deploy-replicas")
	after, _ := rr.servedSince(mark, "/ws")
	if len(after) == 0 || after[len(after)-1] != other {
		t.Errorf("after F5 the stream went to %q, want the other replica %s", after, other)
	}

	for _, src := range []string{`document.documentElement.outerHTML`, `fetch("/app.js").then(r => r.text())`,
		`fetch("/app-worker.js").then(r => r.text())`, `fetch("/api/sessions/replicated/history").then(r => r.text())`} {
		if strings.Contains(eval[string](p, src), token) {
			t.Errorf("the browser got the token: %s", src)
		}
	}
	if v := leaked.Load(); v != nil {
		t.Errorf("a response header held the token: %v", v)
	}
	authMu.Lock()
	defer authMu.Unlock()
	if len(auth) == 0 {
		t.Fatal("the backend got no request")
	}
	for _, got := range auth {
		if got != "Bearer "+token {
			t.Fatalf("the backend got Authorization %q", got)
		}
	}
}

// headerCheck notes a response header that holds the token.
type headerCheck struct {
	http.ResponseWriter
	token   string
	leaked  *atomic.Value
	checked bool
}

func (h *headerCheck) WriteHeader(code int) {
	if !h.checked {
		h.checked = true
		for k, v := range h.Header() {
			if strings.Contains(strings.Join(v, ","), h.token) {
				h.leaked.Store(k)
			}
		}
	}
	h.ResponseWriter.WriteHeader(code)
}

func (h *headerCheck) Write(b []byte) (int, error) {
	if !h.checked {
		h.WriteHeader(http.StatusOK)
	}
	return h.ResponseWriter.Write(b)
}

func (h *headerCheck) Unwrap() http.ResponseWriter { return h.ResponseWriter }
