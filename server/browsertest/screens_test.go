//go:build browser

package browsertest

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// screensWanted: screenshots are for a person to look at, so they are
// taken only when asked for (STEPWISE_SCREENS=1).
func screensWanted() bool { return os.Getenv("STEPWISE_SCREENS") == "1" }

// screens saves the page as it is now, light and dark, on a phone (360 px)
// and a desktop, as testdata/screens/NAME-THEME-WIDTH.png, when screenshots
// are wanted.
func (p *page) screens(name string) {
	p.t.Helper()
	if !screensWanted() {
		return
	}
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int64{360, 1100} {
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
			}); err != nil {
				p.t.Fatal(err)
			}
			if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: width, Height: 860, DeviceScaleFactor: 1, Mobile: width < 500,
			}); err != nil {
				p.t.Fatal(err)
			}
			// Two animation frames: the new layout is painted.
			eval[bool](p, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			eval[bool](p, settled) // transitions the new width started (the drawer's slide)
			p.screenshot(fmt.Sprintf("%s-%s-%d", name, theme, width))
		}
	}
	chromedp.Call(p.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
	chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
}

// TestScreens saves screenshots of the main states, light and dark, for a
// person to look at (testdata/screens): a tool, not a test, so it runs only
// with STEPWISE_SCREENS=1. The tests of those states are elsewhere.
func TestScreens(t *testing.T) {
	if !screensWanted() {
		t.Skip("set STEPWISE_SCREENS=1 to save screenshots in testdata/screens")
	}
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
		{"approval-sending", "/?replay=/fixtures/approval.jsonl&rate=max&lang=en", 360, func(p *page) {
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] button[data-decision="approve"]`)))
			p.waitJS(`document.querySelector('[data-testid="approval-send"][disabled]')`, 5*time.Second)
		}},
		{"markdown", "/?replay=/scenarios/markdown.jsonl&rate=max&lang=en", 1000, func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .tool-row`)))
		}},
		{"activity", "/?replay=/scenarios/activity.jsonl&rate=max&lang=fr", 1000, expandFirstGroup},
		{"parallel-phone", "/?replay=/scenarios/parallel.jsonl&rate=max&lang=vi", 360, expandFirstGroup},
		{"agui-interrupts", "/?replay=/fixtures/agui-interrupts.jsonl&rate=max&lang=en", 1000, nil},
		{"agui-interrupts-phone", "/?replay=/fixtures/agui-interrupts.jsonl&rate=max&lang=fr", 360, nil},
		{"empty", "/?lang=en", 1000, nil},
		{"code-math", "/?replay=/fixtures/code-math.jsonl&rate=max&lang=en", 1000, nil},
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
