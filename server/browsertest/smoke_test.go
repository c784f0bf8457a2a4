//go:build browser

package browsertest

import "testing"

func TestSmokeTimeline(t *testing.T) {
	p := newPage(t)
	p.replay("timeline", "max", "en")
	if n := eval[int](p, `document.querySelectorAll('[data-kind]').length`); n == 0 {
		t.Fatal("no items rendered")
	}
	p.screenshot("smoke")
}

// TestReplayWithoutBootLoop: without web/boot.js's stepwiseLoop the replay
// driver posts its own tasks at max rate, and plays the same stream to
// the same end.
func TestReplayWithoutBootLoop(t *testing.T) {
	with := newPage(t)
	with.replay("timeline", "max", "en")
	want := eval[string](with, `window.stepwise.view()`)
	wantEvents := eval[int](with, `window.__result.events`)
	with.close()

	p := newPage(t)
	// boot.js (strict) assigns window.stepwiseLoop: a setter that drops
	// it leaves the driver without the loop.
	p.addInitScript(`Object.defineProperty(window, "stepwiseLoop", {get() { return undefined }, set(v) {}})`)
	p.replay("timeline", "max", "en")
	if eval[string](p, `typeof window.stepwiseLoop`) != "undefined" {
		t.Fatal("stepwiseLoop is still there: the test does not test the fallback")
	}
	// The view, not the count of drawn items: groups close 300 ms after
	// they finish, so what is drawn at the end depends on the run's speed.
	if got := eval[int](p, `window.__result.events`); got != wantEvents || got == 0 {
		t.Fatalf("events played without the loop: %d, with it: %d", got, wantEvents)
	}
	if got := eval[string](p, `window.stepwise.view()`); got != want {
		t.Fatalf("view without the loop differs:\n%s\nwith it:\n%s", got, want)
	}
}
