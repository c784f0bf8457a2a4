//go:build browser

package browsertest

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sessionOf returns the ?session= of the page's address.
func (p *page) sessionOf() string {
	p.t.Helper()
	u, err := url.Parse(eval[string](p, `location.href`))
	if err != nil {
		p.t.Fatal(err)
	}
	return u.Query().Get("session")
}

// linkJS finds the conversations list's link of session id.
func linkJS(id string) string {
	return `document.querySelector('[data-testid="conversations"] [data-testid="conversation-link"][data-session="` + id + `"]')`
}

// TestConversationsListStartLeaveReopenRenameDelete: a new user starts a
// conversation, starts another, finds the first in the list (after F5
// too), reopens it by its link, goes back, renames it and deletes it.
func TestConversationsListStartLeaveReopenRenameDelete(t *testing.T) {
	p := newPage(t)
	start := time.Now()
	step := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }
	defer step("end")
	p.open("/?lang=en")
	p.waitConnected()
	first := p.sessionOf()
	if first == "" {
		t.Fatal("no session in the address")
	}
	msg := "Plan my trip to Hue " + strconv.FormatInt(time.Now().UnixNano(), 36)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), msg+"\r"))
	link := linkJS(first)
	p.waitJS(link+` && `+link+`.textContent === "`+msg+`" && `+link+`.getAttribute("aria-current") === "page"`, 10*time.Second)
	if tag := eval[string](p, `document.querySelector('[data-testid="conversations"]').tagName`); tag != "NAV" {
		t.Fatalf("the conversations list is a <%s>, want <nav>", tag)
	}
	p.waitJS(`document.querySelector('[data-testid="conversation"]').dataset.agentStatus !== "running"`, 30*time.Second)

	step("New conversation:")
	// New conversation: another session; the first is listed, not current.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	p.waitJS(`new URLSearchParams(location.search).get("session") !== "`+first+`" && document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	second := p.sessionOf()
	if second == "" || second == first {
		t.Fatalf("new conversation's session = %q (first %q)", second, first)
	}
	if got := eval[string](p, `new URLSearchParams(location.search).get("lang")`); got != "en" {
		t.Fatalf("the new conversation lost the page's language: lang=%q", got)
	}
	p.waitJS(link+` && `+link+`.textContent === "`+msg+`" && !`+link+`.hasAttribute("aria-current")`, 10*time.Second)

	step("F5 keeps")
	// F5 keeps the list.
	p.reload()
	p.waitJS(link+` && `+link+`.textContent === "`+msg+`"`, 10*time.Second)

	step("Reopen it")
	// Reopen it from the list: its history, marked current.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="conversation-link"][data-session="` + first + `"]`)))
	p.waitJS(`new URLSearchParams(location.search).get("session") === "`+first+`" && document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitJS(`[...document.querySelectorAll('[data-kind="user"]')].some(e => e.textContent.includes("`+msg+`"))`, 10*time.Second)
	p.waitJS(link+` && `+link+`.getAttribute("aria-current") === "page"`, 10*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[aria-current="page"]').length`); n != 1 {
		t.Fatalf("%d entries marked current", n)
	}
	p.screenshot("conversations-desktop")

	step("Back returns")
	// Back returns to the conversation it left, forward to this one.
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.waitJS(`new URLSearchParams(location.search).get("session") === "`+second+`" && document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`history.forward()`))
	p.waitJS(`new URLSearchParams(location.search).get("session") === "`+first+`" && document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitJS(link+` && `+link+`.getAttribute("aria-current") === "page"`, 10*time.Second)

	step("Rename, in place")
	// Rename, in place; the name survives F5.
	rename := `[data-testid="conversations"] li:has([data-session="` + first + `"]) [data-testid="rename-conversation"]`
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('` + rename + `').click()`))
	p.waitJS(`document.activeElement && document.activeElement.dataset.testid === "rename-input"`, 5*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.value = ""`))
	p.do(chromedp.KeyEvent("Hue trip\r")) // typed into the focused field
	p.waitJS(link+` && `+link+`.textContent === "Hue trip"`, 5*time.Second)
	p.reload()
	p.waitJS(link+` && `+link+`.textContent === "Hue trip"`, 10*time.Second)

	step("Delete asks")
	// Delete asks in the page (no JavaScript dialog); Cancel keeps it.
	del := `[data-testid="conversations"] li:has([data-session="` + first + `"]) [data-testid="delete-conversation"]`
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('` + del + `').click()`))
	p.waitJS(`document.querySelector('[data-testid="cancel-delete"]') === document.activeElement`, 5*time.Second)
	p.do(chromedp.KeyEvent("\r")) // Enter on the focused Cancel
	p.waitJS(link+` !== null`, 5*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('` + del + `').click()`))
	p.waitJS(`document.querySelector('[data-testid="confirm-delete"]')`, 5*time.Second)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="confirm-delete"]').click()`))
	// It was the open one: a new conversation opens, without it.
	p.waitJS(`new URLSearchParams(location.search).get("session") !== "`+first+`" && document.documentElement.dataset.stepwise === "ready"`, 20*time.Second)
	p.waitConnected()
	if eval[bool](p, link+` !== null`) {
		t.Fatal("the deleted conversation is still listed")
	}
	p.reload()
	if eval[bool](p, link+` !== null`) {
		t.Fatal("the deleted conversation is listed again after F5")
	}
}
