//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The chart scenario's pictures: a tool's result shows its chart under
// its row, the answer shows it as a thumbnail that opens full size in a
// modal dialog (the one viewer of every picture: the tool's too); Escape
// closes it and the focus is back on the thumbnail.
// axe-core finds nothing, open or closed.
func TestPicturesOpenFullSize(t *testing.T) {
	p := newPage(t)
	p.focused()
	p.replay("chart", "max", "en")
	const thumb = `document.querySelector('[data-kind="image"] [data-testid="picture"]')`
	p.waitJS(thumb+` && `+thumb+`.querySelector('img').complete && `+thumb+`.querySelector('img').naturalWidth === 320`, 10*time.Second)
	if got := eval[string](p, thumb+`.getAttribute('aria-label')`); got != "Open full size: fpt-6-thang.png" {
		t.Errorf("the thumbnail is named %q", got)
	}
	// The group folds 300 ms after its steps end, maybe after the replay's
	// end: open it once it has folded, or the click would fold it.
	p.waitJS(`document.querySelector('[data-kind="group"] > .group-header[aria-expanded="false"]')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] > button`)))
	p.waitJS(`document.querySelector('[data-kind="tool"] [data-testid="picture"] img')`, 5*time.Second)
	p.axe("pictures")

	p.do(chromedp.Click(chromedp.CSS(`[data-kind="image"] [data-testid="picture"]`)))
	const lightbox = `document.querySelector('[data-kind="image"] [data-testid="lightbox"]')`
	p.waitJS(`(d => d && d.open && d.matches(':modal') && d.contains(document.activeElement))(`+lightbox+`)`, 5*time.Second)
	if w := eval[float64](p, lightbox+`.querySelector('.lightbox-img').getBoundingClientRect().width`); w < 320 {
		t.Errorf("the full-size picture is %v px wide", w)
	}
	p.axe("lightbox")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!`+lightbox+`.open && document.activeElement === `+thumb, 5*time.Second)

	// A click beside the picture (on the backdrop) closes it too.
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="image"] [data-testid="picture"]`)))
	p.waitJS(lightbox+`.open`, 5*time.Second)
	p.do(chromedp.MouseClickXY(5, 5))
	p.waitJS(`!`+lightbox+`.open`, 5*time.Second)

	// And so does its close button, the focus back on the thumbnail.
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="image"] [data-testid="picture"]`)))
	p.waitJS(lightbox+`.open`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="image"] [data-testid="lightbox-close"]`), chromedp.NodeVisible))
	p.waitJS(`!`+lightbox+`.open && document.activeElement === `+thumb, 5*time.Second)
}

// A user message can be copied, and the actions the backend carries out
// are offered.
func TestCopyAUserMessage(t *testing.T) {
	p := newPage(t)
	p.allowClipboard()
	p.open("/?session=copy-user&lang=en")
	p.waitConnected()
	p.send("/timeline")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('.user-turn [data-testid="copy"]')`, 30*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="copy"]`), chromedp.NodeVisible))
	p.waitJS(`document.querySelector('.user-turn [data-testid="copy"]').getAttribute('aria-label') === "Copied"`, 5*time.Second)
	if got := eval[string](p, `navigator.clipboard.readText()`); got != "/timeline" {
		t.Fatalf("copied %q", got)
	}
	// The demo agent keeps versions: edit, regenerate and thumbs are
	// offered; no version switcher before there are versions.
	if got := eval[string](p, `['edit', 'regenerate', 'feedback', 'branch'].map(t => document.querySelectorAll('[data-testid="' + t + '"]').length).join()`); got != "1,1,1,0" {
		t.Errorf("edit, regenerate, thumbs, versions: %s", got)
	}
}

// TestPictureScreens saves the chart scenario with its picture open, light
// and dark, at 360 px and on a desktop (testdata/screens/pictures-*.png).
func TestPictureScreens(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1200} {
			name := "pictures-" + theme + "-" + itoa(width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				p.sized(theme, width)
				p.replay("chart", "max", "vi")
				p.waitJS(`[...document.images].every(i => i.complete)`, 5*time.Second)
				p.screenshot(name)
				p.do(chromedp.Click(chromedp.CSS(`[data-kind="image"] [data-testid="picture"]`)))
				p.waitJS(`document.querySelector('[data-kind="image"] [data-testid="lightbox"]')?.open`, 5*time.Second)
				p.screenshot(name + "-open")
			})
		}
	}
}
