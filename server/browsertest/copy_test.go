//go:build browser

package browsertest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// allowClipboard lets the page read and write the clipboard without asking.
func (p *page) allowClipboard() {
	p.t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name},
			Setting:    browser.PermissionSettingGranted,
			Origin:     serverURL,
		}); err != nil {
			p.t.Fatalf("clipboard permission: %v", err)
		}
	}
}

const announcerText = `document.querySelector('[data-testid="announcer"]').textContent`

func TestCopyPutsTheRightTextOnTheClipboard(t *testing.T) {
	want, err := os.ReadFile("testdata/code-math.md")
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t)
	p.allowClipboard()
	p.replayURL("/fixtures/code-math.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)

	buttons := eval[[]string](p, `[...document.querySelectorAll('[data-kind="text"] [data-testid="copy"]')].map(b => b.getAttribute('aria-label'))`)
	if got := strings.Join(buttons, ","); got != "Copy code,Copy code,Copy answer" {
		t.Fatalf("copy buttons %q, want two code blocks' and the answer's", got)
	}

	// A code block's button copies its code, says "Copied" for a moment,
	// and the status region says it once.
	p.do(chromedp.Click(chromedp.CSS(`.md-codeblock [data-testid="copy"]`)))
	p.waitJS(`document.querySelector('.md-codeblock [data-testid="copy"]').getAttribute('aria-label') === "Copied"`, 5*time.Second)
	if got := eval[string](p, `navigator.clipboard.readText()`); got != "func main() {\n\tfmt.Println(\"<script>alert(1)</script>\")\n}" {
		t.Fatalf("the code block copied %q", got)
	}
	if got := strings.TrimSpace(eval[string](p, announcerText)); got != "Copied" {
		t.Errorf("status region says %q", got)
	}
	p.waitJS(`document.querySelector('.md-codeblock [data-testid="copy"]').getAttribute('aria-label') === "Copy code"`, 10*time.Second)

	// The answer's button copies its Markdown source.
	p.do(chromedp.Click(chromedp.CSS(`.answer-actions [data-testid="copy"]`)))
	p.waitJS(`document.querySelector('.answer-actions [data-testid="copy"]').getAttribute('aria-label') === "Copied"`, 5*time.Second)
	if got := eval[string](p, `navigator.clipboard.readText()`); got != string(want) {
		t.Fatalf("the answer copied %q,\nwant its Markdown %q", got, want)
	}

	// A browser that refuses: the page says how to copy by hand, and
	// nothing claims it was copied.
	eval[bool](p, `navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError")); true`)
	p.waitJS(`document.querySelector('.answer-actions [data-testid="copy"]').getAttribute('aria-label') === "Copy answer"`, 10*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`.answer-actions [data-testid="copy"]`)))
	p.waitJS(`document.querySelector('[data-testid="notice"]') && document.querySelector('[data-testid="notice"]').textContent.includes("Ctrl+C")`, 5*time.Second)
	if eval[bool](p, `document.querySelector('.answer-actions [data-testid="copy"]').getAttribute('aria-label') === "Copied"`) {
		t.Error("a refused copy shows as copied")
	}
}

// Code blocks, math and raw HTML from the backend run nothing and become
// no markup.
func TestCodeAndMathExecuteNothing(t *testing.T) {
	p := newPage(t)
	p.addInitScript(`window.alert = () => { window.__pwned = true; };`)
	p.replayURL("/fixtures/code-math.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	eval[bool](p, settled)
	if eval[bool](p, `!!window.__pwned`) {
		t.Fatal("backend text ran script")
	}
	if n := eval[int](p, conversation+`.querySelectorAll('script, img:not([src="/web/logo.svg"]), iframe, object, [onerror]').length`); n != 0 {
		t.Fatalf("backend markup became %d elements", n)
	}
	if !eval[bool](p, conversation+`.querySelector('code.language-html').textContent.includes('<script>window.__pwned = true</script>')`) {
		t.Error("the HTML code block does not show its source")
	}
	if n := eval[int](p, conversation+`.querySelectorAll('code.language-go .hl-kw, code.language-html .hl-tag').length`); n < 3 {
		t.Errorf("%d highlighted tokens", n)
	}
}

// The status region says when a run starts, when a form waits and when a
// run ends; the conversation itself is no live region.
func TestStatusRegionAnnouncesRunsNotDeltas(t *testing.T) {
	p := newPage(t)
	p.addInitScript(`window.__said = [];
new MutationObserver(() => {
  const r = document.querySelector('[data-testid="announcer"]');
  if (r && r.textContent.trim() && window.__said[window.__said.length - 1] !== r.textContent.trim()) window.__said.push(r.textContent.trim());
}).observe(document, {subtree: true, childList: true, characterData: true});`)
	p.open("/?session=announce&lang=en")
	p.waitConnected()
	if live := eval[string](p, conversation+`.getAttribute('aria-live')`); live != "off" {
		t.Errorf("the conversation is aria-live=%q", live)
	}
	p.send("/gated-group")
	p.waitJS(runningGroup, 15*time.Second)
	if !agent.Release("announce") {
		t.Fatal("the run is not in the agent")
	}
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	p.waitJS(`window.__said.includes("The assistant has answered.")`, 5*time.Second)
	if got := strings.Join(eval[[]string](p, `window.__said`), " | "); got != "The assistant is working. | The assistant has answered." {
		t.Errorf("the status region said %q", got)
	}
	p.send("/question")
	p.waitJS(`window.__said.includes("The assistant asks you a question. Alt+Shift+A goes to it.")`, 15*time.Second)
}

// TeX becomes MathML the browser lays out; prices stay text; TeX it cannot
// read shows as its source.
func TestMathRendersAsMathML(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/code-math.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	type math struct {
		NS      string
		Display string
		Tags    string
		Width   float64
		Height  float64
	}
	got := eval[[]math](p, `[...`+conversation+`.querySelectorAll('math')].map(m => ({NS: m.namespaceURI, Display: m.getAttribute('display') || "",
		Tags: [...m.querySelectorAll('*')].map(e => e.localName).filter(n => ["mfrac", "msqrt", "msup", "munderover", "msubsup"].includes(n)).join(","),
		Width: m.getBoundingClientRect().width, Height: m.getBoundingClientRect().height}))`)
	if len(got) != 6 {
		t.Fatalf("%d math elements, want 6: %+v", len(got), got)
	}
	want := []struct{ display, tags string }{
		{"", "msup"}, {"", "msup"}, {"block", "mfrac,msqrt,msup"}, {"", "munderover,mfrac"}, {"block", "msubsup,msup,msup,mfrac,msqrt"},
		{"", ""}, // the hostile one: its characters as math tokens, nothing more
	}
	for i, m := range got {
		if m.NS != "http://www.w3.org/1998/Math/MathML" {
			t.Errorf("math %d is in namespace %q", i, m.NS)
		}
		if m.Display != want[i].display || m.Tags != want[i].tags {
			t.Errorf("math %d: display %q with %s, want %q with %s", i, m.Display, m.Tags, want[i].display, want[i].tags)
		}
		if m.Width <= 0 || m.Height <= 0 {
			t.Errorf("math %d is not laid out: %+v", i, m)
		}
	}
	// A fraction lays out as a fraction: its numerator above its denominator.
	if !eval[bool](p, `(f => f.children[0].getBoundingClientRect().bottom <= f.children[1].getBoundingClientRect().top + 1)(`+conversation+`.querySelector('mfrac'))`) {
		t.Error("the fraction's numerator is not above its denominator")
	}
	text := eval[string](p, conversation+`.textContent`)
	if !strings.Contains(text, "Prices stay prices: $5 and $10.") {
		t.Error("prices became math")
	}
	sources := eval[[]string](p, `[...`+conversation+`.querySelectorAll('code.math-source')].map(c => c.textContent)`)
	if strings.Join(sources, " ") != `$\frac{1}{$` {
		t.Errorf("TeX shown as its source: %q", sources)
	}
}
