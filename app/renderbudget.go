package app

import "time"

// renderBudget spaces the renders of a stream the page cannot bound in
// advance (the agent modes' runs): after a render that took d, the next
// one waits 3d, at most maxRenderGap, so that drawing takes at most about
// a quarter of the time and the page keeps answering the person. A cheap
// render (the usual, a few ms) leaves the next one due at once.
type renderBudget struct {
	next      time.Time // no render before this
	scheduled bool      // a render is set for next
}

// maxRenderGap bounds the wait: a growing answer shows progress at least
// this often.
const maxRenderGap = time.Second

// due reports whether a render may happen at now.
func (b *renderBudget) due(now time.Time) bool { return !now.Before(b.next) }

// schedule reports how long to wait for the next render, ok false when
// one is already set.
func (b *renderBudget) schedule(now time.Time) (wait time.Duration, ok bool) {
	if b.scheduled {
		return 0, false
	}
	b.scheduled = true
	return b.next.Sub(now), true
}

// rendered records a render that ended at end and took took (applying the
// events it drew included).
func (b *renderBudget) rendered(end time.Time, took time.Duration) {
	b.next = end.Add(min(3*took, maxRenderGap))
}
