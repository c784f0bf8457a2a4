//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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

// A page on another origin cannot command the app: messages from anything
// but the declared parent are ignored.
func TestEmbedIgnoresOtherOrigins(t *testing.T) {
	p := newPage(t)
	p.open("/?session=embed-origin&lang=en")
	p.waitConnected()
	eval[bool](p, `window.postMessage({type: "stepwise:send", text: "/parallel"}, "*"), true`)
	time.Sleep(500 * time.Millisecond)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="user"]').length`); n != 0 {
		t.Fatalf("a message from the page itself (not an embedding parent) was sent")
	}
}
