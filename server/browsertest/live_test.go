//go:build browser

package browsertest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stepwise/state"
)

// serverView is what the session's own log builds: the page must show
// exactly this.
func serverView(t *testing.T, session string) map[string]any {
	t.Helper()
	st := state.New(state.DefaultOptions())
	events, err := agent.Events(session)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		st.ApplyJSON(ev)
	}
	b, _ := json.Marshal(st.View())
	var v map[string]any
	json.Unmarshal(b, &v)
	return v
}

func (p *page) view() map[string]any {
	p.t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(eval[string](p, `window.stepwise.view()`)), &v); err != nil {
		p.t.Fatal(err)
	}
	return v
}

func sameView(t *testing.T, got, want map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("page view differs from the server's:\npage:   %s\nserver: %s", g, w)
	}
}

// send types a message and presses Enter.
func (p *page) send(text string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), text))
	p.pressEnter()
}

const agentStatus = `document.querySelector('[data-testid="conversation"]').dataset.agentStatus`

// runningGroup is true while the gated-group scenario is held at its gate:
// a running group with both tools, the first one done.
const runningGroup = `(g => g && g.querySelectorAll('[data-kind="tool"]').length === 2 && ` +
	`g.querySelector('[data-tool-id^="gg-1."][data-status="done"]') && ` +
	`g.querySelector('[data-tool-id^="gg-2."][data-status="active"]'))` +
	`(document.querySelector('[data-kind="group"][data-state="running"]'))`

func TestLiveTurnAndReloadMidGroup(t *testing.T) {
	p := newPage(t)
	p.open("/?session=live-reload&lang=en")
	p.waitConnected()
	p.send("/gated-group")
	// Mid-run: the agent holds the run at its gate until Release.
	p.waitJS(runningGroup, 15*time.Second)
	p.reload()
	// The running group is there again, as it was, and goes on.
	p.waitJS(runningGroup, 15*time.Second)
	if !agent.Release("live-reload") {
		t.Fatal("the run is not in the agent")
	}
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-reload"))
	kinds := eval[[]string](p, `[...document.querySelectorAll('[data-testid="conversation"] .chunk > *')].map(e => (e.dataset.kind || e.querySelector('[data-kind]').dataset.kind))`)
	want := []string{"user", "text", "group", "text"}
	if len(kinds) != len(want) {
		t.Fatalf("top-level items %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("top-level items %v, want %v", kinds, want)
		}
	}
	if u := eval[int](p, `document.querySelectorAll('[data-kind="user"]').length`); u != 1 {
		t.Fatalf("%d user messages after the reload", u)
	}
	p.screenshot("live-turn")
}

func TestLiveStop(t *testing.T) {
	p := newPage(t)
	p.open("/?session=live-stop&lang=en")
	p.waitConnected()
	p.send("/gated-group")
	p.waitJS(runningGroup+` && document.querySelector('[data-testid="stop"]')`, 15*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	p.waitJS(agentStatus+` === "stopped" && document.querySelector('[data-kind="stopped"]')`, 10*time.Second)
	if eval[int](p, `document.querySelectorAll('[data-testid="stop"]').length`) != 0 {
		t.Error("the stop button stays after the agent stopped")
	}
	sameView(t, p.view(), serverView(t, "live-stop"))
	v := p.view()
	for _, it := range v["items"].([]any) {
		if g, ok := it.(map[string]any); ok && g["kind"] == "group" {
			for _, st := range g["steps"].([]any) {
				if s := st.(map[string]any)["status"]; s == "active" {
					t.Errorf("a tool is still active after stop")
				}
			}
		}
	}
}

func TestQuestionAndApprovalAcrossReload(t *testing.T) {
	p := newPage(t)
	p.open("/?session=live-qa&lang=en")
	p.waitConnected()
	p.send("/question")
	p.waitJS(`document.querySelector('[data-kind="question"][data-state="pending"]')`, 15*time.Second)
	p.reload()
	p.waitJS(`document.querySelector('[data-kind="question"][data-state="pending"]')`, 10*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="question"]').length`); n != 1 {
		t.Fatalf("%d questions after the reload", n)
	}
	for _, fs := range []string{"1", "2", "3"} {
		p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] fieldset:nth-of-type(` + fs + `) [data-testid="question-skip"]`)))
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
	p.waitJS(`document.querySelector('[data-kind="question"][data-state="answered"]')`, 10*time.Second)
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-qa"))

	p.send("/approval")
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"]')`, 15*time.Second)
	p.reload()
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"] button[data-decision="approve"]')`, 10*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] button[data-decision="approve"]`)))
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="approved"]')`, 10*time.Second)
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-qa"))
}

func TestLiveOverSSE(t *testing.T) {
	p := newPage(t)
	p.open("/?session=live-sse&transport=sse&lang=en")
	p.waitConnected()
	p.send("/parallel")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-kind="group"]')`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-sse"))
	// A message while the agent runs (held at its gate) is queued for the
	// run's end (sending_test.go has the rest).
	p.send("/gated-group")
	p.waitJS(runningGroup, 15*time.Second)
	p.send("again")
	p.waitJS(`document.querySelector('[data-testid="outgoing"][data-state="queued"]')`, 10*time.Second)
	p.reload()
	p.waitJS(`document.querySelectorAll('[data-kind="user"]').length === 2 && `+runningGroup, 20*time.Second)
	if !agent.Release("live-sse") {
		t.Fatal("the run is not in the agent")
	}
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-sse"))
}
