//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// deepNestingAnswers are the last words of each answer of the deep-nesting
// scenario (testdata/scenarios/deep-nesting.jsonl): "- "×2000, ">"×5000,
// \frac{×2000, \sqrt{×3000, x^{×3000 and {×1000 in math, "*"×20000 on each
// side of a word, and "*"×5000 in a link and in a table cell. Each once
// crashed the tab (or froze it for half a minute), again on every reload.
var deepNestingAnswers = []string{"deep list", "deep quote", "deep fraction", "deep root", "deep power",
	"deep emphasis", "deep braces", "deep link", "deep cell", "All nine answers are shown."}

// maxAnswerDepth is how deep elements may nest in an answer: the Markdown,
// inline and TeX caps (docs/security.md, "Rendering limits") and what
// each of their levels draws (components' maxAnswerDepth: 231).
const maxAnswerDepth = 240

// answerDepth is the deepest nesting of elements below any answer.
const answerDepth = `Math.max(0, ...[...document.querySelectorAll('[data-testid="conversation"] [data-kind="text"]')].map(a => {
	let deepest = 0;
	const walk = (e, d) => { deepest = Math.max(deepest, d); for (const c of e.children) walk(c, d + 1); };
	walk(a, 0);
	return deepest;
}))`

// Issue 38, item 4: a conversation holding answers nested thousands deep
// (lists, quotes, emphasis, fractions, roots, powers, braces) and a tool
// whose input nests 5,000 deep is drawn with its nesting capped and every
// answer's text there, and the tab stays alive and usable, after a reload
// (F5) too.
func TestDeepNestingKeepsTheTabAlive(t *testing.T) {
	p := newPageWithin(t, 5*time.Minute)
	p.open("/?session=deep-nesting&lang=en")
	p.waitConnected()
	p.send("/deep-nesting")
	conv := `document.querySelector('[data-testid="conversation"]')`
	check := func(when string) {
		t.Helper()
		for _, words := range deepNestingAnswers {
			p.waitJS(conv+`.textContent.includes(`+jsString(words)+`)`, 2*time.Minute, agentStatus)
		}
		p.waitJS(agentStatus+` === "idle"`, time.Minute)
		if d := eval[int](p, answerDepth); d > maxAnswerDepth {
			t.Fatalf("%s: answers nest %d elements deep (at most %d)", when, d, maxAnswerDepth)
		}
		// The deep parts show as text, as written.
		for _, text := range []string{"- - - - deep list", ">>>>>>>> deep quote", `\frac{\frac{\frac{`} {
			if !eval[bool](p, conv+`.textContent.includes(`+jsString(text)+`)`) {
				t.Errorf("%s: %q is not shown", when, text)
			}
		}
		// The tool's request: all there, and indented to 32 levels only
		// (indented at every level, it was 50 MB of text).
		group := `[...document.querySelectorAll('[data-kind="group"]')].pop()`
		p.waitJS(group+`.querySelector('button[aria-expanded]')`, time.Minute)
		if !eval[bool](p, group+`.querySelector('button[aria-expanded]').getAttribute('aria-expanded') === "true"`) {
			p.do(evalAction(group + `.querySelector('button[aria-expanded]').click()`))
		}
		p.waitJS(group+`.querySelector('[data-kind="tool"] .tool-row')`, time.Minute)
		p.do(evalAction(group + `.querySelector('[data-kind="tool"] .tool-row').click()`))
		p.waitJS(group+`.querySelector('.tool-request')`, time.Minute)
		if n := eval[int](p, group+`.querySelector('.tool-request').textContent.length`); n > 100_000 {
			t.Errorf("%s: the tool's request is %d characters of text", when, n)
		}
		if !eval[bool](p, group+`.querySelector('.tool-request').textContent.includes('"deep input"')`) {
			t.Errorf("%s: the tool's request is not all there", when)
		}
		// Still usable: the composer takes a message.
		p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), "still here"))
		p.waitJS(`document.querySelector('[data-testid="composer"]').value.includes("still here")`, time.Minute)
		p.do(evalAction(`document.querySelector('[data-testid="composer"]').value = ""`))
	}
	check("live")
	p.do(chromedp.Reload())
	p.waitJS(`document.documentElement.dataset.stepwise === "ready"`, 2*time.Minute)
	check("after F5")
}
