//go:build browser

package browsertest

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// shapeOf serialises an element's subtree with attributes sorted (go-app
// sets them in any order): two renders of the same items compare equal.
const shapeOf = `(function shape(n) {
  if (n.nodeType === 3) return JSON.stringify(n.data);
  if (n.nodeType !== 1) return "";
  const attrs = [...n.attributes].map(a => a.name + "=" + a.value).sort().join(" ");
  return "<" + n.localName + " " + attrs + ">" + [...n.childNodes].map(shape).join("") + "</>";
})`

// watchChunks notes, after every task (a MutationObserver's callback),
// the fewest and most items a chunk holds: a chunk drawn empty or holding
// a copy beside its live items would show. A chunk waiting to be drawn
// (app/dom/draw.go: a batch that brought three or more chunks, which a live
// stream can do) is empty by design and not counted while it is.
const watchChunks = `window.__chunks = {min: 1e9, max: 0, first: ""}; new MutationObserver(() => {
  const all = document.querySelectorAll('#conversation > .chunks > .chunk');
  all.forEach((c, i) => {
    const n = c.children.length, waiting = c.hasAttribute('data-waiting');
    if (waiting && n === 0) {
      return;
    }
    if (!window.__chunks.first && (n < 1 || n > 32)) {
      window.__chunks.first = "chunk " + i + " of " + all.length + " held " + n + ": " + c.outerHTML.slice(0, c.outerHTML.indexOf(">") + 1);
    }
    window.__chunks.min = Math.min(window.__chunks.min, n);
    window.__chunks.max = Math.max(window.__chunks.max, n);
  });
}).observe(document.documentElement, {childList: true, subtree: true})`

// checkChunks fails the test if a chunk was ever empty or over-full.
func checkChunks(t *testing.T, p *page) {
	t.Helper()
	c := eval[struct {
		Min, Max int
		First    string
	}](p, `window.__chunks`)
	if c.Max == 0 {
		t.Fatal("the watch saw no chunk")
	}
	if c.Min < 1 || c.Max > 32 {
		t.Fatalf("at the end of a task, a chunk held %d to %d items (1 to 32 expected); first seen: %s", c.Min, c.Max, c.First)
	}
}

// groups is the frozen-chunk tests' conversation: 800 top-level items, 25
// chunks.
const groups = 400

const chunks = `document.querySelectorAll('#conversation > .chunks > .chunk')`

// chunkAt is chunk i's element; frozenAt says it is frozen with its copy in.
func chunkAt(i int) string { return fmt.Sprintf(`%s[%d]`, chunks, i) }

func frozenAt(i int) string {
	return fmt.Sprintf(`(%s.hasAttribute('data-frozen') && %s.firstChild !== null)`, chunkAt(i), chunkAt(i))
}

// openFrozenConversation plays a conversation of groups into p (focused:
// focus events fire only in a focused page) and waits until every chunk but
// the newest two is frozen, with its items in it.
func openFrozenConversation(t *testing.T, p *page, file string) {
	t.Helper()
	// Turns of 10 groups: every chunk holds an answer with its copy button.
	writeLongConversationTurns(t, filepath.Join("testdata", file), groups, 10)
	p.focused()
	p.open("/?replay=/streams/" + file + "&rate=max&lang=en")
	p.waitJS(`window.__result`, 2*time.Minute)
	p.waitJS(`[...`+chunks+`].slice(0, -2).every(c => c.hasAttribute('data-frozen') && c.children.length === 32)`, time.Minute)
}

// Settled chunks of a long conversation are shown as copies of their DOM
// (app/dom/freeze.go), so that the Go heap keeps only their items. The page
// must look and work as if they were live: the same DOM, in-page search,
// a group that opens from a click or the keyboard, a copy button, and a
// chunk the reader left frozen again.
func TestFrozenChunksWorkAsLive(t *testing.T) {
	p := newPageWithin(t, 5*time.Minute)
	p.allowClipboard()
	p.addInitScript(`document.addEventListener("DOMContentLoaded", () => { ` + watchChunks + ` })`)
	openFrozenConversation(t, p, "bench-freeze-conversation.jsonl")
	chunk, frozen := chunkAt, frozenAt
	if n := eval[int](p, `document.querySelectorAll('#conversation .chunk > *').length`); n != 2*groups {
		t.Fatalf("top-level items in the page: %d, want %d", n, 2*groups)
	}
	for _, i := range []int{len2(groups) - 1, len2(groups) - 2} {
		if eval[bool](p, chunk(i)+`.hasAttribute('data-frozen')`) {
			t.Errorf("chunk %d, among the newest, is frozen", i)
		}
	}

	// In-page search finds text in a frozen chunk.
	if !eval[bool](p, `window.find("needle 40 inside")`) {
		t.Fatal(`window.find did not find "needle 40 inside" in a frozen chunk`)
	}
	if !eval[bool](p, `window.getSelection().anchorNode.parentElement.closest('.chunk').hasAttribute('data-frozen')`) {
		t.Fatal("the text found is not in a frozen chunk")
	}
	eval[bool](p, `window.getSelection().removeAllRanges(); true`)

	// Keyboard focus on a control of a frozen chunk: the chunk is live
	// again, with the same DOM, and the focus is on the same control.
	const k = 3
	before := eval[string](p, shapeOf+`(`+chunk(k)+`)`)
	controls := eval[string](p, chunk(k)+`.querySelector('[data-kind="group"] > button[aria-expanded]').getAttribute('aria-controls')`)
	p.do(evalAction(chunk(k) + `.querySelector('[data-kind="group"] > button[aria-expanded]').focus()`))
	p.waitJS(`!`+chunk(k)+`.hasAttribute('data-frozen') && document.activeElement.getAttribute('aria-controls') === `+fmt.Sprintf("%q", controls)+` && `+chunk(k)+`.contains(document.activeElement)`, 10*time.Second)
	after := eval[string](p, shapeOf+`(`+chunk(k)+`)`)
	if strip(before) != strip(after) {
		t.Fatalf("chunk %d live differs from its frozen copy:\nfrozen %.600s\nlive   %.600s", k, before, after)
	}
	// Enter on it opens the group: the live view handles it.
	p.do(chromedp.KeyEvent("\r"))
	p.waitJS(`document.activeElement.getAttribute('aria-expanded') === "true" && `+chunk(k)+`.querySelector('[data-kind="group"] [data-kind="tool"]') !== null`, 10*time.Second)
	// While the reader is in it, it stays live.
	p.do(evalAction(`document.activeElement.blur()`))
	p.do(evalAction(chunk(k) + `.querySelector('[data-kind="group"] > button[aria-expanded]').click()`))
	p.waitJS(chunk(k)+`.querySelector('[data-kind="group"] > button[aria-expanded]').getAttribute('aria-expanded') === "false"`, 10*time.Second)
	p.do(evalAction(`document.activeElement.blur()`))
	// Left, and settled, it freezes again.
	p.waitJS(frozen(k), 30*time.Second)

	// A click on a frozen chunk's group header opens the group.
	const m = 6
	header := chunk(m) + `.querySelector('[data-kind="group"] > button[aria-expanded]')`
	p.do(evalAction(header + `.click()`))
	p.waitJS(`!`+chunk(m)+`.hasAttribute('data-frozen') && `+header+`.getAttribute('aria-expanded') === "true" && `+chunk(m)+`.querySelector('[data-kind="group"] [data-kind="tool"]') !== null`, 10*time.Second)

	// A frozen chunk's copy button copies its answer.
	const c = 9
	button := chunk(c) + `.querySelector('[data-kind="text"] [data-testid="copy"]')`
	want := eval[string](p, button+`.closest('[data-kind="text"]').querySelector('p').textContent`)
	p.do(evalAction(button + `.click()`))
	p.waitJS(`!`+chunk(c)+`.hasAttribute('data-frozen') && `+button+`.getAttribute('aria-label') === "Copied"`, 10*time.Second)
	if got := eval[string](p, `navigator.clipboard.readText()`); got != want {
		t.Fatalf("the copy button of a frozen chunk copied %q, want %q", got, want)
	}
	checkChunks(t, p)
}

// A chunk that holds the reader's selection is not frozen (its copy would
// take the selection away), and once the selection is gone and the reader
// moves on, it is. The page reads the selection only when it may have
// changed (app/dom/freeze_js.go), so this also checks that it notices.
func TestFrozenChunkKeepsTheSelection(t *testing.T) {
	p := newPageWithin(t, 5*time.Minute)
	openFrozenConversation(t, p, "bench-freeze-selection.jsonl")
	chunk, frozen := chunkAt, frozenAt
	header := func(i int) string { return chunk(i) + `.querySelector('[data-kind="group"] > button[aria-expanded]')` }
	live := func(i int) {
		p.do(evalAction(header(i) + `.focus()`))
		p.waitJS(`!`+chunk(i)+`.hasAttribute('data-frozen') && `+chunk(i)+`.contains(document.activeElement)`, 10*time.Second)
	}
	// Chunk 3 live, and the reader selects an answer's text in it.
	const k, j = 3, 5
	live(k)
	p.do(evalAction(`getSelection().selectAllChildren(` + chunk(k) + `.querySelector('[data-kind="text"] p'))`))
	// Focus moves to chunk 5 and leaves it: chunk 5 freezes again, in a
	// pass that went over chunk 3 first (chunks are taken in order).
	live(j)
	p.do(evalAction(`document.activeElement.blur()`))
	p.waitJS(frozen(j), 30*time.Second)
	if eval[bool](p, chunk(k)+`.hasAttribute('data-frozen')`) {
		t.Fatal("the chunk holding the selection was frozen")
	}
	if !eval[bool](p, chunk(k)+`.contains(getSelection().anchorNode) && !getSelection().isCollapsed`) {
		t.Fatal("the selection is no longer in its chunk")
	}
	// The selection goes, the reader moves on: chunk 3 freezes.
	p.do(evalAction(`getSelection().removeAllRanges()`))
	live(j)
	p.do(evalAction(`document.activeElement.blur()`))
	p.waitJS(frozen(k)+` && `+frozen(j), 30*time.Second)
}

// len2 is how many chunks hold the two items of each of n groups.
func len2(groups int) int { return (2*groups + 31) / 32 }

// strip drops the chunk element's own attributes (data-frozen).
func strip(shape string) string {
	for i := 0; i < len(shape); i++ {
		if shape[i] == '>' {
			return shape[i:]
		}
	}
	return shape
}

// A frozen chunk whose items change (here a tool's result sent again,
// corrected, long after its group ended) is drawn live again from the
// items: its copy goes, nothing shows twice, and once settled it freezes
// again.
func TestFrozenChunkFollowsItsItems(t *testing.T) {
	p := newPage(t)
	p.open("/?session=late-result&lang=en")
	p.waitConnected()
	// After every task (a MutationObserver's callback), from the first
	// event on, no chunk is empty and none holds more than its 32 items.
	p.do(evalAction(watchChunks))
	p.send("/late-result")
	first := `document.querySelectorAll('#conversation > .chunks > .chunk')[0]`
	p.waitJS(first+`.hasAttribute('data-frozen') && `+first+`.firstChild !== null`, 60*time.Second)
	if !agent.Release("late-result") {
		t.Fatal("the run is not in the agent")
	}
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	// 1 message, 70 groups and their 70 answers, each once.
	const counts = `[document.querySelectorAll('#conversation .chunk > *').length, document.querySelectorAll('[data-kind="group"]').length, ` +
		`document.querySelectorAll('[id]').length - new Set([...document.querySelectorAll('[id]')].map(e => e.id)).size]`
	p.waitJS(`(c => c[0] === 141 && c[1] === 70 && c[2] === 0)(`+counts+`)`, 30*time.Second)
	p.waitJS(first+`.hasAttribute('data-frozen') && `+first+`.firstChild !== null`, 60*time.Second)
	if c := eval[[]int](p, counts); c[0] != 141 || c[1] != 70 || c[2] != 0 {
		t.Fatalf("after freezing again: %d items, %d groups, %d repeated ids", c[0], c[1], c[2])
	}
	checkChunks(t, p)
	sameView(t, p.view(), serverView(t, "late-result"))
}

// A person's click (a pointer pressed and released, then the click) on a
// frozen chunk's group header opens the group, every time. Were the
// pointer's release to draw the chunk live before the browser sent the
// click, the click would go nowhere (element.click() has no press or
// release, so only a real pointer tells).
func TestFrozenChunksTakeMouseClicks(t *testing.T) {
	p := newPageWithin(t, 5*time.Minute)
	openFrozenConversation(t, p, "bench-freeze-clicks.jsonl")
	for i := 0; i < len2(groups)-3; i++ {
		chunk := fmt.Sprintf(`%s[%d]`, chunks, i)
		header := chunk + `.querySelector('[data-kind="group"] > button[aria-expanded]')`
		p.do(evalAction(header + `.scrollIntoView({block: "center"})`))
		p.waitJS(`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true))))`, 10*time.Second)
		for _, want := range []string{"true", "false"} {
			if want == "true" && !eval[bool](p, chunk+`.hasAttribute('data-frozen')`) {
				t.Fatalf("chunk %d is not frozen before the click", i)
			}
			x := eval[float64](p, header+`.getBoundingClientRect().left + 20`)
			y := eval[float64](p, header+`.getBoundingClientRect().top + 10`)
			p.do(chromedp.MouseClickXY(x, y))
			p.waitJS(header+`.getAttribute('aria-expanded') === "`+want+`"`, 10*time.Second)
		}
	}
}

// A conversation that has settled costs the page nothing while the reader
// reads: once its chunks are frozen, the app renders nothing more. A
// freeze pass that asked for another at once whenever a chunk it had
// once failed to take was taken later would keep the idle page rendering
// for as long as it stays open (app/dom/freeze.go, nextRetry). Go allocates
// for each render, so its count of allocations over 30 animation frames
// tells.
func TestSettledConversationRendersNothing(t *testing.T) {
	p := newPageWithin(t, 3*time.Minute)
	const file = "bench-settled-conversation.jsonl"
	writeLongConversation(t, filepath.Join("testdata", file), 100)
	p.open("/?replay=/streams/" + file + "&rate=max&lang=en")
	p.waitJS(`window.__result`, time.Minute)
	// Settled: every chunk but the newest two frozen, and every group
	// collapsed (a finished group's collapse comes 300 ms later, a render).
	p.waitJS(`[...`+chunks+`].slice(0, -2).every(c => c.hasAttribute('data-frozen') && c.firstChild !== null) && !document.querySelector('#conversation [aria-expanded="true"]')`, time.Minute)
	expectQuiet(t, p, "the settled page")
}

// Nor does any demo scenario's page once it has played and its groups
// have collapsed (the question scenario's countdown renders each second,
// and is left out).
func TestSettledScenariosRenderNothing(t *testing.T) {
	for _, sc := range []string{"activity", "anthropic", "approval", "error", "long", "markdown", "parallel", "plan", "search", "timeline", "chart"} {
		p := newPage(t)
		p.replay(sc, "max", "en")
		p.waitJS(`!document.querySelector('[data-kind="group"][data-state="done"] > [aria-expanded="true"]')`, 30*time.Second)
		expectQuiet(t, p, sc)
		p.close()
	}
}

// expectQuiet fails unless, within five windows of 30 animation frames,
// one passes in which Go allocates no more than reading its count does
// (with a margin): a page that renders by itself allocates thousands of
// times in every window. More than one window, because work done once
// after a page settles (the warm-ups an idle moment runs: Markdown's
// parser, the fonts) may fall in the first, with a few hundred
// allocations, and none after.
func expectQuiet(t *testing.T, p *page, what string) {
	t.Helper()
	const mallocs = `window.stepwise.memory().mallocs`
	const frames = `new Promise(r => { let n = 0; const f = () => ++n >= 30 ? r(true) : requestAnimationFrame(f); requestAnimationFrame(f); })`
	var seen []float64
	for range 5 {
		// What reading the count costs, to tell it apart.
		reading := -eval[float64](p, mallocs) + eval[float64](p, mallocs)
		before := eval[float64](p, mallocs)
		eval[bool](p, frames)
		n := eval[float64](p, mallocs) - before
		if n <= 10*reading+100 {
			return
		}
		seen = append(seen, n)
	}
	t.Errorf("%s: Go allocated %v times in five windows of 30 frames: it is still rendering", what, seen)
}
