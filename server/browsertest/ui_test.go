//go:build browser

package browsertest

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// recordTransitions records, from before the app loads, the first group's
// state and expansion changes with their times.
const recordTransitions = `
window.__transitions = [];
new MutationObserver((muts) => {
  for (const m of muts) {
    const el = m.target;
    if (m.attributeName === "data-state" && el.dataset.kind === "group") {
      window.__transitions.push({what: "state:" + el.dataset.state, at: performance.now()});
    }
    if (m.attributeName === "aria-expanded" && el.classList.contains("group-header")) {
      window.__transitions.push({what: "expanded:" + el.getAttribute("aria-expanded"), at: performance.now()});
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-state", "aria-expanded"]});
`

type transition struct {
	What string  `json:"what"`
	At   float64 `json:"at"`
}

func TestGroupRunsShowsThreeCollapsesAndToggles(t *testing.T) {
	p := newPage(t)
	p.addInitScript(recordTransitions)
	p.replayURL("/fixtures/group.jsonl", "8", "en")

	const group = `document.querySelector('[data-kind="group"]')`
	// Running with four steps: the newest three show.
	p.waitJS(group+` && `+group+`.dataset.state === "running" && `+group+`.querySelectorAll('[data-kind="tool"]').length === 4`, 20*time.Second)
	visible := eval[[]string](p, `[...`+group+`.querySelectorAll('.step:not(.step-hidden)[data-kind="tool"]')].map(e => e.dataset.toolId)`)
	if want := []string{"t2", "t3", "t4"}; !reflect.DeepEqual(visible, want) {
		t.Fatalf("visible steps while running = %v, want %v", visible, want)
	}
	if got := eval[string](p, group+`.querySelector('.group-header').getAttribute('aria-expanded')`); got != "true" {
		t.Fatalf("running group aria-expanded = %q", got)
	}
	if title := eval[string](p, group+`.querySelector('.group-title').textContent`); title != "Bước 4" {
		t.Fatalf("running title = %q, want the newest step's label", title)
	}

	// It ends, then collapses by itself about 300 ms later.
	p.waitJS(`window.__result`, 20*time.Second)
	p.waitJS(group+`.querySelector('.group-header').getAttribute('aria-expanded') === "false"`, 5*time.Second)
	trans := eval[[]transition](p, `window.__transitions`)
	var done, collapsed float64
	for _, tr := range trans {
		switch {
		case tr.What == "state:done" && done == 0:
			done = tr.At
		case tr.What == "expanded:false" && done != 0 && collapsed == 0:
			collapsed = tr.At
		}
	}
	if done == 0 || collapsed == 0 {
		t.Fatalf("transitions %+v: no done then collapse", trans)
	}
	if d := collapsed - done; d < 250 || d > 1500 {
		t.Fatalf("collapsed %.0f ms after it finished, want about 300", d)
	}
	if title := eval[string](p, group+`.querySelector('.group-title').textContent`); title != "Nhóm xong" {
		t.Fatalf("finished title = %q", title)
	}

	// A click expands it with every step and the done line.
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(group+`.querySelector('.group-header').getAttribute('aria-expanded') === "true"`, 2*time.Second)
	if n := eval[int](p, group+`.querySelectorAll('.step:not(.step-hidden)').length`); n != 4 {
		t.Fatalf("expanded finished group shows %d steps, want 4", n)
	}
	if txt := eval[string](p, `document.querySelector('[data-testid="group-done"]').textContent`); txt != "✓ Done" {
		t.Fatalf("done line = %q", txt)
	}
	// Enter and Space on the focused header toggle it.
	p.do(chromedp.Focus(chromedp.CSS(`[data-kind="group"] .group-header`)), chromedp.KeyEvent("\r"))
	p.waitJS(group+`.querySelector('.group-header').getAttribute('aria-expanded') === "false"`, 2*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-testid="group-done"]').length`); n != 0 {
		t.Fatalf("collapsed group still shows its done line")
	}
	p.do(chromedp.KeyEvent(" "))
	p.waitJS(group+`.querySelector('.group-header').getAttribute('aria-expanded') === "true"`, 2*time.Second)
}

func TestStatusDots(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/statuses.jsonl", "max", "en")
	p.waitJS(`window.__result`, 20*time.Second)
	// Wait for the automatic collapse, then open the group.
	p.waitJS(`document.querySelector('[data-kind="group"] .group-header').getAttribute('aria-expanded') === "false"`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(`document.querySelectorAll('[data-kind="tool"]').length === 4`, 2*time.Second)

	type dot struct {
		ID, Status, Color string
	}
	got := eval[[]dot](p, `[...document.querySelectorAll('[data-kind="tool"]')].map(e => ({
		ID: e.dataset.toolId, Status: e.dataset.status,
		Color: getComputedStyle(e.querySelector('.dot')).backgroundColor}))`)
	want := map[string]string{"t1": "done", "t2": "error", "t3": "error", "t4": "interrupted"}
	colors := map[string]string{}
	for _, d := range got {
		if want[d.ID] != d.Status {
			t.Errorf("tool %s status %q, want %q", d.ID, d.Status, want[d.ID])
		}
		colors[d.Status] = d.Color
	}
	if colors["done"] == colors["error"] || colors["error"] == colors["interrupted"] || colors["done"] == colors["interrupted"] {
		t.Errorf("status colors are not distinct: %v", colors)
	}
	if !strings.Contains(colors["done"], "22, 163, 74") {
		t.Errorf("done dot is %s, want green", colors["done"])
	}
	if eval[string](p, `document.querySelector('[data-testid="conversation"]').dataset.agentStatus`) != "stopped" {
		t.Errorf("agent status is not stopped")
	}
	if eval[int](p, `document.querySelectorAll('[data-kind="stopped"]').length`) != 1 {
		t.Errorf("no stopped marker")
	}
	// A tool row opens its Request and its Response, red on error.
	p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="t2"] .tool-row`)))
	p.waitJS(`document.querySelector('[data-tool-id="t2"] .tool-response.is-error')`, 2*time.Second)
	if req := eval[string](p, `document.querySelector('[data-tool-id="t2"] .tool-request').textContent`); !strings.Contains(req, `"symbol": "t2"`) {
		t.Errorf("request shows %q, want indented JSON input", req)
	}
}

func TestQuestionSendsExactAnswers(t *testing.T) {
	p := newPage(t)
	p.replay("question", "max", "vi")
	q := `document.querySelector('[data-kind="question"]')`
	p.waitJS(q+` && `+q+`.dataset.state === "pending"`, 5*time.Second)
	// Focus moved to the form when it appeared.
	if !eval[bool](p, q+`.contains(document.activeElement)`) {
		t.Errorf("focus is not in the question form")
	}
	// option finds the option with that text in question n (1-based).
	option := func(n int, text string) string {
		return `[...document.querySelectorAll('[data-kind="question"] fieldset:nth-of-type(` + strconv.Itoa(n) + `) label.option')].find(l => l.querySelector('.option-label').textContent === ` + strconv.Quote(text) + `)`
	}
	// toggle clicks an option's label (a DOM click: a mouse click at the
	// label's coordinates could land elsewhere if the form moved between
	// the measure and the press) and waits until the page has drawn the
	// change, so the next click never races a render.
	toggle := func(n int, text string, checked bool) {
		t.Helper()
		eval[bool](p, `(l => (l.click(), true))(`+option(n, text)+`)`)
		p.waitJS(option(n, text)+`.querySelector('input').checked === `+strconv.FormatBool(checked), 10*time.Second)
	}
	// Submitting an incomplete form shows an error and sends nothing.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
	p.waitJS(q+`.querySelector('.form-error')`, 10*time.Second)
	if n := len(p.frames()); n != 0 {
		t.Fatalf("an incomplete form sent %d frames", n)
	}
	toggle(1, "Cổ tức bền vững (Recommended)", true)
	toggle(2, "Ngân hàng", true)
	toggle(2, "Thép", true)
	toggle(2, "Khác", true)
	free := `[data-kind="question"] fieldset:nth-of-type(2) input.free-text`
	p.waitJS(`document.querySelector('`+free+`')`, 10*time.Second)
	p.do(chromedp.SendKeys(chromedp.CSS(free), "Năng lượng"))
	p.waitJS(`document.querySelector('`+free+`').value === "Năng lượng"`, 10*time.Second)
	toggle(2, "Thép", false)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] fieldset:nth-of-type(3) [data-testid="question-skip"]`)))
	p.waitJS(`document.querySelector('[data-kind="question"] fieldset:nth-of-type(3)').classList.contains('skipped')`, 10*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
	p.waitJS(`(window.__stepwiseFrames || []).length > 0`, 10*time.Second)
	frames := p.frames()
	if len(frames) != 1 {
		t.Fatalf("sent %d frames, want 1: %v", len(frames), frames)
	}
	want := map[string]any{
		"Bạn muốn tập trung vào mục tiêu nào?": "Cổ tức bền vững (Recommended)",
		"Nhóm ngành quan tâm?":                 "Ngân hàng, Năng lượng",
		"Thời gian đầu tư?":                    "[No preference]",
	}
	f := frames[0]
	if f["type"] != "approval" || f["approval_key"] != "s1_q" || !reflect.DeepEqual(f["answers"], want) {
		t.Fatalf("frame = %v, want answers %v", f, want)
	}
	if _, has := f["decisions"]; has {
		t.Errorf("a question frame carries decisions: %v", f)
	}
	// The next frame disables the form (the handler already refuses a
	// second send).
	p.waitJS(`document.querySelector('[data-testid="question-submit"]').disabled`, 10*time.Second)
}
