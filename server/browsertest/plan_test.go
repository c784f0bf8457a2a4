//go:build browser

package browsertest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/server/demo"
	"stepwise/server/site"
)

// gatedPlan is the built-in plan scenario held at a gate after each
// write_todos call's result, so the test sees every version of the plan
// however busy the machine is.
func gatedPlan(t *testing.T) demo.Scenarios {
	t.Helper()
	scenarios, err := demo.LoadScenarios("")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	resultOpen := false // a write_todos result block is open
	gates := 0
	for _, st := range scenarios["plan"].Steps {
		line, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
		var ev struct {
			Type         string `json:"type"`
			ContentBlock struct {
				Type     string `json:"type"`
				ToolName string `json:"tool_name"`
			} `json:"content_block"`
		}
		json.Unmarshal(st.Event, &ev)
		switch {
		case ev.Type == "content_block_start" && ev.ContentBlock.Type == "tool_result" && ev.ContentBlock.ToolName == "write_todos":
			resultOpen = true
		case ev.Type == "content_block_stop" && resultOpen:
			resultOpen = false
			out.WriteString(`{"wait": "gate"}` + "\n")
			gates++
		}
	}
	if gates != 5 {
		t.Fatalf("the plan scenario has %d write_todos results, the test expects 5", gates)
	}
	sc, err := demo.ParseScenario("plan", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	scenarios["plan"] = sc
	return scenarios
}

// planView is what the header's plan control shows: the button's count
// and state, and the open popover's entries.
type planView struct {
	Expanded string   `json:"expanded"`
	Count    string   `json:"count"`
	Name     string   `json:"name"`
	Popover  []string `json:"popover"`
	Focused  bool     `json:"focused"`
}

const planViewJS = `(() => {
  const b = document.querySelector('[data-testid="plan-button"]');
  if (!b) return {expanded: "", count: "", name: "", popover: [], focused: false};
  return {
    expanded: b.getAttribute("aria-expanded"),
    count: b.querySelector('.plan-button-count [aria-hidden]').textContent,
    name: b.textContent.replace(/\s+/g, " ").trim(),
    popover: [...document.querySelectorAll('[data-testid="plan-popover"] [data-testid="plan-todo"]')].map(li => li.dataset.status),
    focused: document.activeElement === b,
  };
})()`

// stepStatuses is the statuses of each write_todos step's checklist in
// the conversation, oldest first.
const stepStatusesJS = `[...document.querySelectorAll('[data-testid="conversation"] [data-testid="plan-step"]')].map(s => [...s.querySelectorAll('[data-testid="plan-todo"]')].map(li => li.dataset.status).join(","))`

func (p *page) plan() planView {
	p.t.Helper()
	return eval[planView](p, planViewJS)
}

func (p *page) key(k string) {
	p.t.Helper()
	p.do(chromedp.KeyEvent(k))
}

// TestPlanHeaderFollowsTheAgent plays the plan scenario live: the header's
// Plan button follows each later write_todos call (open or closed), opens
// and closes by keyboard (Enter, Escape back to the button) and by a click
// elsewhere, and stays once the run is over and after F5; each step's
// checklist keeps its own call's statuses.
func TestPlanHeaderFollowsTheAgent(t *testing.T) {
	scenarios := gatedPlan(t)
	gated := openAgent(t, scenarios)
	gated.Speed = 4
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: gated}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)

	const session = "plan-live"
	p := newPage(t)
	p.focused()
	p.openAt(srv.URL, "/?session="+session+"&lang=en")
	p.waitConnected()
	if !eval[bool](p, `!!document.querySelector('[data-scenario="plan"]')`) {
		t.Error("the empty state does not offer the plan scenario")
	}
	if got := p.plan(); got.Count != "" {
		t.Fatalf("a plan button before any plan: %+v", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-scenario="plan"]`)))
	released := 0
	t.Cleanup(func() {
		for ; released < 6; released++ {
			gated.Release(session)
		}
	})
	waitCount := func(count string) {
		t.Helper()
		p.waitJS(`(`+planViewJS+`).count === "`+count+`"`, 20*time.Second)
	}

	// The first call: nothing done yet, the first step in progress.
	waitCount("0/4")
	got := p.plan()
	if got.Expanded != "false" || !strings.Contains(got.Name, "Plan") || !strings.Contains(got.Name, "0 of 4 done") {
		t.Fatalf("closed button: %+v", got)
	}
	// Keyboard: Enter opens it, Escape closes it with focus on the button.
	p.do(chromedp.Focus(chromedp.CSS(`[data-testid="plan-button"]`)))
	p.key("\r")
	p.waitJS(`(`+planViewJS+`).expanded === "true"`, 5*time.Second)
	if got := p.plan(); !slices.Equal(got.Popover, []string{"in_progress", "pending", "pending", "pending"}) {
		t.Fatalf("first plan: %+v", got)
	}
	p.screens("plan-first")
	p.key("\x1b") // Escape
	p.waitJS(`(`+planViewJS+`).expanded === "false"`, 5*time.Second)
	if got := p.plan(); !got.Focused || len(got.Popover) != 0 {
		t.Fatalf("after Escape: %+v (focus must be back on the button)", got)
	}

	// Open while the agent works: the list follows the next call.
	p.key("\r")
	p.waitJS(`(`+planViewJS+`).expanded === "true"`, 5*time.Second)
	gated.Release(session)
	released++
	waitCount("1/4")
	p.waitJS(`(`+planViewJS+`).popover.join() === "completed,in_progress,pending,pending"`, 5*time.Second)
	if got := p.plan(); got.Expanded != "true" {
		t.Fatalf("the update closed the plan: %+v", got)
	}
	p.screens("plan-open")

	// A click elsewhere closes it.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="conversation"]`)))
	p.waitJS(`(`+planViewJS+`).expanded === "false"`, 5*time.Second)

	// The later calls, the third one streamed as input_json_delta.
	for _, want := range []struct{ count, todos string }{
		{"2/4", "completed,completed,in_progress,pending"},
		{"3/4", "completed,completed,completed,in_progress"},
		{"4/4", "completed,completed,completed,completed"},
	} {
		gated.Release(session)
		released++
		waitCount(want.count)
		p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
		p.waitJS(`(`+planViewJS+`).popover.join() === "`+want.todos+`"`, 5*time.Second)
		p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
		p.waitJS(`(`+planViewJS+`).expanded === "false"`, 5*time.Second)
	}
	gated.Release(session)
	released++
	p.waitIdle()
	p.waitJS(`document.querySelector('[data-kind="text"]') && `+lastText+`.includes("4 bước")`, 10*time.Second)

	// The run is over: the plan stays in the header.
	if got := p.plan(); got.Count != "4/4" {
		t.Fatalf("after the run: %+v", got)
	}
	// Each step is a checklist of its own call.
	wantSteps := []string{
		"in_progress,pending,pending,pending",
		"completed,in_progress,pending,pending",
		"completed,completed,in_progress,pending",
		"completed,completed,completed,in_progress",
		"completed,completed,completed,completed",
	}
	p.waitJS(`document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(stepStatusesJS+`.length === 5`, 5*time.Second)
	if got := eval[[]string](p, stepStatusesJS); !slices.Equal(got, wantSteps) {
		t.Fatalf("the steps' checklists: %q, want %q", got, wantSteps)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
	p.waitJS(`(`+planViewJS+`).expanded === "true"`, 5*time.Second)
	p.screens("plan-done")

	// F5: the history brings the same plan back.
	p.reload()
	waitCount("4/4")
	p.waitJS(`document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(stepStatusesJS+`.length === 5`, 5*time.Second)
	if got := eval[[]string](p, stepStatusesJS); !slices.Equal(got, wantSteps) {
		t.Fatalf("after F5, the steps' checklists: %q", got)
	}
}

// TestPlanLayoutOnAPhone: at 360 px the header keeps every control on
// screen with the plan button in it, and the open plan fits the screen.
func TestPlanLayoutOnAPhone(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			p := newPage(t)
			p.sized(theme, 360)
			p.replay("plan", "max", "fr")
			p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
			p.waitJS(`document.querySelector('[data-testid="plan-popover"]')`, 5*time.Second)
			problems := eval[[]string](p, `(() => {
  const out = [], w = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > w) out.push("page scrolls sideways");
  // (No Sources button: the plan scenario has no sources.)
  for (const sel of ['[data-testid="plan-button"]', '[data-testid="plan-popover"]']) {
    const r = document.querySelector(sel).getBoundingClientRect();
    if (r.left < 0 || r.right > w || r.width < 24) out.push(sel + " off screen: " + JSON.stringify(r));
  }
  const pop = document.querySelector('[data-testid="plan-popover"]');
  if (pop.scrollWidth > pop.clientWidth) out.push("the plan scrolls sideways");
  return out;
})()`)
			for _, pr := range problems {
				t.Error(pr)
			}
			if screensWanted() {
				eval[bool](p, settled)
				p.screenshot("plan-phone-" + theme)
				p.do(chromedp.Click(chromedp.CSS(`[data-testid="plan-button"]`)))
				p.waitJS(`!document.querySelector('[data-testid="plan-popover"]')`, 5*time.Second)
				p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
				p.waitJS(`document.querySelector('[data-testid="plan-step"]')`, 5*time.Second)
				eval[bool](p, settled)
				p.screenshot("plan-phone-steps-" + theme)
			}
		})
	}
}
