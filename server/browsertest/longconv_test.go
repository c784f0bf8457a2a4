//go:build browser

package browsertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// writeLongConversation writes a stream of n groups, each of one tool step,
// followed by an answer that names its number ("needle 17"): 2n top-level
// items. It returns the number of events.
func writeLongConversation(t *testing.T, path string, n int) int {
	return writeLongConversationTurns(t, path, n, 0)
}

// writeLongConversationTurns is writeLongConversation in turns of
// turnGroups groups each (0: one turn), so that each turn's last answer
// has its copy button.
func writeLongConversationTurns(t *testing.T, path string, n, turnGroups int) int {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	id, idx := 0, 0
	emit := func(ev map[string]any) {
		id++
		ev["event_id"] = fmt.Sprint(id)
		b, _ := json.Marshal(ev)
		w.Write(append(b, '\n'))
	}
	emit(map[string]any{"type": "message_start", "message": map[string]any{"id": "m", "role": "assistant", "message_type": "chat"}})
	for g := 0; g < n; g++ {
		tool := fmt.Sprintf("t%d", g)
		emit(map[string]any{"type": "group_start", "index": idx})
		idx++
		emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": tool, "name": "search", "input": map[string]any{}, "tool_content_message": fmt.Sprintf("Step of group %d", g)}})
		emit(map[string]any{"type": "content_block_stop", "index": idx})
		idx++
		emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_result", "tool_use_id": tool, "tool_name": "search", "content": "ok", "status": "success"}})
		emit(map[string]any{"type": "content_block_stop", "index": idx})
		idx++
		emit(map[string]any{"type": "group_end", "index": idx, "summary": fmt.Sprintf("Group %d", g)})
		idx++
		emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		emit(map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": fmt.Sprintf("Answer with needle %d inside.", g)}})
		emit(map[string]any{"type": "content_block_stop", "index": idx})
		idx++
		if turnGroups > 0 && (g+1)%turnGroups == 0 && g+1 < n {
			emit(map[string]any{"type": "message_stop"})
			emit(map[string]any{"type": "message_start", "message": map[string]any{"id": fmt.Sprintf("m%d", g), "role": "assistant", "message_type": "chat"}})
			idx = 0
		}
	}
	emit(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}})
	emit(map[string]any{"type": "message_stop"})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return id
}

// A conversation of 10,000 items, most of it off screen (its chunks are
// neither laid out nor painted), still works as a page: find-in-page finds
// text far above, groups far away open and close, and a group that
// collapses above the reader does not move what they read.
func TestLongConversation(t *testing.T) {
	groups := longGroups()
	file := filepath.Join("testdata", "bench-long-conversation.jsonl")
	events := writeLongConversation(t, file, groups)
	p := newPageWithin(t, 10*time.Minute)
	// Everything but the last event is applied at once, then one event is
	// played as usual.
	p.open(fmt.Sprintf("/?replay=/streams/bench-long-conversation.jsonl&rate=max&warm=%d&lang=en", events-1))
	p.waitJS(`window.__result`, 4*time.Minute)
	// Older chunks are drawn a few at a time after the newest (app/dom/draw.go).
	p.waitJS(allDrawn, 4*time.Minute)
	items := `document.querySelectorAll('#conversation .chunk > *')`
	if n := eval[int](p, items+`.length`); n != 2*groups {
		t.Fatalf("top-level items: %d, want %d", n, 2*groups)
	}

	// In-page search finds an answer far above the end, off screen.
	p.do(evalAction(`document.getElementById('conversation').scrollTop = 1e9`))
	if !eval[bool](p, `window.find("needle 123 inside")`) {
		t.Fatal(`window.find did not find "needle 123 inside"`)
	}
	if got := eval[string](p, `window.getSelection().anchorNode.parentElement.closest('[data-kind="text"]').textContent`); !containsText(got, "needle 123 inside") {
		t.Fatalf("the selection is in %q", got)
	}

	// A group far from the end opens and closes.
	far := groups * 3 / 5
	group := fmt.Sprintf(`document.querySelectorAll('#conversation [data-kind="group"]')[%d]`, far)
	header := group + `.querySelector('.group-header')`
	p.do(evalAction(group + `.scrollIntoView({block: "center"})`))
	if eval[string](p, header+`.getAttribute('aria-expanded')`) != "false" {
		t.Fatal("a finished group loaded at once should start collapsed")
	}
	p.do(evalAction(header + `.click()`))
	p.waitJS(header+`.getAttribute('aria-expanded') === "true" && `+group+`.querySelectorAll('.step').length === 1`, 10*time.Second)

	// The reader scrolls so that the group is above the screen; collapsing
	// it keeps the item they read where it is.
	anchor := fmt.Sprintf(`%s[%d]`, items, 2*far+6)
	p.do(evalAction(anchor + `.scrollIntoView({block: "start"})`))
	p.waitJS(`document.getElementById('conversation').hasAttribute('data-reading')`, 10*time.Second)
	p.waitJS(group+`.getBoundingClientRect().bottom < document.getElementById('conversation').getBoundingClientRect().top`, 10*time.Second)
	before := eval[float64](p, anchor+`.getBoundingClientRect().top`)
	p.do(evalAction(header + `.click()`))
	p.waitJS(header+`.getAttribute('aria-expanded') === "false"`, 10*time.Second)
	p.waitJS(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 10*time.Second)
	if after := eval[float64](p, anchor+`.getBoundingClientRect().top`); after < before-1 || after > before+1 {
		t.Fatalf("the item read moved from %.1f to %.1f px when a group above collapsed", before, after)
	}
}

// longGroups is the groups of the long conversation: 5,000 (10,000
// items), or STEPWISE_LONG_GROUPS to try another size.
func longGroups() int {
	groups := 5000
	if s := os.Getenv("STEPWISE_LONG_GROUPS"); s != "" {
		fmt.Sscan(s, &groups)
	}
	return groups
}

// evalAction runs JS for its effect.
func evalAction(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](js + `; undefined`)
}

func containsText(s, sub string) bool { return strings.Contains(s, sub) }

// allDrawn holds once no chunk of the conversation waits to be drawn.
const allDrawn = `!document.querySelector('#conversation .chunk[data-waiting]')`

// longHistory is the history messages of the long conversation's groups
// and answers (PROTOCOL.md section 4), as a JSON array.
func longHistory(groups int) []byte {
	msgs := make([]any, 0, 4*groups)
	for g := 0; g < groups; g++ {
		id := fmt.Sprintf("t%d", g)
		msgs = append(msgs,
			map[string]any{"role": "assistant", "display_type": "group_start", "summary": fmt.Sprintf("Group %d", g), "message_type": "step",
				"tool_calls": []any{map[string]any{"id": id, "name": "search", "args": map[string]any{}, "tool_content_message": fmt.Sprintf("Step of group %d", g)}}},
			map[string]any{"role": "tool", "display_type": "group_item", "tool_call_id": id, "name": "search", "status": "success", "content": "ok"},
			map[string]any{"role": "assistant", "display_type": "group_end", "summary": fmt.Sprintf("Group %d", g), "content": []any{}},
			map[string]any{"role": "assistant", "message_type": "chat", "content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("Answer with needle %d inside.", g)}}},
		)
	}
	b, _ := json.Marshal(msgs)
	return b
}

// A long history is drawn newest first: its end is on screen in the
// render that brings it, the older chunks drawn empty at their estimated
// height and then for real, a few at a time (app/dom/draw.go), and in the
// end the whole conversation is there, in order, the reader still at
// its end.
func TestLongHistoryDrawsNewestFirst(t *testing.T) {
	const groups = 1000
	p, base := longHistoryPage(t, groups)
	opensNewestFirst(t, p, base, "/?session=long&lang=en", groups)
}

// TestLongHistoryLoadsInSlices: a history of 20,000 messages (1.2 MB) is
// decoded and loaded in slices with the browser running tasks between them
// (app/internal/browser/pace.go), not in one task of hundreds of ms; the page shows it all
// the same. Work of 100 ms or more on any machine this runs on, in slices
// of 12 ms: at least two pauses.
func TestLongHistoryLoadsInSlices(t *testing.T) {
	const groups = 5000
	p, base := longHistoryPage(t, groups)
	p.openAt(base, "/?session=long&lang=en")
	p.waitJS(fmt.Sprintf(`document.getElementById("conversation").textContent.includes("needle %d inside")`, groups-1), 2*time.Minute)
	if n := eval[int](p, `window.stepwise.pauses()`); n < 2 {
		t.Errorf("the history was loaded with %d pauses; want it in slices", n)
	}
}

// longHistoryPage serves a backend whose history is longHistory(groups),
// and makes a page to open it in.
func longHistoryPage(t *testing.T, groups int) (*page, string) {
	b := newFakeBackend("idle")
	b.messages = longHistory(groups)
	base := b.serve(t)
	return newPageWithin(t, 3*time.Minute), base
}

// opensNewestFirst opens path on a conversation of groups groups and
// answers (writeLongConversation's, longHistory's) and checks that it is
// drawn newest first: the newest answer on the page while older chunks
// wait to be drawn, then all of them there, in order, and the reader at
// the end.
func opensNewestFirst(t *testing.T, p *page, base, path string, groups int) {
	t.Helper()
	p.addInitScript(fmt.Sprintf(`document.addEventListener("DOMContentLoaded", () => {
  window.__newestWhileWaiting = false;
  new MutationObserver(() => {
    const conv = document.getElementById("conversation");
    if (conv && conv.querySelector(".chunk[data-waiting]") && conv.textContent.includes("needle %d inside")) window.__newestWhileWaiting = true;
  }).observe(document.body, {childList: true, subtree: true});
})`, groups-1))
	start := time.Now()
	p.openAt(base, path)
	p.waitJS(fmt.Sprintf(`document.querySelectorAll('#conversation .chunk > *').length === %d && `+allDrawn, 2*groups), 2*time.Minute)
	t.Logf("%d items drawn %v after navigation", 2*groups, time.Since(start).Round(time.Millisecond))
	if !eval[bool](p, `window.__newestWhileWaiting`) {
		t.Error("the newest answer was never on the page while older chunks waited to be drawn")
	}
	if !eval[bool](p, fmt.Sprintf(`(() => { const text = document.getElementById("conversation").textContent; let at = -1;
  for (const g of [0, 1, %d, %d, %d]) { const i = text.indexOf("needle " + g + " inside"); if (i <= at) return false; at = i; }
  return true; })()`, groups/2, groups-2, groups-1)) {
		t.Error("the conversation's answers are not all there in order")
	}
	if gap := gapToEnd(p); gap > 48 {
		t.Errorf("the reader ended %.0f px from the conversation's end", gap)
	}
}
