//go:build browser

package browsertest

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axe-core comes from npm, pinned by testdata/axe/package-lock.json:
// `npm ci --prefix server/browsertest/testdata/axe` installs it.
const axePath = "testdata/axe/node_modules/axe-core/axe.min.js"

var axeSource = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(axePath)
	return string(b), err
})

type axeNode struct {
	Target         []any  `json:"target"`
	HTML           string `json:"html"`
	FailureSummary string `json:"failureSummary"`
}

type axeViolation struct {
	ID     string    `json:"id"`
	Impact string    `json:"impact"`
	Help   string    `json:"help"`
	Nodes  []axeNode `json:"nodes"`
}

// settled waits until every finite animation (slide-ins, fades) has
// finished, so that colours are checked as they end up; endless ones
// (spinners, the shimmer) stay.
const settled = `Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity && a.playState === "running")
  .map(a => a.finished.catch(() => null))).then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))`

// axe runs axe-core on the page as it is, in the light and the dark theme,
// and fails the test for every violation it reports.
func (p *page) axe(state string) {
	p.t.Helper()
	p.axeRuns(state, [][2]string{{`document`, `{}`}})
}

// axeRuns is axe with axe.run's arguments given: once per run, {context,
// options}, light and dark.
func (p *page) axeRuns(state string, runs [][2]string) {
	p.t.Helper()
	src, err := axeSource()
	if err != nil {
		p.t.Fatalf("axe-core is not installed (npm ci --prefix server/browsertest/testdata/axe): %v", err)
	}
	if !eval[bool](p, `typeof window.axe === "object"`) {
		if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](src+";\ntrue")); err != nil {
			p.t.Fatalf("loading axe-core: %v", err)
		}
	}
	for _, theme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
		}); err != nil {
			p.t.Fatal(err)
		}
		eval[bool](p, settled)
		for _, run := range runs {
			raw := eval[string](p, `axe.run(`+run[0]+`, Object.assign({resultTypes: ["violations"]}, `+run[1]+`)).then(r => JSON.stringify(r.violations))`)
			var violations []axeViolation
			if err := json.Unmarshal([]byte(raw), &violations); err != nil {
				p.t.Fatalf("axe result: %v", err)
			}
			for _, v := range violations {
				var where []string
				for _, n := range v.Nodes {
					where = append(where, "\n    "+n.HTML+"\n      "+strings.ReplaceAll(n.FailureSummary, "\n", "\n      "))
				}
				p.t.Errorf("axe, %s, %s: %s (%s, %s):%s", state, theme, v.ID, v.Help, v.Impact, strings.Join(where, ""))
			}
		}
	}
	chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
}

// TestAxe checks every main state of the page with axe-core, light and
// dark: it must report no violation at all.
func TestAxe(t *testing.T) {
	expandFirstGroup := func(p *page) {
		p.waitJS(`document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
		p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	}
	replayed := func(url string, prepare func(p *page)) func(p *page) {
		return func(p *page) {
			p.replayURL(url, "max", "en")
			p.waitJS(`window.__result`, 30*time.Second)
			if prepare != nil {
				prepare(p)
			}
		}
	}
	states := []struct {
		name string
		open func(p *page)
	}{
		{"empty", func(p *page) {
			p.open("/?session=axe-empty&lang=en")
			p.waitConnected()
		}},
		{"running-group", func(p *page) {
			p.open("/?session=axe-running&lang=en")
			p.waitConnected()
			p.send("/gated-group")
			p.waitJS(runningGroup+` && document.querySelector('[data-testid="stop"]')`, 15*time.Second)
			p.t.Cleanup(func() { agent.Release("axe-running") })
		}},
		{"question", replayed("/scenarios/question.jsonl", func(p *page) {
			p.waitJS(`document.querySelector('[data-kind="question"][data-state="pending"]')`, 5*time.Second)
		})},
		{"approval", replayed("/fixtures/approval.jsonl", func(p *page) {
			p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"]')`, 5*time.Second)
		})},
		{"search-sources", replayed("/scenarios/search.jsonl", func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] [data-testid="web-search"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="sources-button"]`)))
			p.waitJS(`document.querySelectorAll('[data-testid="sources-group"]').length === 2`, 5*time.Second)
		})},
		{"markdown", replayed("/scenarios/markdown.jsonl", func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .tool-row`)))
		})},
		{"activity", replayed("/scenarios/activity.jsonl", func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="activity"] button:not([disabled])`)))
		})},
		{"anthropic-cited", replayed("/fixtures/anthropic-cited-answer.jsonl", nil)},
		{"plan-open", replayed("/scenarios/plan.jsonl", func(p *page) {
			expandFirstGroup(p)
			p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
			p.waitJS(`document.querySelectorAll('[data-testid="plan-popover"] [data-testid="plan-todo"]').length === 4`, 5*time.Second)
		})},
	}
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			p := newPage(t)
			s.open(p)
			p.axe(s.name)
		})
	}
}

// With prefers-reduced-motion, nothing moves: no shimmer, spinner, pulse
// or slide-in while a group runs.
func TestReducedMotionStopsEveryAnimation(t *testing.T) {
	p := newPage(t)
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	p.open("/?session=reduced-motion&lang=en")
	p.waitConnected()
	p.send("/gated-group")
	p.waitJS(runningGroup, 15*time.Second)
	t.Cleanup(func() { agent.Release("reduced-motion") })
	if n := eval[int](p, `document.getAnimations().length`); n != 0 {
		t.Errorf("%d animations run with reduced motion: %v", n, eval[[]string](p, `document.getAnimations().map(a => a.animationName || String(a))`))
	}
	// Without the preference the same page does move (the check can fail).
	chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
	p.waitJS(`document.getAnimations().length > 0`, 5*time.Second)
}

// A copy button reached by Tab shows a focus ring.
func TestCopyButtonsShowFocus(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/code-math.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	for i := 0; i < 40; i++ {
		p.do(chromedp.KeyEvent("\t"))
		if eval[bool](p, `document.activeElement && document.activeElement.dataset.testid === "copy"`) {
			if !eval[bool](p, `document.activeElement.matches(':focus-visible') && getComputedStyle(document.activeElement).outlineStyle !== "none"`) {
				t.Fatal("the focused copy button shows no focus ring")
			}
			return
		}
	}
	t.Fatal("Tab never reached a copy button")
}
