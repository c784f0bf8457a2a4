//go:build browser

package browsertest

// Stepwise's own human-in-the-loop tools (state/client_tools.go) in the
// page, against the real AG-UI and AI SDK libraries: the cards, answered
// in the page, and what the library received; an interrupt's countdown
// and its expiry; an AI SDK tool's progress (preliminary outputs) on ai 7.

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"stepwise/server/agentproxy"
	"stepwise/state/wire"
)

// shots saves the page as it is now, light and dark, at 360 px and on a
// desktop (1100 px): NAME-THEME-WIDTH.png. The page goes back to its own
// size and theme after.
func (p *page) shots(name string) {
	p.t.Helper()
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
			}); err != nil {
				p.t.Fatal(err)
			}
			if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: int64(width), Height: 900, DeviceScaleFactor: 1, Mobile: width < 500,
			}); err != nil {
				p.t.Fatal(err)
			}
			// The transitions the new size starts (the drawer sliding away)
			// end, and two frames paint it.
			p.waitJS(`document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState !== "running")`, 5*time.Second)
			// What the test looks at is the newest: at the end.
			eval[bool](p, `(c => { c.scrollTop = c.scrollHeight; return true })(document.getElementById('conversation'))`)
			eval[bool](p, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			p.screenshot(name + "-" + theme + "-" + itoa(width))
		}
	}
	if _, err := chromedp.Call(p.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		p.t.Fatal(err)
	}
}

const pendingApprove = `[data-kind="approval"][data-state="pending"] [data-decision="approve"]`

func TestAGUIClientToolsInTheBrowser(t *testing.T) {
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p := newPage(t)
	p.openAt(base, "/?session=agui-client-tools&lang=en")
	p.waitConnected()

	// The .NET hosting's request_approval: an approval card, approved in
	// the page; the agent gets a tool message with the approval's id.
	p.send("Please approve expense report EXP-2024-001")
	p.waitJS(`document.querySelector('`+pendingApprove+`') !== null`, 60*time.Second)
	card := eval[string](p, `document.querySelector('[data-kind="approval"]').textContent`)
	if !strings.Contains(card, "Allow Approve expense report to run?") || !strings.Contains(card, "Approve execution of 'ApproveExpenseReport'?") || !strings.Contains(card, "EXP-2024-001") {
		t.Fatalf("the card reads %q", card)
	}
	if n := eval[int](p, countKind("tool")); n != 0 {
		t.Fatalf("the request_approval call shows as %d tool steps: the card stands for it", n)
	}
	p.shots("client-tool-approval")
	p.axe("a client tool's approval card")
	p.click(pendingApprove)
	p.waitJS(lastText+` === "Expense report EXP-2024-001 is approved."`, 60*time.Second)
	var requests []wire.RunAgentInput
	getJSON(t, backend+"/requests", &requests)
	answer := requests[len(requests)-1].Messages[len(requests[len(requests)-1].Messages)-1]
	var content string
	var result map[string]any
	if err := json.Unmarshal(answer.Content, &content); err != nil || answer.Role != "tool" || json.Unmarshal([]byte(content), &result) != nil ||
		len(result) != 2 || result["approval_id"] != "ficc-1" || result["approved"] != true {
		t.Fatalf("the agent got %s", mustJSON(t, answer))
	}

	// ask_user, which Stepwise offers: a choice, answered in the page.
	p.send("Ask me which city")
	p.waitJS(`document.querySelector('[data-kind="form"][data-state="pending"] select') !== null`, 60*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="form"]').textContent`); !strings.Contains(got, "Which city?") {
		t.Fatalf("the form reads %q", got)
	}
	p.shots("client-tool-ask")
	p.axe("a client tool's question")
	eval[bool](p, `(s => { s.value = "1"; return s.dispatchEvent(new Event("change", {bubbles: true})) })(document.querySelector('[data-kind="form"] select'))`)
	p.click(`[data-kind="form"][data-state="pending"] [data-testid="form-submit"]`)
	p.waitJS(lastText+` === "You chose Hue."`, 60*time.Second)

	// A reload shows both cards answered.
	p.reload()
	p.waitJS(countKind("user")+` === 2`, 20*time.Second)
	if got := eval[string](p, `[...document.querySelectorAll('[data-kind="approval"], [data-kind="form"]')].map(e => e.dataset.state).join()`); got != "approved,answered" {
		t.Fatalf("after the reload the cards are %q", got)
	}

	// An interrupt with expiresAt: the time left, then the card expires,
	// and the next message cancels it (the agent accepts).
	p.send("A deadline please")
	p.waitJS(`document.querySelector('[data-kind="form"][data-state="pending"] [role="timer"]') !== null`, 60*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="form"][data-state="pending"] [role="timer"]').textContent`); !strings.HasPrefix(got, "59:") && !strings.HasPrefix(got, "60:") {
		t.Fatalf("the countdown reads %q", got)
	}
	p.shots("interrupt-countdown")
	p.axe("an interrupt's countdown")
	p.send("A quick deadline please")
	p.waitJS(`[...document.querySelectorAll('[data-kind="form"]')].filter(e => e.dataset.state === "expired").length === 2`, 30*time.Second)
	p.send("What is the weather in Hanoi?")
	p.waitJS(lastText+` === "It is 31 degrees and sunny in Hanoi."`, 60*time.Second)
	getJSON(t, backend+"/requests", &requests)
	resume := requests[len(requests)-1].Resume
	if len(resume) != 1 || resume[0].Status != "cancelled" || !strings.HasPrefix(resume[0].InterruptID, "deadline-") {
		t.Fatalf("resume %s", mustJSON(t, resume))
	}
}

func TestAISDKClientToolsInTheBrowser(t *testing.T) {
	backend := startAISDKServer(t, "7")
	base := agentSite(t, agentproxy.AISDK, backend+"/api/chat")
	p := newPage(t)
	p.openAt(base, "/?session=aisdk-client-tools&lang=fr")
	p.waitConnected()

	// askUser (no execute on the route): a form, answered as
	// addToolOutput does; the model reads the answer.
	p.send("Ask me which city")
	p.waitJS(`document.querySelector('[data-kind="form"][data-state="pending"] select') !== null`, 60*time.Second)
	eval[bool](p, `(s => { s.value = "0"; return s.dispatchEvent(new Event("change", {bubbles: true})) })(document.querySelector('[data-kind="form"] select'))`)
	p.click(`[data-kind="form"][data-state="pending"] [data-testid="form-submit"]`)
	p.waitJS(lastText+` === "You chose Hanoi."`, 60*time.Second)
	var requests []wire.UIChatRequest
	getJSON(t, backend+"/requests", &requests)
	last := requests[len(requests)-1]
	part := last.Messages[len(last.Messages)-1].Parts[1]
	if part.Type != "tool-askUser" || part.State != "output-available" || string(part.Output) != `{"answer":"Hanoi"}` || last.MessageID == "" {
		t.Fatalf("the route got %s", mustJSON(t, last))
	}

	// requestApproval: approved in the page (French).
	p.send("Please confirm the payment")
	p.waitJS(`document.querySelector('`+pendingApprove+`') !== null`, 60*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="approval"]').textContent`); !strings.Contains(got, "Autoriser Pay invoice ?") || !strings.Contains(got, "Pay invoice 42 (120 EUR)?") {
		t.Fatalf("the card reads %q", got)
	}
	p.click(pendingApprove)
	p.waitJS(lastText+` === "The invoice was paid."`, 60*time.Second)

	// A tool's progress: its preliminary output shows while it runs, and
	// the final one replaces it.
	p.send("Flights please")
	p.waitJS(`(e => e && e.dataset.status === "active")(document.querySelector('[data-tool-id="call-searchFlights-5"]'))`, 60*time.Second)
	p.waitJS(`document.querySelector('[data-tool-id="call-searchFlights-5"]').textContent.includes("Searching flights from HAN to SGN")`, 10*time.Second,
		`document.querySelector('[data-tool-id="call-searchFlights-5"]').textContent`)
	p.shots("aisdk-tool-progress")
	p.axe("a tool's progress")
	post(t, backend+"/release")
	p.waitJS(lastText+` === "The cheapest flight is VN 123."`, 60*time.Second)
	p.waitJS(`document.querySelector('[data-tool-id="call-searchFlights-5"]').dataset.status === "done"`, 10*time.Second)
}

// A sub-agent's work in its own group, nested after the tool that spawned
// it, running while it works, then collapsed with its parent's.
func TestAGUISubagentsInTheBrowser(t *testing.T) {
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p := newPage(t)
	p.openAt(base, "/?session=agui-subagents&lang=en")
	p.waitConnected()

	p.send("Do some research")
	sub := `document.querySelector('[data-kind="group"] [data-kind="group"][data-subagent="researcher"]')`
	p.waitJS(sub+` && `+sub+`.dataset.state === "running" && `+sub+`.querySelector('[data-tool-id="call-search-1"]')`, 60*time.Second)
	if got := eval[string](p, sub+`.querySelector('.group-title').textContent`); got != "Researcher (sub-agent)" {
		t.Fatalf("the sub-agent's group is titled %q", got)
	}
	if !eval[bool](p, sub+`.textContent.includes("Finds and reads sources")`) {
		t.Fatal("the sub-agent's description is not shown")
	}
	// A live activity card in the sub-agent's group: its summary and how
	// far along it is, as the deltas change them.
	activity := sub + `.querySelector('[data-kind="activity"][data-activity-type="reading"]')`
	p.waitJS(activity+` && `+activity+`.textContent.includes("Reading sources · reading") && `+activity+`.textContent.includes("67%")`, 10*time.Second, activity+`.textContent`)
	p.shots("agui-subagent-running")
	p.axe("a sub-agent running, a live activity")
	post(t, backend+"/release")
	p.waitJS(lastText+` === "The researcher found that sub-agents attribute their events."`, 60*time.Second)
	p.waitIdle()
	// Open the parent's group, then the sub-agent's: its answer is a step.
	p.waitJS(`document.querySelector('[data-kind="group"]').dataset.state === "done"`, 10*time.Second)
	p.waitJS(`document.querySelector('[data-kind="group"] > .group-header').getAttribute('aria-expanded') === "false"`, 10*time.Second)
	p.click(`[data-kind="group"] > .group-header`)
	p.waitJS(sub+` !== null`, 5*time.Second)
	p.click(`[data-subagent="researcher"] > .group-header`)
	p.waitJS(sub+`.textContent.includes("Sub-agents attribute their events.")`, 5*time.Second)
	if got := eval[string](p, activity+`.textContent`); !strings.Contains(got, "Reading sources · done") || !strings.Contains(got, "100%") {
		t.Fatalf("the activity reads %q once done", got)
	}
	if n := eval[int](p, `[...document.querySelectorAll('[data-kind="text"]')].filter(e => !e.closest('[data-kind="group"]')).length`); n != 2 {
		t.Fatalf("%d answers at top level: the sub-agent's text belongs in its group", n)
	}
	p.shots("agui-subagent-done")
	p.axe("a sub-agent's group opened")
}
