//go:build browser

package browsertest

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// TestBenchLong is the long-conversation part of TestBench alone.
func TestBenchLong(t *testing.T) {
	skipUnlessBench(t)
	benchLongConversation(t)
}

// longBenchProbe measures in the page, so the figures hold no DevTools
// round trip. Each interaction is timed from the input event's own time
// stamp (the click as the browser received it) to the end of the first
// frame after the page shows its outcome: a task posted from that
// frame's animation callback runs once the frame is committed.
const longBenchProbe = `
(() => {
  const painted = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  let frames = null, loafs = null;
  const loafObserver = new PerformanceObserver(list => {
    if (loafs) for (const e of list.getEntries()) loafs.push(e.duration);
  });
  try { loafObserver.observe({type: "long-animation-frame"}); } catch (e) {}
  window.__long = {
    // armClick resolves with the ms from the next click to the first
    // frame painted after done() holds.
    armClick(done) {
      return new Promise(resolve => {
        document.addEventListener("click", e => {
          const t0 = e.timeStamp;
          const check = () => {
            if (!done()) return false;
            obs.disconnect();
            painted().then(() => resolve(performance.now() - t0));
            return true;
          };
          const obs = new MutationObserver(check);
          obs.observe(document.getElementById("conversation"), {subtree: true, childList: true, attributes: true, characterData: true});
          queueMicrotask(check);
        }, {capture: true, once: true});
      });
    },
    // jump scrolls the conversation to top and returns the ms to the
    // frame that shows it.
    async jump(top) {
      const c = document.getElementById("conversation");
      const t0 = performance.now();
      c.scrollTop = top;
      await painted();
      return performance.now() - t0;
    },
    // find runs the browser's find-in-page from the end of the
    // conversation and returns the ms to the frame that shows the match.
    async find(text) {
      const c = document.getElementById("conversation") || document.scrollingElement;
      c.scrollTop = c.scrollHeight;
      await painted();
      window.getSelection().removeAllRanges();
      const t0 = performance.now();
      const found = window.find(text);
      await painted();
      return found ? performance.now() - t0 : -1;
    },
    // record starts noting frame intervals and long animation frames.
    record() {
      frames = []; loafs = [];
      let last = performance.now();
      const tick = now => {
        if (!frames) return;
        frames.push(now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stop() {
      const f = frames.slice(1), l = loafs;
      frames = null; loafs = null;
      return {frames: f, loafs: l};
    },
  };
})();
`

// longScroll is one scroll gesture's frames.
type longScroll struct {
	Frames []float64 `json:"frames"` // ms between animation frames
	Loafs  []float64 `json:"loafs"`  // long animation frames (> 50 ms)
	// Main-thread ms over the gesture (Performance.getMetrics).
	task, script, style, layout float64
}

// benchLongConversation prints how a conversation of 10,000 top-level
// items (5,000 finished groups and their answers) answers a reader:
// opening and closing a group far above the end, jumping to its top and
// back, finding a text far above, and scrolling by wheel, in frames.
// The issue asks it to stay responsive; the figures are read against
// the usual budgets (100 ms to respond to a click, frames of 16.7 ms).
func benchLongConversation(t *testing.T) {
	groups := longGroups()
	file := filepath.Join("testdata", "bench-long-conversation.jsonl")
	events := writeLongConversation(t, file, groups)
	open := func() *page {
		p := newPageWithin(t, 10*time.Minute)
		p.addInitScript(longBenchProbe)
		p.open(fmt.Sprintf("/?replay=/streams/bench-long-conversation.jsonl&rate=max&warm=%d&lang=en", events-1))
		p.waitJS(`window.__result`, 4*time.Minute)
		p.waitJS(allDrawn, 4*time.Minute)
		if _, err := chromedp.Call(p.ctx, performance.Enable, performance.EnableParams{}); err != nil {
			t.Fatalf("Performance.enable: %v", err)
		}
		return p
	}
	// firstFind times the page's first find-in-page, which lays out every
	// chunk it searches that was never laid out (app/dom/freeze_js.go
	// layOutLater does that in idle time).
	firstFind := func(p *page) (ms, styleAndLayout float64) {
		m0 := pageMetrics(t, p)
		ms = eval[float64](p, fmt.Sprintf(`__long.find("needle %d inside")`, groups/2))
		m1 := pageMetrics(t, p)
		if ms < 0 {
			t.Fatalf("find-in-page did not find needle %d", groups/2)
		}
		return ms, 1000 * (m1["LayoutDuration"] + m1["RecalcStyleDuration"] - m0["LayoutDuration"] - m0["RecalcStyleDuration"])
	}
	// A person opens the conversation and looks for something at once.
	p := open()
	soon, soonLayout := firstFind(p)
	p.close()
	// A person opens it, reads for a few seconds, then looks.
	p = open()
	time.Sleep(5 * time.Second)
	later, laterLayout := firstFind(p)
	frozen := eval[int](p, `document.querySelectorAll('#conversation [data-frozen]').length`)
	chunks := eval[int](p, `document.querySelectorAll('#conversation .chunk').length`)
	fmt.Printf("\na conversation of %d items (%d groups and their answers; %d of its %d chunks frozen), ms, median [min–max] of 5 unless said:\n",
		2*groups, groups, frozen, chunks)

	const groupAt = `document.querySelectorAll('#conversation [data-kind="group"]')[%d]`
	var opens, closes []float64
	for i := 0; i < 5; i++ {
		group := fmt.Sprintf(groupAt, groups/5+i*groups/8)
		header := group + `.querySelector('.group-header')`
		p.do(evalAction(header + `.scrollIntoView({block: "center"})`))
		p.waitJS(`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true))))`, 10*time.Second)
		for _, open := range []bool{true, false} {
			done := fmt.Sprintf(`() => %s.getAttribute('aria-expanded') === "%v" && %s.querySelectorAll('.step').length === %d`,
				header, open, group, map[bool]int{true: 1, false: 0}[open])
			p.do(evalAction(`window.__clicked = __long.armClick(` + done + `)`))
			x := eval[float64](p, header+`.getBoundingClientRect().left + 20`)
			y := eval[float64](p, header+`.getBoundingClientRect().top + 10`)
			p.do(chromedp.MouseClickXY(x, y))
			ms := eval[float64](p, `Promise.race([window.__clicked, new Promise(r => setTimeout(() => r(-1), 20000))])`)
			if ms < 0 {
				t.Fatalf("a click on group header at %.0f,%.0f: no change within 20 s; the element there: %s; aria-expanded %s", x, y,
					eval[string](p, fmt.Sprintf(`document.elementFromPoint(%f, %f).outerHTML.slice(0, 300)`, x, y)), eval[string](p, header+`.getAttribute('aria-expanded')`))
			}
			if open {
				opens = append(opens, ms)
			} else {
				closes = append(closes, ms)
			}
		}
	}
	fmt.Printf("  a click on a group far above, to its steps painted    %s\n", spreadOf(opens))
	fmt.Printf("  a click again, to it painted closed                   %s\n", spreadOf(closes))

	var tops, ends []float64
	for i := 0; i < 5; i++ {
		tops = append(tops, eval[float64](p, `__long.jump(0)`))
		ends = append(ends, eval[float64](p, `__long.jump(1e9)`))
	}
	fmt.Printf("  a jump to the top, to painted                         %s\n", spreadOf(tops))
	fmt.Printf("  a jump to the end, to painted                         %s\n", spreadOf(ends))

	fmt.Printf("  the page's first find-in-page (a text far above), to painted: at once %.0f (style and layout %.0f); after 5 s of reading %.0f (%.0f)\n",
		soon, soonLayout, later, laterLayout)
	var finds []float64
	for i := 0; i < 5; i++ {
		needle := groups/50 + i*groups/7
		ms := eval[float64](p, fmt.Sprintf(`__long.find("needle %d inside")`, needle))
		if ms < 0 {
			t.Fatalf("find-in-page did not find needle %d", needle)
		}
		finds = append(finds, ms)
	}
	fmt.Printf("  find-in-page from the end, a text far above, to painted %s\n", spreadOf(finds))
	// (window.find searches from the top of the page; Chromium's find bar
	// counts every match too, which no page can time.)

	// Wheel scrolling, as a person reads back: up 30,000 px at 3,000 px/s.
	p.do(evalAction(`document.getElementById('conversation').scrollTop = 1e9`))
	frames, moved := wheelScroll(t, p, `document.getElementById('conversation')`)
	printScroll("a wheel scroll up", frames, moved)
	p.close()

	// The same on the framework-free floor's page of the same items (all
	// of them laid out, the document scrolling): what the browser itself
	// does with this much content.
	floor := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "floor"), benchStreamServer)
	fp := newPageWithin(t, 10*time.Minute)
	fp.addInitScript(longBenchProbe)
	fp.do(chromedp.Navigate(floor + "/?events=/streams/bench-long-conversation.jsonl&rate=max"))
	fp.waitJS(`window.__result`, 4*time.Minute)
	if _, err := chromedp.Call(fp.ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	ms, layout := firstFind(fp)
	fmt.Printf("  the floor's page of the same items: the first find-in-page %.0f (style and layout %.0f)\n", ms, layout)
	fp.do(evalAction(`document.scrollingElement.scrollTop = 1e9`))
	frames, moved = wheelScroll(t, fp, `document.scrollingElement`)
	printScroll("the floor's page, the same scroll", frames, moved)
	fp.close()
}

// wheelScroll scrolls the element up by wheel, 30,000 px at 3,000 px/s
// from the middle of the window, and returns the frames it took and how
// far it moved.
func wheelScroll(t *testing.T, p *page, scroller string) (longScroll, float64) {
	p.waitJS(`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true))))`, 10*time.Second)
	w := eval[[]float64](p, `[innerWidth, innerHeight]`)
	if _, err := chromedp.Call(p.ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	before := eval[float64](p, scroller+`.scrollTop`)
	m0 := pageMetrics(t, p)
	p.do(evalAction(`__long.record()`))
	if _, err := chromedp.Call(p.ctx, input.SynthesizeScrollGesture, input.SynthesizeScrollGestureParams{
		X: w[0] / 2, Y: w[1] / 2, YDistance: 30000, Speed: 3000, GestureSourceType: input.GestureSourceTypeMouse,
	}); err != nil {
		t.Fatalf("scroll gesture: %v", err)
	}
	s := eval[longScroll](p, `__long.stop()`)
	m1 := pageMetrics(t, p)
	s.task = 1000 * (m1["TaskDuration"] - m0["TaskDuration"])
	s.script = 1000 * (m1["ScriptDuration"] - m0["ScriptDuration"])
	s.style = 1000 * (m1["RecalcStyleDuration"] - m0["RecalcStyleDuration"])
	s.layout = 1000 * (m1["LayoutDuration"] - m0["LayoutDuration"])
	return s, before - eval[float64](p, scroller+`.scrollTop`)
}

func printScroll(what string, s longScroll, moved float64) {
	sort.Float64s(s.Frames)
	over := 0
	for _, f := range s.Frames {
		if f > 1.5*1000/60 {
			over++
		}
	}
	fmt.Printf("  %s %.0f px at 3,000 px/s: %d frames, interval p50 %.1f / p95 %.1f / max %.1f ms, %d longer than 25 ms; %d long animation frames%s\n",
		what, moved, len(s.Frames), percentile(s.Frames, 50), percentile(s.Frames, 95), percentile(s.Frames, 100), over, len(s.Loafs), maxNote(s.Loafs))
	fmt.Printf("    main thread over it: tasks %.0f ms, of which script %.0f, style %.0f, layout %.0f\n", s.task, s.script, s.style, s.layout)
}

// spreadOf is "median [min–max]" of v.
func spreadOf(v []float64) string {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f [%.0f–%.0f]", median(s), s[0], s[len(s)-1])
}

// percentile of sorted values (nearest rank).
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p/100*float64(len(sorted)) + 0.5)
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

func maxNote(loafs []float64) string {
	if len(loafs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (max %.0f ms)", slices.Max(loafs))
}
