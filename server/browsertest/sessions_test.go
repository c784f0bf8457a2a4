//go:build browser

package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"stepwise/server/demo"
)

// startConversation sends msg in a new conversation and waits until it is
// listed under its title and its run has ended; it returns the session.
func startConversation(p *page, msg string) string {
	p.t.Helper()
	p.open("/?lang=en")
	p.waitConnected()
	id := p.sessionOf()
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), msg+"\r"))
	link := linkJS(id)
	p.waitJS(link+` && `+link+`.textContent === "`+msg+`"`, 10*time.Second)
	p.waitJS(`document.querySelector('[data-testid="conversation"]').dataset.agentStatus !== "running"`, 30*time.Second)
	return id
}

// TestSessionsListedByTheServer: the demo agent lists a browser's own
// conversations (GET /api/sessions, by its owner cookie). Cleared from the
// browser's storage, they come back with their titles; a conversation
// deleted in the sidebar does not; another browser sees none of them.
func TestSessionsListedByTheServer(t *testing.T) {
	p := newPage(t)
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	first := startConversation(p, "Plan my trip to Hue "+stamp)
	second := startConversation(p, "Compare two phones "+stamp)
	third := startConversation(p, "Delete me "+stamp)

	// The owner cookie: out of scripts' reach, never sent by other sites.
	cookies, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{serverURL + "/api/sessions"}})
	if err != nil {
		t.Fatal(err)
	}
	var owner *network.Cookie
	for _, c := range cookies.Cookies {
		if c.Name == demo.OwnerCookie {
			owner = c
		}
	}
	if owner == nil {
		t.Fatalf("no %s cookie after the WebSocket upgrades: %+v", demo.OwnerCookie, cookies.Cookies)
	}
	if !owner.HTTPOnly || owner.SameSite != network.CookieSameSiteStrict || owner.Path != "/" || owner.Session {
		t.Fatalf("owner cookie: httpOnly %v, sameSite %q, path %q, session %v; want HttpOnly, Strict, /, persistent",
			owner.HTTPOnly, owner.SameSite, owner.Path, owner.Session)
	}
	if eval[bool](p, `document.cookie.includes("`+demo.OwnerCookie+`")`) {
		t.Fatal("a script can read the owner cookie")
	}

	// Delete the third (not the open one) from the sidebar.
	del := `[data-testid="conversations"] li:has([data-session="` + third + `"]) [data-testid="delete-conversation"]`
	p.open("/?lang=en&session=" + first)
	p.waitJS(linkJS(third)+` !== null`, 10*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('` + del + `').click()`))
	p.waitJS(`document.querySelector('[data-testid="confirm-delete"]')`, 5*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="confirm-delete"]').click()`))
	p.waitJS(linkJS(third)+` === null`, 5*time.Second)
	// The server has taken it off this browser's list once it answers.
	p.waitJS(`fetch("/api/sessions").then(r => r.json()).then(l => !l.sessions.some(s => s.id === "`+third+`"))`, 10*time.Second)

	// The browser forgets everything; F5: the server's list comes back,
	// newest first, titled by the first messages, the open one marked.
	p.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
	p.reload()
	for id, title := range map[string]string{first: "Plan my trip to Hue " + stamp, second: "Compare two phones " + stamp} {
		link := linkJS(id)
		p.waitJS(link+` && `+link+`.textContent === "`+title+`"`, 10*time.Second)
	}
	p.waitJS(linkJS(first)+`.getAttribute("aria-current") === "page"`, 5*time.Second)
	order := eval[[]string](p, `[...document.querySelectorAll('[data-testid="conversations"] [data-testid="conversation-link"]')].map(a => a.dataset.session)`)
	if strings.Join(order, ",") != second+","+first {
		t.Fatalf("listed %v, want [%s %s] (newest first, the deleted one absent)", order, second, first)
	}
	// ... and is kept by the browser again.
	p.waitJS(`(localStorage.getItem("stepwise.conversations") || "").includes("`+second+`")`, 5*time.Second)

	// Another browser (its own profile, no cookie of the first) sees none
	// of them, in its list or from the endpoint, once its own is there.
	q := newPage(t)
	mine := startConversation(q, "Another visitor "+stamp)
	q.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
	q.reload()
	q.waitJS(linkJS(mine)+` && `+linkJS(mine)+`.textContent === "Another visitor `+stamp+`"`, 10*time.Second)
	for _, id := range []string{first, second, third} {
		if eval[bool](q, linkJS(id)+` !== null`) {
			t.Fatalf("another browser lists %s", id)
		}
	}
	if got := eval[string](q, `fetch("/api/sessions").then(r => r.json()).then(l => l.sessions.map(s => s.id).join(","))`); got != mine {
		t.Fatalf("another browser's GET /api/sessions = %q, want only %q", got, mine)
	}
	// A shared link still opens: the id is the capability, the list is not.
	q.open("/?lang=en&session=" + first)
	q.waitJS(`[...document.querySelectorAll('[data-kind="user"]')].some(e => e.textContent.includes("Plan my trip to Hue `+stamp+`"))`, 10*time.Second)
	if got := eval[string](q, `fetch("/api/sessions").then(r => r.json()).then(l => l.sessions.map(s => s.id).join(","))`); got != mine {
		t.Fatalf("opening a shared link put it on the other browser's server list: %q", got)
	}
}

// TestOwnerCookieComesWithThePage: a browser's first page gives it its
// owner cookie, before the app connects, so that two tabs opened at once
// connect with the same one and each lists the other's conversations.
// Over SSE nothing else would set it before a message is sent (only the
// WebSocket upgrade and the commands POST do); then, over WebSocket, the
// connection keeps that cookie and the conversation is listed for it.
func TestOwnerCookieComesWithThePage(t *testing.T) {
	p := newPage(t)
	owner := func() string {
		cookies, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{serverURL + "/api/sessions"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cookies.Cookies {
			if c.Name == demo.OwnerCookie {
				return c.Value
			}
		}
		return ""
	}
	p.open("/?lang=en&transport=sse")
	p.waitConnected()
	first := owner()
	if first == "" {
		t.Fatalf("no %s cookie after the first page, connected over SSE", demo.OwnerCookie)
	}

	id := startConversation(p, "Listed for the page's cookie")
	if got := owner(); got != first {
		t.Fatalf("the connection replaced the page's cookie: %q, then %q", first, got)
	}
	if got := eval[string](p, `fetch("/api/sessions").then(r => r.json()).then(l => l.sessions.map(s => s.id).join(","))`); got != id {
		t.Fatalf("GET /api/sessions = %q, want %q", got, id)
	}
}

// TestOwnerCookieFromBeforeKept: a browser that kept the owner cookie from
// when its path was /api gets a new one for / with its first page, sends
// both to the API (the older, longer path first) and keeps the old one:
// what it creates is listed for it, and / then holds it too.
func TestOwnerCookieFromBeforeKept(t *testing.T) {
	p := newPage(t)
	const old = "0123456789abcdef0123456789abcdef"
	httpOnly := true
	_, err := chromedp.Call(p.ctx, network.SetCookie, network.SetCookieParams{
		Name: demo.OwnerCookie, Value: old, URL: serverURL + "/api", Path: "/api",
		HTTPOnly: &httpOnly, SameSite: network.CookieSameSiteStrict,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := startConversation(p, "Kept from before")
	cookies, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{serverURL + "/api/sessions"}})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for _, c := range cookies.Cookies {
		if c.Name == demo.OwnerCookie {
			paths[c.Path] = c.Value
		}
	}
	if paths["/api"] != old || paths["/"] != old {
		t.Fatalf("owner cookies by path %v, want %s for /api and /", paths, old)
	}
	if got := eval[string](p, `fetch("/api/sessions").then(r => r.json()).then(l => l.sessions.map(s => s.id).join(","))`); got != id {
		t.Fatalf("GET /api/sessions = %q, want %q", got, id)
	}
}
