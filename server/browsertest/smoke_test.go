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
