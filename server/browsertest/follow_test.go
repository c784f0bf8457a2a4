//go:build browser

package browsertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// longConversationEvents is writeLongConversation's stream of n groups as
// events for fakeBackend.emit, which numbers them itself.
func longConversationEvents(t *testing.T, n int) []string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "conversation.jsonl")
	writeLongConversation(t, file, n)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		delete(ev, "event_id")
		out, _ := json.Marshal(ev)
		events = append(events, string(out))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return events
}

// gapToEnd is how far the reader is from the conversation's end, after
// two frames so that layout and scroll anchoring have settled.
func gapToEnd(p *page) float64 {
	p.waitJS(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 10*time.Second)
	return eval[float64](p, `(c => c.scrollHeight - c.scrollTop - c.clientHeight)(document.getElementById('conversation'))`)
}

// A reader who never scrolled follows a conversation that starts on an
// empty page and grows past the screen: the browser anchors no scroller
// at offset 0, so without following they would stay at its top while
// the answers came in below.
func TestFollowsFromTheTop(t *testing.T) {
	const groups = 30
	events := longConversationEvents(t, groups)
	b := newFakeBackend("idle")
	base := b.serve(t)
	p := newPageWithin(t, 2*time.Minute)
	p.openAt(base, "/?session=follow&lang=en")
	for i, ev := range events {
		b.emit(ev)
		if i%10 == 0 { // a few events per frame, as an agent streams them
			p.waitJS(`new Promise(r => requestAnimationFrame(() => r(true)))`, 10*time.Second)
		}
	}
	p.waitJS(fmt.Sprintf(`document.getElementById("conversation").textContent.includes("needle %d inside")`, groups-1), time.Minute)
	if eval[float64](p, `(c => c.scrollHeight - c.clientHeight)(document.getElementById('conversation'))`) < 200 {
		t.Fatal("the conversation does not overflow the screen: nothing to follow")
	}
	if gap := gapToEnd(p); gap > 48 {
		t.Errorf("the reader stayed %.0f px above the newest answer", gap)
	}
}

// Opening a conversation that the backend replays as a stream (its
// history empty, its log long) puts the newest answer on screen before
// the older chunks are drawn, and ends with the whole conversation in
// order and the reader at its end, over either transport: a backlog
// that came at once is read in batches (web/boot.js's stepwiseQueue),
// more than one of them here (~9,000 events).
func TestReplayedStreamOpensAtItsEnd(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) { testReplayedStreamOpensAtItsEnd(t, transport) })
	}
}

func testReplayedStreamOpensAtItsEnd(t *testing.T, transport string) {
	const groups = 1000
	b := newFakeBackend("idle")
	b.emit(longConversationEvents(t, groups)...)
	base := b.serve(t)
	p := newPageWithin(t, 3*time.Minute)
	opensNewestFirst(t, p, base, "/?session=replayed&lang=en&transport="+transport, groups)
}

// A reader at the end of a long conversation stays there while a new
// answer adds chunk after chunk below: the scroll anchor after the last
// item must stay one element for the browser to keep it (components/page.go
// wraps the chunks for that), where a replaced anchor left them behind.
func TestFollowsAtTheEnd(t *testing.T) {
	const before, after = 100, 60
	b := newFakeBackend("idle")
	b.messages = longHistory(before)
	base := b.serve(t)
	p := newPageWithin(t, 2*time.Minute)
	p.openAt(base, "/?session=end&lang=en")
	p.waitJS(fmt.Sprintf(`document.getElementById("conversation").textContent.includes("needle %d inside") && `+allDrawn, before-1), time.Minute)
	if gap := gapToEnd(p); gap > 48 {
		t.Fatalf("the conversation opened %.0f px above its end", gap)
	}
	events := longConversationEvents(t, after)
	for i, ev := range events {
		b.emit(ev)
		if i%10 == 0 {
			p.waitJS(`new Promise(r => requestAnimationFrame(() => r(true)))`, 10*time.Second)
		}
	}
	p.waitJS(fmt.Sprintf(`document.querySelectorAll('#conversation .chunk > *').length === %d`, 2*before+2*after), time.Minute)
	if gap := gapToEnd(p); gap > 48 {
		t.Errorf("the reader stayed %.0f px above the newest answer", gap)
	}
}

// The newest chunk has its real height from the first layout after it
// came. Counted at the estimate of a chunk not yet rendered (2,400 px), a
// conversation of one short answer overflowed the screen: following it
// there, the reader was put back at the top once the chunk had its real
// size, and, the conversation overflowing by then, was taken for one
// reading there and never followed again (2 loads in 30 of a replayed
// 10,000-item conversation ended at the top).
func TestNewestChunkHasItsRealHeight(t *testing.T) {
	b := newFakeBackend("idle")
	base := b.serve(t)
	p := newPageWithin(t, 2*time.Minute)
	p.openAt(base, "/?session=first&lang=en")
	// Layout is read as the chunk comes, before the browser renders it.
	p.waitJS(`(() => { window.__firstOverflow = null;
  const conv = document.getElementById("conversation");
  new MutationObserver((_, obs) => {
    if (!conv.querySelector(".chunk > *")) return;
    window.__firstOverflow = conv.scrollHeight - conv.clientHeight;
    obs.disconnect();
  }).observe(conv, {childList: true, subtree: true});
  return true; })()`, 10*time.Second)
	b.emit(`{"type":"message_start","message":{"id":"m","role":"assistant","message_type":"chat"}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"A short answer."}}`,
		`{"type":"content_block_stop","index":0}`)
	p.waitJS(`window.__firstOverflow !== null`, time.Minute)
	if overflow := eval[float64](p, `window.__firstOverflow`); overflow > 0 {
		t.Errorf("one short answer overflowed the conversation by %.0f px in the layout after it came", overflow)
	}
}
