//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// sized sets the page's theme and viewport.
func (p *page) sized(theme string, width int) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(width), Height: 760, DeviceScaleFactor: 1, Mobile: width < 500,
	}); err != nil {
		p.t.Fatal(err)
	}
}

// noOverflow fails when the page scrolls sideways or a composer control is
// off screen.
const layoutProblems = `(() => {
  const out = [];
  const w = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > w) out.push("page scrolls sideways: " + document.documentElement.scrollWidth + " > " + w);
  for (const id of ["composer", "send"]) {
    const el = document.querySelector('[data-testid="' + id + '"]');
    if (!el) { out.push(id + " missing"); continue; }
    const r = el.getBoundingClientRect();
    if (r.width < 24 || r.left < 0 || r.right > w || r.bottom > innerHeight) out.push(id + " off screen: " + JSON.stringify(r));
  }
  return out;
})()`

// TestPhoneLayoutAndDrawer: at 360, 768 and 1280 px, light and dark, the
// page does not scroll sideways and the composer's controls show; below
// 900 px the conversations drawer opens from the header, takes focus, and
// Escape closes it with focus back on its button. Screenshots
// (testdata/screens/layout-*.png) are for a person to look at.
func TestPhoneLayoutAndDrawer(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 768, 1280} {
			name := "layout-" + theme + "-" + itoa(width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				p.sized(theme, width)
				p.open("/?lang=en")
				p.waitConnected()
				p.send("Compare two phones " + name)
				p.waitJS(`document.querySelector('[data-testid="conversation-link"][aria-current="page"]')`, 10*time.Second)
				// The default scenario's run is over: its group is done.
				p.waitJS(`document.querySelector('[data-kind="group"][data-state="done"]') && `+agentStatus+` !== "running"`, 30*time.Second)
				if probs := eval[[]string](p, layoutProblems); len(probs) > 0 {
					t.Fatalf("layout: %v", probs)
				}
				p.screenshot(name)
				toggle := eval[bool](p, `getComputedStyle(document.querySelector('[data-testid="conversations-toggle"]')).display !== "none"`)
				if width >= 900 {
					if toggle {
						t.Fatal("the drawer's button shows beside a sidebar that is always there")
					}
					return
				}
				if !toggle {
					t.Fatal("no button to open the conversations")
				}
				p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="conversations-toggle"]').click()`))
				p.waitJS(`document.activeElement && document.activeElement.dataset.testid === "new-conversation"`, 5*time.Second)
				p.waitJS(`(r => r.left >= 0 && r.right <= innerWidth)(document.querySelector('[data-testid="conversations"]').getBoundingClientRect())`, 5*time.Second)
				if probs := eval[[]string](p, layoutProblems); len(probs) > 0 {
					t.Fatalf("layout with the drawer open: %v", probs)
				}
				p.screenshot(name + "-drawer")
				p.do(chromedp.KeyEvent("\x1b"))
				p.waitJS(`document.activeElement && document.activeElement.dataset.testid === "conversations-toggle"`, 5*time.Second)
				p.waitJS(`document.querySelector('[data-testid="conversations-toggle"]').getAttribute("aria-expanded") === "false"`, 5*time.Second)
			})
		}
	}
}
