//go:build browser

package browsertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"stepwise/app/dom"
)

// strikesIn is the strikes (first family, size, weight, style) of the
// visible text under the selectors, MathML's excepted.
const strikesIn = `(sel => { const s = new Set(); const key = c => c.fontFamily.split(",")[0].trim() + " " + c.fontSize + " " + c.fontWeight + " " + c.fontStyle;
for (const root of document.querySelectorAll(sel)) {
  const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (w.nextNode()) {
    const e = w.currentNode.parentElement;
    if (!w.currentNode.textContent.trim() || !e || e.closest("math") || !e.getClientRects().length || getComputedStyle(e).visibility !== "visible") continue;
    s.add(key(getComputedStyle(e)));
  }
}
return [...s].sort(); })`

// The fonts a page resolves before its first answer
// (dom.ConversationFonts) are those its conversations draw: every
// strike of the fixtures' conversations, their disclosures open, and of
// the sources panel.
func TestConversationFontsAreWarmed(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{} // strike → the first fixture that shows it
	var warmed []string
	for _, path := range fixtures {
		name := filepath.Base(path)
		if strings.HasPrefix(name, "bench-") {
			continue
		}
		p := newPage(t)
		p.replayURL("/fixtures/"+name, "max", "en")
		p.waitJS(`window.__result`, 60*time.Second)
		// Open every disclosure, those inside the ones just opened too.
		p.waitJS(`(() => { const closed = document.querySelectorAll('#conversation [aria-expanded="false"]'); closed.forEach(b => b.click()); return closed.length === 0; })()`, 20*time.Second)
		if eval[bool](p, `document.querySelector('[data-testid="sources-button"]:not([disabled])') !== null`) {
			p.do(evalAction(`document.querySelector('[data-testid="sources-button"]').click()`))
			p.waitJS(`document.querySelector('[data-testid="sources-panel"]') !== null`, 10*time.Second)
		}
		for _, s := range eval[[]string](p, strikesIn+`("#conversation, #sources-panel")`) {
			if _, ok := shown[s]; !ok {
				shown[s] = name
			}
		}
		if warmed == nil {
			fonts, _ := json.Marshal(dom.ConversationFonts)
			warmed = eval[[]string](p, `(fonts => { const box = document.createElement("div"); box.id = "font-probe";
for (const f of fonts) { const s = document.createElement("span"); s.style.font = f; s.textContent = "Aa"; box.append(s); }
document.body.append(box); return true; })(`+string(fonts)+`)`+` && `+strikesIn+`("#font-probe")`)
			if len(warmed) != len(dom.ConversationFonts) {
				t.Errorf("ConversationFonts name %d strikes, %d of them distinct: %v", len(dom.ConversationFonts), len(warmed), warmed)
			}
		}
		p.close()
	}
	if len(shown) < 10 {
		t.Fatalf("the fixtures showed only %d strikes: %v", len(shown), shown)
	}
	for s, fixture := range shown {
		if !slices.Contains(warmed, s) {
			t.Errorf("%s shows text in %s, which ConversationFonts does not name", fixture, s)
		}
	}
	if os.Getenv("STEPWISE_FONTS") != "" {
		t.Logf("shown %v\nwarmed %v", shown, warmed)
	}
}

// A page resolves its fonts in idle time, in hidden lines it then takes
// away.
func TestFontWarmUpLeavesNothing(t *testing.T) {
	p := newPage(t)
	p.addInitScript(`window.__warmBoxes = 0; document.addEventListener("DOMContentLoaded", () => new MutationObserver(l => {
  for (const r of l) for (const n of r.addedNodes) if (n.nodeType === 1 && r.target === document.body && n.getAttribute("aria-hidden") === "true" && n.style.visibility === "hidden") window.__warmBoxes++;
}).observe(document.documentElement, {childList: true, subtree: true}))`)
	p.open("/?lang=en")
	p.waitConnected()
	p.waitJS(`window.__warmBoxes > 0`, 30*time.Second)
	p.waitJS(`[...document.body.children].every(e => e.style.visibility !== "hidden")`, 30*time.Second)
}
