//go:build browser

package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/chromedp"
)

// pendingCard finds the pending card of a kind (approval, question, form).
func pendingCard(kind string) string {
	return `document.querySelector('[data-kind="` + kind + `"][data-state="pending"]')`
}

// altShift are the modifiers of the cards' shortcut (Alt+Shift+A).
var altShift = []chromedp.Modifier{chromedp.ModifierAlt, chromedp.ModifierShift}

// typeKeys types text as key presses into whatever has focus, one key at a
// time, as a person does (chromedp.SendKeys would focus its target first).
func (p *page) typeKeys(text string) {
	p.t.Helper()
	for _, r := range text {
		p.do(chromedp.KeyEvent(string(r)))
	}
}

// afterFrames waits until the page has drawn two more animation frames:
// anything a mount deferred (focus, a render) has happened by then.
func (p *page) afterFrames() {
	p.t.Helper()
	p.waitJS(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 10*time.Second)
}

// settled waits until the element sel names is on the page and stays in
// place for a frame (what a mouse click aims at).
func (p *page) settled(sel string) {
	p.t.Helper()
	p.waitJS(`new Promise(r => { let last = ""; const tick = n => {
		const el = document.querySelector(`+strconv.Quote(sel)+`);
		const box = el ? JSON.stringify(el.getBoundingClientRect()) : "";
		if (box && box === last) r(true); else if (n > 60) r(false); else { last = box; requestAnimationFrame(() => tick(n + 1)); }
	}; tick(0); })`, 10*time.Second)
}

// loggedTypes lists the types of the session's stored events.
func loggedTypes(t *testing.T, session string) []string {
	t.Helper()
	events, err := agent.Events(session)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ev := range events {
		s := string(ev)
		if i := strings.Index(s, `"type":"`); i >= 0 {
			s = s[i+len(`"type":"`):]
			types = append(types, s[:strings.IndexByte(s, '"')])
		}
	}
	return types
}

// typeWhileCardMounts types into the composer while the run, held at its
// gate, goes on and shows a card of kind: some words before, the card's
// arrival in the middle of a word, and more words (spaces and Enter-free)
// after it is drawn. It returns all that was typed.
func typeWhileCardMounts(p *page, session, kind string) string {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="composer"]`)))
	eval[bool](p, `(document.getElementById("composer-input").value = "") === ""`)
	typed := "Actually wait, make "
	p.typeKeys(typed)
	if !agent.Release(session) {
		p.t.Fatal("the run is not in the agent")
	}
	// Keep typing, a key at a time, until the card is there...
	more := "it fifty shares and "
	i := 0
	for ; i < len(more) && !eval[bool](p, `!!`+pendingCard(kind)); i++ {
		p.typeKeys(more[i : i+1])
	}
	p.waitJS(pendingCard(kind), 15*time.Second)
	typed += more[:i]
	// ...and on, across the frames in which it mounts.
	rest := more[i:] + " not at market price please"
	for _, r := range rest {
		p.typeKeys(string(r))
		if r == ' ' {
			p.afterFrames()
		}
	}
	return typed + rest
}

// Typing in the composer while an approval card arrives neither moves the
// focus nor approves anything: the card is announced, and the text typed is
// all there.
func TestTypingWhileApprovalArrivesApprovesNothing(t *testing.T) {
	const session = "type-approval"
	p := newPage(t)
	p.open("/?session=" + session + "&lang=en")
	p.waitConnected()
	p.send("/gated-approval")
	p.waitJS(`document.querySelector('[data-kind="tool"][data-status="active"]')`, 15*time.Second)
	typed := typeWhileCardMounts(p, session, "approval")
	p.afterFrames()
	if got := eval[string](p, composerValue); got != typed {
		t.Errorf("the composer holds %q, want %q", got, typed)
	}
	if !eval[bool](p, `document.activeElement === document.getElementById("composer-input")`) {
		t.Errorf("focus moved to %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	if eval[bool](p, `!!`+pendingCard("approval")+`.querySelector("button:disabled")`) {
		t.Error("the approval card is sending")
	}
	for _, typ := range loggedTypes(t, session) {
		if typ == "approval_result" {
			t.Fatal("typing answered the approval")
		}
	}
	// The status region says a card waits, and how to reach it.
	p.waitJS(`document.querySelector('[data-testid="announcer"]').textContent.includes("Alt+Shift+A")`, 5*time.Second,
		`document.querySelector('[data-testid="announcer"]').textContent`)
	// The shortcut goes to the card (its group, not a button), and back.
	p.do(chromedp.KeyEvent("A", chromedp.KeyModifiers(altShift...)))
	p.waitJS(`document.activeElement === `+pendingCard("approval"), 5*time.Second, `document.activeElement.outerHTML.slice(0, 120)`)
	p.do(chromedp.KeyEvent(" "))
	p.afterFrames()
	if got := eval[string](p, composerValue); got != typed {
		t.Errorf("the composer holds %q, want %q", got, typed)
	}
	p.do(chromedp.KeyEvent("A", chromedp.KeyModifiers(altShift...)))
	p.waitJS(`document.activeElement === document.getElementById("composer-input")`, 5*time.Second)
	if n := len(loggedTypes(t, session)); eval[bool](p, pendingCard("approval")+` === null`) {
		t.Fatalf("the card is no longer pending (%d events)", n)
	}

	// After F5 the focus is not on Approve either: on the card's group
	// (the composer is empty and nothing else has it).
	p.reload()
	p.waitJS(pendingCard("approval"), 15*time.Second)
	p.afterFrames()
	if eval[bool](p, `document.activeElement && document.activeElement.matches('button')`) {
		t.Errorf("after a reload focus is on %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	if eval[string](p, composerValue) == "" && !eval[bool](p, `document.activeElement === `+pendingCard("approval")) {
		t.Errorf("a page opening on a waiting card with nothing else focused: focus on %s, want the card",
			eval[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	p.do(chromedp.KeyEvent(" "))
	p.afterFrames()
	for _, typ := range loggedTypes(t, session) {
		if typ == "approval_result" {
			t.Fatal("a space after the reload answered the approval")
		}
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] button[data-decision="reject"]`)))
	// The reason field that opens grows the conversation, which keeps its
	// end in view: a click aimed before that scroll lands above Send.
	p.settled(`[data-testid="approval-send"]`)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="approval-send"]`)))
	p.waitJS(agentStatus+` === "idle"`, 15*time.Second)
}

// The same with a question: the first option is not chosen by a typed
// space, and the rest of the words stay in the composer.
func TestTypingWhileQuestionArrivesAnswersNothing(t *testing.T) {
	const session = "type-question"
	p := newPage(t)
	p.open("/?session=" + session + "&lang=en")
	p.waitConnected()
	p.send("/gated-question")
	p.waitJS(`document.querySelector('[data-kind="text"]') && document.querySelector('[data-kind="text"]').textContent.includes("One question first")`, 15*time.Second)
	typed := typeWhileCardMounts(p, session, "question")
	p.afterFrames()
	if got := eval[string](p, composerValue); got != typed {
		t.Errorf("the composer holds %q, want %q", got, typed)
	}
	if n := eval[int](p, `document.querySelectorAll('[data-kind="question"] input:checked').length`); n != 0 {
		t.Errorf("typing chose %d options", n)
	}
	if !eval[bool](p, `document.activeElement === document.getElementById("composer-input")`) {
		t.Errorf("focus moved to %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	for _, typ := range loggedTypes(t, session) {
		if typ == "approval_result" {
			t.Fatal("typing answered the question")
		}
	}
	p.reload()
	p.waitJS(pendingCard("question"), 15*time.Second)
	p.afterFrames()
	if eval[bool](p, `document.activeElement && document.activeElement.matches('input, button')`) {
		t.Errorf("after a reload focus is on %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] .option`)),
		chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
	p.waitJS(agentStatus+` === "idle"`, 15*time.Second)
}

const (
	sourcesPanel  = `document.querySelector('[data-testid="sources-panel"]')`
	sourcesButton = `document.querySelector('[data-testid="sources-button"]')`
	// sourcesClosed: the panel is gone and the focus is back on its button.
	sourcesClosed = `!` + sourcesPanel + ` && document.activeElement === ` + sourcesButton +
		` && ` + sourcesButton + `.getAttribute("aria-expanded") === "false"`
)

// openSources opens the sources panel from its button and waits until the
// focus is in it.
func (p *page) openSources() {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="sources-button"]`)))
	p.waitJS(sourcesPanel+` && `+sourcesPanel+`.contains(document.activeElement)`, 5*time.Second,
		`document.activeElement.outerHTML.slice(0, 120)`)
}

// The sources panel closes as the conversations drawer does: its close
// button, Escape, the backdrop on a phone; the focus goes back to its
// button. On a phone the back button closes it and stays in the
// conversation (a new conversation, whose address the page rewrote, too).
func TestSourcesPanelCloses(t *testing.T) {
	for _, width := range []int{360, 1100} {
		t.Run(itoa(width), func(t *testing.T) {
			p := newPage(t)
			p.sized("light", width)
			p.open("/?lang=en")
			p.waitConnected()
			p.send("/search")
			p.waitJS(`document.querySelector('[data-testid="conversation-link"][aria-current="page"]')`, 10*time.Second)
			p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-kind="text"]')`, 30*time.Second)
			p.do(chromedp.Evaluate[chromedp.Void](`window.__samePage = true`))
			address := eval[string](p, `location.href`)

			p.openSources()
			if width < 720 {
				// Over the conversation, with room for a backdrop.
				if probs := eval[[]string](p, layoutProblems); len(probs) > 0 {
					t.Fatalf("layout with the panel open: %v", probs)
				}
				if !eval[bool](p, `(r => r.left > 0 && r.right <= innerWidth)(`+sourcesPanel+`.getBoundingClientRect())`) {
					t.Error("the panel leaves no backdrop to tap")
				}
			}
			p.do(chromedp.Click(chromedp.CSS(`[data-testid="sources-close"]`)))
			p.waitJS(sourcesClosed, 5*time.Second, `document.activeElement.outerHTML.slice(0, 120)`)

			p.openSources()
			p.do(chromedp.KeyEvent("\x1b"))
			p.waitJS(sourcesClosed, 5*time.Second, `document.activeElement.outerHTML.slice(0, 120)`)

			if width < 720 {
				p.openSources()
				p.do(chromedp.MouseClickXY(8, 300))
				p.waitJS(sourcesClosed, 5*time.Second, `document.activeElement.outerHTML.slice(0, 120)`)

				p.openSources()
				p.do(chromedp.NavigateBack())
				p.waitJS(`!`+sourcesPanel, 5*time.Second)
				if !eval[bool](p, `window.__samePage === true && location.href === `+jsString(address)) {
					t.Fatalf("the back button left the page: %s", eval[string](p, `location.href`))
				}
				// The app still runs: the panel opens and closes again, and
				// the history entry the panel added is gone with it.
				p.openSources()
				p.do(chromedp.Click(chromedp.CSS(`[data-testid="sources-close"]`)))
				p.waitJS(sourcesClosed, 5*time.Second)
				if n := eval[int](p, `document.querySelectorAll('[data-kind="text"]').length`); n == 0 {
					t.Fatal("the conversation is gone")
				}
			}
		})
	}
}

// TestCardsScreens saves the cards and panels, light and dark, at 360 px
// and on a desktop, for a person to look at (STEPWISE_SCREENS=1).
func TestCardsScreens(t *testing.T) {
	if !screensWanted() {
		t.Skip("set STEPWISE_SCREENS=1 to save screenshots in testdata/screens")
	}
	shots := []struct {
		name, url string
		prepare   func(p *page)
	}{
		{"card-approval", "/?replay=/fixtures/approval.jsonl&rate=max&lang=en", func(p *page) {
			p.waitJS(pendingCard("approval"), 5*time.Second)
		}},
		{"card-question", "/?replay=/scenarios/question.jsonl&rate=max&lang=vi", func(p *page) {
			p.waitJS(pendingCard("question"), 5*time.Second)
		}},
		{"sources-open", "/?replay=/scenarios/search.jsonl&rate=max&lang=fr", func(p *page) {
			p.openSources()
		}},
		{"group-failed", "/?replay=/scenarios/parallel.jsonl&rate=max&lang=en", func(p *page) {
			p.waitJS(`document.querySelector('[data-kind="group"][data-state="done"] .group-header[aria-expanded="false"]')`, 5*time.Second)
		}},
		{"group-failed-open", "/?replay=/fixtures/statuses.jsonl&rate=max&lang=fr", func(p *page) {
			p.waitJS(`document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
			p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="t3"] .tool-row`)))
		}},
		{"answer-look", "/?replay=/fixtures/answer-look.jsonl&rate=max&lang=vi", func(p *page) {}},
		{"cited", "/?replay=/fixtures/anthropic-cited-answer.jsonl&rate=max&lang=fr", func(p *page) {}},
	}
	for _, s := range shots {
		t.Run(s.name, func(t *testing.T) {
			p := newPage(t)
			p.open(s.url)
			p.waitJS(`window.__result`, 30*time.Second)
			s.prepare(p)
			p.screens(s.name)
		})
	}
}

// A collapsed group says in its header that a step failed and one was
// cancelled; inside, the cancelled tool has its own dot and words, and its
// empty response says it was cancelled, in no red box.
func TestGroupShowsFailedAndCancelledSteps(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/statuses.jsonl", "max", "en")
	p.waitJS(`window.__result`, 20*time.Second)
	header := `document.querySelector('[data-kind="group"] .group-header')`
	p.waitJS(header+`.getAttribute('aria-expanded') === "false"`, 5*time.Second)
	if got := eval[string](p, header+`.querySelector('[data-testid="group-outcome"]').innerText`); !strings.Contains(got, "1 step failed") || !strings.Contains(got, "1 cancelled") {
		t.Errorf("the collapsed group's header says %q", got)
	}
	if !eval[bool](p, `(o => o.getBoundingClientRect().width > 0 && o.getBoundingClientRect().right <= `+header+`.getBoundingClientRect().right)(`+header+`.querySelector('.outcome-failed'))`) {
		t.Error("the outcome is not shown in the header")
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(`document.querySelector('[data-tool-id="t3"]')`, 2*time.Second)
	dot := func(id string) string {
		return eval[string](p, `(d => getComputedStyle(d).backgroundColor + " " + getComputedStyle(d).borderTopColor)(document.querySelector('[data-tool-id="`+id+`"] .dot'))`)
	}
	if failed, cancelled := dot("t2"), dot("t3"); failed == cancelled {
		t.Errorf("the cancelled tool's dot looks like the failed one's: %s", cancelled)
	}
	if got := eval[string](p, `document.querySelector('[data-tool-id="t3"] .tool-row').textContent`); !strings.Contains(got, "Cancelled") || strings.Contains(got, "Failed") {
		t.Errorf("the cancelled tool's row says %q", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="t3"] .tool-row`)))
	p.waitJS(`document.querySelector('[data-tool-id="t3"] .tool-response')`, 2*time.Second)
	if eval[bool](p, `document.querySelector('[data-tool-id="t3"] .tool-response').classList.contains("is-error")`) {
		t.Error("the cancelled tool's response is an error box")
	}
	if got := eval[string](p, `document.querySelector('[data-tool-id="t3"] .tool-response').textContent`); got != "Cancelled before it returned." {
		t.Errorf("the cancelled tool's response says %q", got)
	}
}

// The Sources button counts the sources the panel lists and is not there
// while there are none; a search block reads "🔍 Web search 2 results" with
// no brackets; a result's age is in the UI's language.
func TestSourcesBadgeSearchBlockAndAges(t *testing.T) {
	p := newPage(t)
	p.open("/?lang=vi")
	if eval[bool](p, `!!`+sourcesButton) {
		t.Error("a conversation with no sources shows a Sources button")
	}
	p.replayURL("/fixtures/anthropic-cited-answer.jsonl", "max", "vi")
	p.waitJS(`window.__result`, 30*time.Second)
	block := eval[string](p, `document.querySelector('[data-testid="web-search"]').innerText`)
	if strings.ContainsAny(block, "[]") || !strings.Contains(block, "kết quả") {
		t.Errorf("the search block reads %q", block)
	}
	p.openSources()
	listed := eval[int](p, sourcesPanel+`.querySelectorAll('.source').length`)
	if badge := eval[string](p, sourcesButton+`.querySelector('.badge').textContent`); badge != itoa(listed) {
		t.Errorf("the badge says %s, the panel lists %d sources", badge, listed)
	}
	ages := eval[string](p, sourcesPanel+`.innerText`)
	if strings.Contains(ages, "ago") || !strings.Contains(ages, "giờ trước") {
		t.Errorf("the ages are not in Vietnamese: %q", ages)
	}
}

// countdownSeconds is the time a pending question's countdown shows.
const countdownSeconds = `(t => (m => m ? +m[1] * 60 + +m[2] : -1)(t.match(/(\d+):(\d\d)/)))(document.querySelector('[data-kind="question"] [role="timer"]').textContent)`

// After F5 a question's countdown shows the time the agent still waits
// (its created_at plus its timeout), not a fresh ten minutes.
func TestQuestionCountdownAfterReload(t *testing.T) {
	const session = "countdown-reload"
	p := newPage(t)
	p.open("/?session=" + session + "&lang=en")
	p.waitConnected()
	p.send("/gated-question")
	p.waitJS(`document.querySelector('[data-kind="text"]')`, 15*time.Second)
	agent.Release(session)
	p.waitJS(pendingCard("question"), 15*time.Second)
	first := eval[int](p, countdownSeconds)
	// The countdown has gone down two seconds...
	p.waitJS(countdownSeconds+` <= `+itoa(first-2), 10*time.Second, countdownSeconds)
	before := eval[int](p, countdownSeconds)
	// ...and goes on from there after a reload.
	p.reload()
	p.waitJS(pendingCard("question"), 15*time.Second)
	if after := eval[int](p, countdownSeconds); after > before || after < before-30 {
		t.Errorf("after the reload the countdown shows %d s; before it, %d s", after, before)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] .option`)),
		chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
	p.waitJS(agentStatus+` === "idle"`, 15*time.Second)
}

// Enter in a card's one-line field sends the card: the "Other" answer of a
// question, the reason of a rejection.
func TestEnterSendsOtherAnswerAndRejectReason(t *testing.T) {
	const session = "enter-sends"
	p := newPage(t)
	p.open("/?session=" + session + "&lang=en")
	p.waitConnected()
	p.send("/gated-question")
	p.waitJS(`document.querySelector('[data-kind="text"]')`, 15*time.Second)
	agent.Release(session)
	p.waitJS(pendingCard("question"), 15*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] .option:nth-child(3)`)))
	p.waitJS(`document.querySelector('[data-kind="question"] .free-text')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] .free-text`)))
	p.typeKeys("Value stocks")
	p.do(chromedp.KeyEvent("\r"))
	p.waitJS(`document.querySelector('[data-kind="question"][data-state="answered"]')`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="question"] .qa-answer').textContent`); got != "Value stocks" {
		t.Errorf("the answer sent is %q", got)
	}
	p.waitJS(agentStatus+` === "idle"`, 15*time.Second)

	p.do(chromedp.Click(chromedp.CSS(`[data-testid="composer"]`)))
	p.send("/gated-approval")
	p.waitJS(`document.querySelector('[data-kind="tool"][data-status="active"]')`, 15*time.Second)
	agent.Release(session)
	p.waitJS(pendingCard("approval"), 15*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] button[data-decision="reject"]`)))
	p.waitJS(`document.querySelector('[data-kind="approval"] .field input')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] .field input`)))
	p.typeKeys("Too many shares")
	p.do(chromedp.KeyEvent("\r"))
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="rejected"]')`, 10*time.Second)
	events, err := agent.Events(session)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range events {
		found = found || strings.Contains(string(ev), `"type":"reject"`) && strings.Contains(string(ev), "Too many shares")
	}
	if !found {
		t.Error("the rejection and its reason were not sent")
	}
}

// The embed example gives each visitor a conversation of their own, the
// same one again when they come back.
func TestEmbedExampleSessionPerVisitor(t *testing.T) {
	sessionOf := func(p *page) string {
		p.t.Helper()
		p.waitJS(`window.Stepwise && document.getElementById('stepwise-launcher')`, 20*time.Second)
		p.do(chromedp.Click(chromedp.ID("stepwise-launcher")))
		p.waitJS(`document.querySelector('#stepwise-panel iframe')`, 10*time.Second)
		return eval[string](p, `new URL(document.querySelector('#stepwise-panel iframe').src).searchParams.get("session") || ""`)
	}
	visitor := newPage(t)
	visitor.do(chromedp.Navigate(serverURL + "/web/embed-example.html"))
	first := sessionOf(visitor)
	if first == "" || first == "embed-example" {
		t.Fatalf("the visitor's session is %q", first)
	}
	visitor.do(chromedp.Reload())
	if again := sessionOf(visitor); again != first {
		t.Errorf("the visitor came back to session %q, not %q", again, first)
	}
	// Another visitor: another browser, another session.
	other := newPageWithJSFlags(t, 90*time.Second, "")
	other.do(chromedp.Navigate(serverURL + "/web/embed-example.html"))
	if s := sessionOf(other); s == "" || s == first {
		t.Errorf("another visitor got session %q (the first had %q)", s, first)
	}
}

// An answer's look on a phone: a wide table breaks its cells between
// words only and scrolls as a whole; a task list shows its checkboxes in
// place of bullets; Vietnamese in a code block is drawn from one font that
// has its letters (not from Liberation Mono's accents set side by side).
func TestAnswerLookOnPhone(t *testing.T) {
	p := newPage(t)
	p.sized("light", 360)
	p.replayURL("/fixtures/answer-look.jsonl", "max", "vi")
	p.waitJS(`window.__result && document.querySelector('.md-table td')`, 30*time.Second)
	if probs := eval[[]string](p, layoutProblems); len(probs) > 0 {
		t.Fatalf("layout: %v", probs)
	}
	// A cell's lines are no more than its words: no word is broken.
	broken := eval[[]string](p, `[...document.querySelectorAll('.md-table th, .md-table td')].filter(c => {
		const r = document.createRange();
		r.selectNodeContents(c);
		const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top))).size;
		return lines > c.textContent.trim().split(/\s+/).length;
	}).map(c => c.textContent + " " + c.getBoundingClientRect().width.toFixed(0) + "px")`)
	if len(broken) > 0 {
		t.Errorf("table cells break inside words: %q", broken)
	}
	if !eval[bool](p, `(b => b.scrollWidth > b.clientWidth && getComputedStyle(b).overflowX === "auto")(document.querySelector('.md-table'))`) {
		t.Error("the wide table does not scroll in its box")
	}
	// Task items: a checkbox, no bullet, inside the answer's column.
	tasks := eval[[]string](p, `[...document.querySelectorAll('.item.text li')].filter(li => li.querySelector('.md-task')).map(li =>
		getComputedStyle(li).listStyleType + " " + (li.querySelector('.md-task').getBoundingClientRect().left >= li.closest('.item.text').getBoundingClientRect().left))`)
	if len(tasks) != 3 {
		t.Fatalf("%d task items", len(tasks))
	}
	for _, s := range tasks {
		if s != "none true" {
			t.Errorf("a task item's bullet and checkbox: %s", s)
		}
	}
	nodes, err := chromedp.Run(p.ctx, chromedp.Nodes(chromedp.CSS(`.md-code code`)))
	if err != nil || len(nodes) == 0 {
		t.Fatalf("no code block: %v", err)
	}
	res, err := chromedp.Call(p.ctx, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: nodes[0].NodeID})
	if err != nil {
		t.Fatal(err)
	}
	var fonts []string
	for _, f := range res.Fonts {
		fonts = append(fonts, f.FamilyName)
	}
	if len(fonts) != 1 || fonts[0] == "Liberation Mono" || fonts[0] == "DejaVu Sans Mono" {
		t.Errorf("the Vietnamese code line is drawn in %v: want one monospace font with its letters (CI installs fonts-noto-mono)", fonts)
	}
}

// Citation markers are 24 px targets at least, and the spot a finger
// touches at their edge is theirs.
func TestCitationMarkersAreTapTargets(t *testing.T) {
	p := newPage(t)
	p.sized("light", 360)
	p.replayURL("/fixtures/anthropic-cited-answer.jsonl", "max", "en")
	p.waitJS(`window.__result && document.querySelector('[data-testid="citation"]')`, 30*time.Second)
	small := eval[[]string](p, `[...document.querySelectorAll('[data-testid="citation"]')].filter(c => {
		c.scrollIntoView({block: "center"});
		const r = c.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + 2, r.top + 2);
		return r.width < 24 || r.height < 24 || !(hit === c || c.contains(hit));
	}).map(c => c.textContent + " " + JSON.stringify(c.getBoundingClientRect()))`)
	if len(small) > 0 {
		t.Errorf("citation markers smaller than 24 px: %v", small)
	}
}

// The tab names the conversation; French "Nouvelle conversation" stays on
// one line, whole.
func TestTabTitleAndNewConversationInFrench(t *testing.T) {
	p := newPage(t)
	p.sized("light", 1100)
	p.open("/?lang=fr")
	p.waitConnected()
	// Its lines: the distinct tops of its text's boxes.
	const newConv = `(s => { const r = document.createRange(); r.selectNodeContents(s);
		return [new Set([...r.getClientRects()].map(q => Math.round(q.top))).size, s.scrollWidth, s.clientWidth]; })(document.querySelector('[data-testid="new-conversation"] span'))`
	if got := eval[[]float64](p, newConv); got[0] != 1 || got[1] > got[2] {
		t.Errorf("\"Nouvelle conversation\" wraps or is cut: %v lines, %v px wide in %v", got[0], got[1], got[2])
	}
	p.send("Bonjour, quel temps fait-il ?")
	p.waitJS(`document.querySelector('[data-testid="conversation-link"][aria-current="page"]')`, 10*time.Second)
	title := eval[string](p, `document.querySelector('[data-testid="conversation-link"][aria-current="page"]').textContent`)
	p.waitJS(`document.title === `+jsString(title+" — Stepwise"), 5*time.Second, `document.title`)
}
