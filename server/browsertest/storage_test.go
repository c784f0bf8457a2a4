//go:build browser

package browsertest

// What survives a reload, and what the page does when the browser's
// storage fails (docs/interaction.md, "What survives a reload").

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/server/agentproxy"
	"stepwise/server/demo"
	"stepwise/server/site"
)

// newPageRefusingSiteData is newPage in a browser of its own whose
// profile blocks site data for every site (Chromium's content setting
// "cookies: block", what a person sets in Settings, and what Incognito
// does for a third-party frame): reading localStorage, sessionStorage or
// indexedDB throws SecurityError, caches and the service worker refuse.
func newPageRefusingSiteData(t *testing.T) *page {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o755); err != nil {
		t.Fatal(err)
	}
	prefs := `{"profile":{"default_content_setting_values":{"cookies":2}}}`
	if err := os.WriteFile(filepath.Join(dir, "Default", "Preferences"), []byte(prefs), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(allocOpts[:len(allocOpts):len(allocOpts)], chromedp.UserDataDir(dir))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	return newPageIn(t, alloc, 120*time.Second)
}

// TestStartsWhenTheBrowserRefusesSiteData: with site data blocked the app
// starts, sends what was typed and shows the answer; the sidebar keeps the
// list in memory and says so. The same in the AG-UI mode (IndexedDB) and
// framed by the embed loader.
func TestStartsWhenTheBrowserRefusesSiteData(t *testing.T) {
	p := newPageRefusingSiteData(t)
	p.do(chromedp.Navigate(serverURL + "/?lang=en"))
	// The setting is in force: this browser refuses the page's storage.
	p.waitJS(`(() => { try { localStorage; return false } catch (e) { return e.name === "SecurityError" } })()`, 10*time.Second)
	p.waitJS(`document.documentElement.dataset.stepwise === "ready" && typeof window.stepwise === "object"`, 30*time.Second)
	p.waitConnected()
	p.send("/parallel")
	p.waitJS(countKind("user")+` === 1 && `+agentStatus+` === "idle" && document.querySelector('[data-kind="group"]')`, 30*time.Second)
	session := p.sessionOf()
	p.waitJS(`document.querySelector('[data-testid="storage-refused"]')`, 10*time.Second)
	p.waitJS(linkJS(session)+` && `+linkJS(session)+`.textContent === "/parallel"`, 10*time.Second)

	// The AG-UI mode keeps its conversation in IndexedDB: refused, it
	// says so and the agent still answers.
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p.do(chromedp.Navigate(base + "/?session=agui-refused&lang=en"))
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 30*time.Second)
	p.waitConnected()
	p.waitJS(`document.querySelector('[data-testid="notice"]') && document.querySelector('[data-testid="notice"]').textContent.includes("does not let the page save conversations")`, 10*time.Second)
	p.send("What is the weather in Hanoi?")
	p.waitJS(lastText+` === "It is 31 degrees and sunny in Hanoi."`, 60*time.Second)

	// Framed by the embed loader.
	p.do(chromedp.Navigate(serverURL + "/web/embed-example.html"))
	p.waitJS(`window.Stepwise && document.getElementById('stepwise-launcher')`, 10*time.Second)
	p.do(chromedp.Click(chromedp.ID("ask")))
	frame := `document.querySelector('#stepwise-panel iframe').contentDocument`
	p.waitJS(frame+` && `+frame+`.documentElement.dataset.stepwise === "ready"`, 30*time.Second)
	p.waitJS(frame+`.querySelector('[data-testid="conversation"]').dataset.agentStatus === "idle" && `+
		frame+`.querySelectorAll('[data-kind="user"]').length === 1 && `+frame+`.querySelector('[data-kind="group"]')`, 30*time.Second)
}

// sendLong sends a message too long to type key by key: it is put in the
// composer as a paste would, and Enter sends it.
func (p *page) sendLong(text string) {
	p.t.Helper()
	eval[bool](p, `(b => { b.value = `+strconv.Quote(text)+`; b.dispatchEvent(new Event("input", {bubbles: true})); return true })(document.querySelector('[data-testid="composer"]'))`)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), "\r"))
}

// limitIndexedDBWrites makes the documents the tab loads from now on
// refuse, as a full quota does, an IndexedDB transaction that writes more
// than n bytes of conversations: the put succeeds, then the transaction
// aborts with a QuotaExceededError (Chromium checks a transaction's bytes
// against the room left when it commits). Chromium's own quota cannot do
// it here: with Storage.overrideQuotaForOrigin active (getUsageAndQuota
// reports the lowered quota, the origin already over it), headless
// Chromium 156 refuses a Cache Storage put but commits a 3 MB IndexedDB
// put.
func (p *page) limitIndexedDBWrites(n int) {
	p.t.Helper()
	p.addInitScript(`(() => {
		const limit = ` + strconv.Itoa(n) + `, written = new WeakMap(), put = IDBObjectStore.prototype.put;
		IDBObjectStore.prototype.put = function (value, key) {
			const req = put.apply(this, arguments);
			const tx = this.transaction, json = value && value.json;
			if (this.name !== "conversations" || !json) return req;
			const bytes = (written.get(tx) || 0) + (typeof json === "string" ? 2 * json.length : json.byteLength);
			written.set(tx, bytes);
			if (bytes > limit) req.addEventListener("success", () => {
				Object.defineProperty(tx, "error", {value: new DOMException("The quota has been exceeded.", "QuotaExceededError")});
				tx.abort();
			});
			return req;
		};
	})()`)
}

// storedConversation is the JSON the page saved in IndexedDB for a
// conversation ("" when none).
func storedConversation(id string) string {
	return `new Promise(r => { const q = indexedDB.open("stepwise"); q.onerror = () => r(""); q.onsuccess = () => {
		const db = q.result; if (!db.objectStoreNames.contains("conversations")) { db.close(); return r("") }
		const g = db.transaction("conversations").objectStore("conversations").get(` + strconv.Quote(id) + `);
		g.onsuccess = () => { const v = g.result; db.close(); r(!v ? "" : typeof v.json === "string" ? v.json : new TextDecoder().decode(v.json)) } } })`
}

// digits returns n random digits: text that no storage compresses much,
// and in which the test backends find no keyword.
func digits(rnd *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rnd.IntN(10))
	}
	return string(b)
}

// TestQuotaFullKeepsTheNewestTurns (issue 38.8): in the AG-UI and AI SDK
// modes, a first turn of 100 KB is saved; then the storage has room for
// 60 KB more (limitIndexedDBWrites): the conversation with the next turn
// no longer fits, the next turn alone does. The page says so, everything
// stays on screen, and a reload brings back the newest turns (not the old
// save, silently), saying that older ones were not kept.
func TestQuotaFullKeepsTheNewestTurns(t *testing.T) {
	for _, mode := range []struct {
		protocol agentproxy.Protocol
		script   string
		path     string
	}{
		{agentproxy.AGUI, "agui-server.mjs", "/agent"},
		{agentproxy.AISDK, "aisdk-server.mjs", "/api/chat"},
	} {
		t.Run(string(mode.protocol), func(t *testing.T) {
			backend := startAgentServer(t, mode.script)
			base := agentSite(t, mode.protocol, backend+mode.path)
			p := newPage(t)
			p.openAt(base, "/?session=quota-"+string(mode.protocol)+"&lang=en")
			p.waitConnected()
			rnd := rand.New(rand.NewPCG(1, 2))
			p.sendLong("Turn 1: " + digits(rnd, 100<<10))
			p.waitJS(countKind("user")+` === 1 && `+agentStatus+` === "idle"`, 60*time.Second)
			session := "quota-" + string(mode.protocol)
			p.waitJS(storedConversation(session)+`.then(j => j.includes("31 degrees"))`, 10*time.Second)
			// A reload: no save of the first turn is still under way when
			// the quota is lowered.
			p.reload()
			p.waitJS(lastText+`.includes("31 degrees")`, 20*time.Second)
			p.limitIndexedDBWrites(60 << 10)
			p.reload() // the page loads under the lowered quota
			p.waitJS(lastText+`.includes("31 degrees")`, 20*time.Second)

			p.send("Turn 2: and tomorrow?")
			p.waitJS(countKind("user")+` === 2 && `+agentStatus+` === "idle"`, 60*time.Second)
			p.waitJS(noticeText+`.includes("storage for this site is full")`, 20*time.Second, noticeText, storedConversation(session)+".then(j => j.length)")
			p.screens("storage-full-" + string(mode.protocol))
			p.send("Turn 3: and the day after?")
			p.waitJS(countKind("user")+` === 3 && `+agentStatus+` === "idle"`, 60*time.Second)
			if !strings.HasPrefix(eval[string](p, `document.querySelector('[data-kind="user"]').textContent`), "Turn 1: ") {
				t.Fatal("the first turn left the screen")
			}

			p.reload()
			p.waitJS(noticeText+`.includes("only the newest messages of this conversation were kept")`, 20*time.Second, noticeText)
			users := eval[[]string](p, `[...document.querySelectorAll('[data-kind="user"]')].map(e => e.textContent)`)
			if strings.Join(users, "|") != "Turn 2: and tomorrow?|Turn 3: and the day after?" {
				t.Fatalf("after the reload the user messages are %.80q", users)
			}
			if first := eval[string](p, `JSON.parse(window.stepwise.view()).items[0].kind`); first != "user" {
				t.Fatalf("the conversation restarts with a %s", first)
			}
		})
	}
}

// TestAgentErrorsSurviveAReload (issue 38.13): in the AG-UI and AI SDK
// modes a run's error (RUN_ERROR, the AI SDK's error chunk) and the
// notice of a request the backend refused through the proxy show after F5
// where they showed.
func TestAgentErrorsSurviveAReload(t *testing.T) {
	for _, mode := range []struct {
		protocol agentproxy.Protocol
		script   string
		path     string
	}{
		{agentproxy.AGUI, "agui-server.mjs", "/agent"},
		{agentproxy.AISDK, "aisdk-server.mjs", "/api/chat"},
	} {
		t.Run(string(mode.protocol), func(t *testing.T) {
			backend := startAgentServer(t, mode.script)
			p := newPage(t)
			base := agentSite(t, mode.protocol, backend+mode.path)
			p.openAt(base, "/?session=errors-"+string(mode.protocol)+"&lang=en")
			p.waitConnected()
			p.send("Please fail")
			// The AI SDK's route masks the error's words (onError's
			// default): the page shows what it was sent.
			errorShown := `document.querySelector('[data-kind="error"]') !== null`
			p.waitJS(errorShown, 60*time.Second)
			p.waitJS(agentStatus+` !== "running"`, 10*time.Second)
			shown := eval[string](p, `document.querySelector('[data-kind="error"]').textContent`)
			p.waitJS(storedConversation("errors-"+string(mode.protocol))+`.then(j => j.includes("notes"))`, 10*time.Second)
			p.reload()
			p.waitJS(countKind("user")+` === 1`, 20*time.Second)
			p.waitJS(errorShown, 5*time.Second)
			if got := eval[string](p, `document.querySelector('[data-kind="error"]').textContent`); got != shown {
				t.Fatalf("after the reload the error says %q, before %q", got, shown)
			}

			// The proxy passes on the backend's refusal (a route that is
			// not there): its notice too.
			refused := agentSite(t, mode.protocol, backend+"/not-there")
			p.openAt(refused, "/?session=refused-"+string(mode.protocol)+"&lang=en")
			p.waitConnected()
			p.send("Hello")
			noticeShown := `document.querySelector('[data-kind="notice"]') !== null`
			p.waitJS(noticeShown, 30*time.Second)
			notice := eval[string](p, `document.querySelector('[data-kind="notice"]').textContent`)
			p.waitJS(storedConversation("refused-"+string(mode.protocol))+`.then(j => j.includes("notes"))`, 10*time.Second)
			p.reload()
			p.waitJS(countKind("user")+` === 1`, 20*time.Second)
			p.waitJS(noticeShown, 5*time.Second)
			if got := eval[string](p, `document.querySelector('[data-kind="notice"]').textContent`); got != notice {
				t.Fatalf("after the reload the notice says %q, before %q", got, notice)
			}
		})
	}
}

// restartableServer serves handler on an address of its own that a new
// server can take again once it is closed (the server going down and
// coming back).
type restartableServer struct {
	t       *testing.T
	handler http.Handler
	addr    string
	srv     *httptest.Server
}

func newRestartableServer(t *testing.T, handler http.Handler) *restartableServer {
	t.Helper()
	r := &restartableServer{t: t, handler: handler}
	r.start("127.0.0.1:0")
	r.addr = r.srv.Listener.Addr().String()
	t.Cleanup(func() { r.srv.Close() })
	return r
}

func (r *restartableServer) start(addr string) {
	r.t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: r.handler}}
	r.srv.Start()
}

func (r *restartableServer) URL() string { return "http://" + r.addr }
func (r *restartableServer) down()       { r.srv.Close() }
func (r *restartableServer) up()         { r.start(r.addr) }

// lastShownKept is true once the page kept what the conversation shows
// for offline reading, the text included.
func lastShownKept(id, text string) string {
	return `new Promise(r => { const q = indexedDB.open("stepwise-shown"); q.onerror = () => r(false); q.onsuccess = () => {
		const db = q.result; if (!db.objectStoreNames.contains("shown")) { db.close(); return r(false) }
		const g = db.transaction("shown").objectStore("shown").get(` + strconv.Quote(id) + `);
		g.onsuccess = () => { const v = g.result; db.close(); r(!!v && new TextDecoder().decode(v.json).includes(` + strconv.Quote(text) + `)) } } })`
}

// TestOfflineReloadShowsWhatWasLastLoaded (issue 37.3): a reload while
// the server is down shows the conversation as the page last showed it,
// marked so, under the offline banner; when the server is back the live
// history replaces it and the mark goes. A conversation this browser kept
// nothing of says so instead of inviting to start one.
func TestOfflineReloadShowsWhatWasLastLoaded(t *testing.T) {
	scenarios, err := demo.LoadScenarios("")
	if err != nil {
		t.Fatal(err)
	}
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: openAgent(t, scenarios)}})
	if err != nil {
		t.Fatal(err)
	}
	srv := newRestartableServer(t, handler)
	p := newPage(t)
	p.openAt(srv.URL(), "/?session=offline-kept&lang=en")
	p.waitJS(`navigator.serviceWorker && navigator.serviceWorker.controller`, 20*time.Second)
	p.waitJS(`Promise.all([caches.match("/"), caches.match("/web/app.wasm")]).then(rs => rs.every(Boolean))`, 10*time.Second)
	p.waitConnected()
	p.send("/parallel")
	p.waitJS(countKind("user")+` === 1 && `+agentStatus+` === "idle" && document.querySelector('[data-kind="group"]')`, 30*time.Second)
	before := itemKinds(p.view())
	p.waitJS(lastShownKept("offline-kept", "end_turn"), 10*time.Second) // the turn, to its end

	srv.down()
	p.reload()
	p.waitJS(`document.querySelector('[data-testid="offline"]') && document.querySelector('[data-testid="last-shown"]')`, 20*time.Second)
	if !strings.Contains(eval[string](p, `document.querySelector('[data-testid="last-shown"]').textContent`), "as last loaded") {
		t.Fatal("the conversation is not marked as what was last loaded")
	}
	p.waitJS(countKind("user")+` === 1 && document.querySelector('[data-kind="user"]').textContent === "/parallel"`, 10*time.Second)
	if after := itemKinds(p.view()); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("offline the page shows %v, it showed %v", after, before)
	}
	if eval[bool](p, `document.body.innerText.includes("Start a conversation")`) {
		t.Fatal("the page invites to start a conversation over the one it shows")
	}
	p.screens("offline-reload")

	// A conversation this browser kept nothing of.
	p.do(chromedp.Navigate(srv.URL() + "/?session=never-seen&lang=en"))
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitJS(`(e => e && e.textContent.includes("cannot be shown offline"))(document.querySelector('[data-testid="last-shown"]'))`, 20*time.Second)

	// Back on the kept one, the server comes back: the live history
	// replaces what was kept.
	p.do(chromedp.Navigate(srv.URL() + "/?session=offline-kept&lang=en"))
	p.waitJS(`document.querySelector('[data-testid="last-shown"]')`, 20*time.Second)
	srv.up()
	p.waitConnected()
	p.waitJS(`!document.querySelector('[data-testid="last-shown"]') && `+countKind("user")+` === 1`, 30*time.Second)
	if after := itemKinds(p.view()); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("online again the page shows %v, it showed %v", after, before)
	}
}

// TestDraftsSurviveAReload (issue 37, minor): F5 keeps what is typed and
// not sent, per conversation: the composer's text, a question's
// selection, an approval's edited arguments.
func TestDraftsSurviveAReload(t *testing.T) {
	p := newPage(t)
	p.open("/?session=drafts-question&lang=en")
	p.waitConnected()
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), "half a thought"))
	p.reload()
	p.waitJS(`document.querySelector('[data-testid="composer"]').value === "half a thought"`, 10*time.Second)
	eval[bool](p, `(b => { b.value = ""; b.dispatchEvent(new Event("input", {bubbles: true})); return true })(document.querySelector('[data-testid="composer"]'))`)

	p.send("/question")
	pending := `document.querySelector('[data-kind="question"][data-state="pending"]')`
	p.waitJS(pending+` && `+pending+`.querySelectorAll('input').length > 1`, 30*time.Second)
	p.click(`[data-kind="question"][data-state="pending"] label.option:nth-of-type(2)`)
	p.waitJS(pending+`.querySelectorAll('input')[1].checked`, 5*time.Second)
	p.reload()
	p.waitJS(pending, 20*time.Second)
	p.waitJS(pending+`.querySelectorAll('input')[1].checked && !`+pending+`.querySelectorAll('input')[0].checked`, 5*time.Second)
	if v := eval[string](p, `document.querySelector('[data-testid="composer"]').value`); v != "" {
		t.Fatalf("the sent message came back to the composer: %q", v)
	}

	p.do(chromedp.Navigate(serverURL + "/?session=drafts-approval&lang=en"))
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitConnected()
	p.send("/approval")
	card := `document.querySelector('[data-kind="approval"][data-state="pending"]')`
	p.waitJS(card+` && `+card+`.querySelector('[data-decision="edit"]')`, 30*time.Second)
	p.click(`[data-kind="approval"][data-state="pending"] [data-decision="edit"]`)
	p.waitJS(card+`.querySelector('.json-editor')`, 5*time.Second)
	edited := eval[string](p, `(e => { e.value = e.value.replace(/\d+/, "7"); e.dispatchEvent(new Event("input", {bubbles: true})); return e.value })(document.querySelector('.json-editor'))`)
	p.reload()
	p.waitJS(card+` && `+card+`.querySelector('.json-editor')`, 20*time.Second)
	if got := eval[string](p, `document.querySelector('.json-editor').value`); got != edited {
		t.Fatalf("after the reload the arguments are %q, were edited to %q", got, edited)
	}
}
