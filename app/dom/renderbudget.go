package dom

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// RenderBudget spaces the renders of a stream the page cannot bound in
// advance (the agent modes' runs): after a render that took d, the next
// one waits 3d, at most maxRenderGap, so that drawing takes at most about
// a quarter of the time and the page keeps answering the person. A cheap
// render (the usual, a few ms) leaves the next one due at once.
type RenderBudget struct {
	next      time.Time // no render before this
	scheduled bool      // a render is set for next
}

// maxRenderGap bounds the wait: a growing answer shows progress at least
// this often.
const maxRenderGap = time.Second

// Due reports whether a render may happen at now.
func (b *RenderBudget) Due(now time.Time) bool { return !now.Before(b.next) }

// Schedule reports how long to wait for the next render, ok false when
// one is already set.
func (b *RenderBudget) Schedule(now time.Time) (wait time.Duration, ok bool) {
	if b.scheduled {
		return 0, false
	}
	b.scheduled = true
	return b.next.Sub(now), true
}

// Fired: the render Schedule set is under way.
func (b *RenderBudget) Fired() { b.scheduled = false }

// Rendered records a render that ended at end and took took (applying the
// events it drew included).
func (b *RenderBudget) Rendered(end time.Time, took time.Duration) {
	b.next = end.Add(min(3*took, maxRenderGap))
}

// Pace spaces the render the change under way asks for (ctx is the
// engine's, in a dispatch): when one is not due, it is prevented and set
// for when it is, drawing then what came meanwhile. A page kept busy
// drawing a huge growing answer could not even take the click on Stop.
func (b *RenderBudget) Pace(ctx app.Context) {
	now := time.Now()
	if !b.Due(now) {
		ctx.PreventUpdate()
		if wait, ok := b.Schedule(now); ok {
			After(ctx, wait, func(ctx app.Context) {
				b.Fired()
				b.measure(ctx, time.Now())
			})
		}
		return
	}
	b.measure(ctx, now)
}

// measure records, after the render that follows, how long applying and
// drawing took since start.
func (b *RenderBudget) measure(ctx app.Context, start time.Time) {
	Defer(ctx, func(app.Context) {
		end := time.Now()
		b.Rendered(end, end.Sub(start))
	})
}
