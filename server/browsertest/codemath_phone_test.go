//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// codeMathProblems lists what sticks out of the answer: the page or the
// conversation scrolling sideways, a code block or a formula wider than the
// answer (a long line must scroll inside its block), and TeX shown as
// source.
const codeMathProblems = `(() => {
  const out = [];
  const doc = document.documentElement, conv = document.querySelector('[data-testid="conversation"]');
  if (doc.scrollWidth > doc.clientWidth) out.push("page scrolls sideways: " + doc.scrollWidth + " > " + doc.clientWidth);
  if (conv.scrollWidth > conv.clientWidth) out.push("conversation scrolls sideways: " + conv.scrollWidth + " > " + conv.clientWidth);
  const item = document.querySelector('[data-kind="text"]').getBoundingClientRect();
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.left < item.left - 0.5 || r.right > item.right + 0.5) out.push(what + " sticks out: " + Math.round(r.left) + ".." + Math.round(r.right) + " in " + Math.round(item.left) + ".." + Math.round(item.right));
  };
  document.querySelectorAll('[data-kind="text"] .md-codeblock').forEach((el, i) => inside(el, "code block " + i));
  document.querySelectorAll('[data-kind="text"] math').forEach((el, i) => inside(el, (el.getAttribute("display") || "inline") + " math " + i));
  if (document.querySelectorAll('[data-kind="text"] .math-source').length) out.push("TeX shown as source");
  return out;
})()`

// TestCodeAndMathOnAPhone: at 360 px, light and dark, highlighted code with
// long lines scrolls inside its block and wide formulas (display and
// inline) inside their own box; nothing widens the page. Screenshots
// (code-math-phone-THEME.png) are for a person to look at.
func TestCodeAndMathOnAPhone(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			p := newPage(t)
			p.sized(theme, 360)
			p.replayURL("/fixtures/code-math-phone.jsonl", "max", "en")
			p.waitJS(`window.__result`, 30*time.Second)
			eval[bool](p, settled)
			if n := eval[int](p, `document.querySelectorAll('[data-kind="text"] .md-codeblock').length`); n != 5 {
				t.Fatalf("%d code blocks, want 5", n)
			}
			if n := eval[int](p, `document.querySelectorAll('[data-kind="text"] math').length`); n != 4 {
				t.Fatalf("%d formulas, want 4", n)
			}
			for _, pr := range eval[[]string](p, codeMathProblems) {
				t.Error(pr)
			}
			// The long lines are there, scrolled, not cut or wrapped away.
			if !eval[bool](p, `[...document.querySelectorAll('[data-kind="text"] .md-code')].every(el => el.scrollWidth > el.clientWidth)`) {
				t.Error("a long code line does not scroll inside its block")
			}
			if !eval[bool](p, `(el => el.scrollWidth > el.clientWidth)(document.querySelector('[data-kind="text"] math[display="block"]'))`) {
				t.Error("the wide formula does not scroll inside its box")
			}
			// Code blocks and display formulas that scroll are focusable;
			// an inline formula is not made so (each would be a tab stop),
			// and axe's scrollable-region rule is about Safari, which does
			// not focus scrollers: Chromium (checked here) does.
			p.axeRuns("code-math-phone", [][2]string{
				{`document`, `{rules: {"scrollable-region-focusable": {enabled: false}}}`},
				{`{exclude: [['[data-kind="text"] math:not([display="block"])']]}`, `{runOnly: ["scrollable-region-focusable"]}`},
			})
			p.focused()
			eval[bool](p, `(b => { b[b.length - 1].focus(); return true })(document.querySelectorAll('[data-kind="text"] .md-codeblock .copy'))`)
			reached := false
			for i := 0; i < 12 && !reached; i++ {
				p.do(chromedp.KeyEvent("\t"))
				reached = eval[bool](p, `(m => document.activeElement === m[m.length - 1])(document.querySelectorAll('[data-kind="text"] math'))`)
			}
			if !reached {
				t.Error("Tab does not reach the long inline formula that scrolls")
			}
			if screensWanted() {
				// Tall enough for the whole answer: the conversation scrolls,
				// not the page.
				p.sizedHeight(theme, 360, 2200)
				eval[bool](p, settled)
				p.screenshot("code-math-phone-" + theme)
			}
		})
	}
}

// sizedHeight is sized with a viewport height.
func (p *page) sizedHeight(theme string, width, height int) {
	p.t.Helper()
	p.sized(theme, width)
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(width), Height: int64(height), DeviceScaleFactor: 1, Mobile: width < 500,
	}); err != nil {
		p.t.Fatal(err)
	}
}
