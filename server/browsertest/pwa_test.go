//go:build browser

package browsertest

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"stepwise/server/demo"
	"stepwise/server/site"
)

// TestInstallable checks that Chromium finds the app installable: manifest
// with our icons (a maskable one among them) and a service worker.
func TestInstallable(t *testing.T) {
	p := newPage(t)
	p.open("/?session=pwa&lang=en")
	p.waitJS(`navigator.serviceWorker && navigator.serviceWorker.controller`, 20*time.Second)
	res, err := chromedp.Call(p.ctx, cdppage.GetInstallabilityErrors, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.InstallabilityErrors {
		t.Errorf("not installable: %s", e.ErrorID)
	}
	if n := eval[int](p, `fetch('/manifest.webmanifest').then(r => r.json()).then(m => m.icons.filter(i => i.purpose === 'maskable').length)`); n == 0 {
		t.Error("no maskable icon")
	}
}

// TestOfflineShell: with the server gone, a reload still shows the app
// from the service worker, with the offline notice.
func TestOfflineShell(t *testing.T) {
	scenarios, err := demo.LoadScenarios("")
	if err != nil {
		t.Fatal(err)
	}
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: openAgent(t, scenarios)}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	p := newPage(t)
	p.openAt(srv.URL, "/?session=offline&lang=en")
	p.waitJS(`navigator.serviceWorker && navigator.serviceWorker.controller`, 20*time.Second)
	// The worker takes control once it has cached the app (install waits
	// for it): the shell and the wasm are there.
	p.waitJS(`Promise.all([caches.match("/"), caches.match("/web/app.wasm")]).then(rs => rs.every(Boolean))`, 10*time.Second)
	srv.Close()
	p.reload()
	p.waitJS(`document.querySelector('[data-testid="offline"]')`, 20*time.Second)
	if eval[int](p, `document.querySelectorAll('[data-testid="composer"]').length`) != 1 {
		t.Error("no composer offline")
	}
}
