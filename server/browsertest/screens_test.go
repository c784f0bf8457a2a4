//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestScreens saves screenshots of the main states, light and dark, for a
// person to look at (testdata/screens). It checks only that each state
// rendered.
func TestScreens(t *testing.T) {
	type shot struct {
		name, url string
		width     int
		prepare   func(p *page)
	}
	expandFirstGroup := func(p *page) {
		p.waitJS(`document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
		p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	}
	shots := []shot{
		{"timeline", "/?replay=/scenarios/timeline.jsonl&rate=max&lang=vi", 1100, expandFirstGroup},
		{"search", "/?replay=/scenarios/search.jsonl&rate=max&lang=vi", 1200, func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] [data-testid="web-search"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="sources-button"]`)))
			p.waitJS(`document.querySelectorAll('[data-testid="sources-group"]').length === 2`, 2*time.Second)
		}},
		{"question", "/?replay=/scenarios/question.jsonl&rate=max&lang=vi", 1000, nil},
		{"approval", "/?replay=/fixtures/approval.jsonl&rate=max&lang=vi", 1000, nil},
		{"markdown", "/?replay=/scenarios/markdown.jsonl&rate=max&lang=en", 1000, func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .tool-row`)))
		}},
		{"activity", "/?replay=/scenarios/activity.jsonl&rate=max&lang=fr", 1000, expandFirstGroup},
		{"parallel-phone", "/?replay=/scenarios/parallel.jsonl&rate=max&lang=vi", 360, expandFirstGroup},
		{"empty", "/?lang=en", 1000, nil},
	}
	for _, theme := range []string{"light", "dark"} {
		for _, s := range shots {
			t.Run(theme+"-"+s.name, func(t *testing.T) {
				p := newPage(t)
				if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
				}); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: int64(s.width), Height: 860, DeviceScaleFactor: 1, Mobile: s.width < 500,
				}); err != nil {
					t.Fatal(err)
				}
				p.open(s.url)
				if s.url != "/?lang=en" {
					p.waitJS(`window.__result`, 30*time.Second)
				}
				if s.prepare != nil {
					s.prepare(p)
				}
				time.Sleep(400 * time.Millisecond) // let slide-ins finish
				p.screenshot(theme + "-" + s.name)
			})
		}
	}
}
