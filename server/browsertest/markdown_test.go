//go:build browser

package browsertest

import (
	"testing"
	"time"
)

// The markdown scenario carries <script>, a javascript: link and an
// onerror= attribute: none may run or become markup.
func TestMarkdownExecutesNothing(t *testing.T) {
	p := newPage(t)
	p.addInitScript(`window.alert = () => { window.__alerted = true; };`)
	p.replay("markdown", "max", "en")
	conv := `document.querySelector('[data-testid="conversation"]')`
	// The hostile text has been drawn (as text) before anything is checked.
	p.waitJS(conv+`.textContent.includes('<img src=x onerror="alert(1)">')`, 10*time.Second)
	if eval[bool](p, `!!window.__alerted`) {
		t.Fatal("backend text ran script")
	}
	if n := eval[int](p, conv+`.querySelectorAll('script, img[src="x"], [onerror], iframe, object').length`); n != 0 {
		t.Fatalf("backend markup became %d elements", n)
	}
	if !eval[bool](p, conv+`.textContent.includes('<img src=x onerror="alert(1)">')`) {
		t.Error("raw HTML is not shown as text")
	}
	type link struct{ Href, Target, Rel string }
	links := eval[[]link](p, `[...`+conv+`.querySelectorAll('a')].map(a => ({Href: a.getAttribute('href'), Target: a.target, Rel: a.rel}))`)
	if len(links) == 0 {
		t.Fatal("the safe link is missing")
	}
	for _, l := range links {
		if l.Target != "_blank" || l.Rel != "noopener noreferrer" {
			t.Errorf("link %+v does not open safely in a new tab", l)
		}
		if !(len(l.Href) > 7 && (l.Href[:7] == "http://" || l.Href[:8] == "https://" || l.Href[:7] == "mailto:")) {
			t.Errorf("link to %q", l.Href)
		}
	}
	if eval[int](p, conv+`.querySelectorAll('.md-unsafe-link').length`) != 1 {
		t.Error("the javascript: link is not shown as plain text")
	}
	// The table, the code block and the chart rendered as elements.
	if eval[int](p, conv+`.querySelectorAll('table th').length`) != 3 {
		t.Error("no table header cells")
	}
	if eval[int](p, conv+`.querySelectorAll('pre.md-code code.language-python').length`) != 1 {
		t.Error("no code block")
	}
}
