//go:build browser

package browsertest

// What survives a reload, and what the page does when the browser's
// storage fails (docs/interaction.md, "What survives a reload").

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/server/agentproxy"
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
