package dom

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
)

// Drawing many items a few chunks at a time.
//
// A history, a reset or a replay's warm-up can bring thousands of items in
// one go, and go-app mounts every view a render brings in that render's
// task: a long conversation's views in one task leave the page frozen and
// blank for seconds. So only the newest chunks (what the reader sees, at the
// end) are drawn in the render that brings them; the others are drawn
// empty at their estimated height (web/stepwise.css) and then drawn for
// real, newest first, a few in each later task, so that the page paints
// and answers between them. Settled chunks are then frozen as usual
// (freeze.go), which the freezer does only to drawn chunks.

// drawAtOnce is how many of the newest chunks of a large arrival are drawn
// at once: more than a screen.
const drawAtOnce = 2

// How many waiting chunks each later task draws is adapted to what the
// render of the last such task cost: more when it is cheap, fewer when it
// is not. A fixed number is either too many for a slow machine (long
// tasks) or too few for a fast one (the whole drawn later than it could
// be).
const (
	drawBudget = 18 * time.Millisecond // for the render that draws them
	drawMost   = 4                     // chunks a task, at most
)

// drawer is the record of chunks not drawn yet.
type drawer struct {
	waiting   map[int]bool // chunks drawn empty, by index
	scheduled bool         // a task to draw more is due
	perTask   int          // chunks the next task draws; 0 means 1
	measure   bool         // the next render draws waiting chunks
}

// adapt sets how many chunks the next task draws from what the render
// that drew the last ones cost.
func (d *drawer) adapt(cost time.Duration) {
	n := max(d.perTask, 1)
	switch {
	case cost > drawBudget && n > 1:
		n--
	case cost < drawBudget/2 && n < drawMost:
		n++
	}
	d.perTask = n
}

// ChunkCount is how many chunks n top-level items make.
func ChunkCount(n int) int {
	return (n + components.ChunkSize - 1) / components.ChunkSize
}

// holdBack keeps the chunks that a change brought, from index from to
// before to, from being drawn at once, but for the newest drawAtOnce.
// Chunks before from existed already (the last of them may have grown,
// and stays drawn).
func (d *drawer) holdBack(from, to int) {
	for i := from; i < to-drawAtOnce; i++ {
		if d.waiting == nil {
			d.waiting = map[int]bool{}
		}
		d.waiting[i] = true
	}
}

// forget drops every waiting chunk: the store's items were replaced.
func (d *drawer) forget() { clear(d.waiting) }

// drawNext marks the newest n waiting chunks drawn; it reports whether any
// were.
func (d *drawer) drawNext(n int) bool {
	drew := false
	for ; n > 0 && len(d.waiting) > 0; n-- {
		newest := -1
		for i := range d.waiting {
			newest = max(newest, i)
		}
		delete(d.waiting, newest)
		drew = true
	}
	return drew
}

// drawLater asks for the next few waiting chunks to be drawn in a task of
// their own, after the render under way has been painted.
func (c *Chunks) drawLater() {
	d := &c.draw
	if len(d.waiting) == 0 || d.scheduled || c.freeze.dom == nil {
		return
	}
	d.scheduled = true
	// A timer, not a dispatch: the browser gets its task back in between.
	After(c.freeze.ctx, time.Millisecond, func(ctx app.Context) {
		d.scheduled = false
		if d.drawNext(max(d.perTask, 1)) {
			d.measure = true
			Update(ctx)
		}
	})
}

// measureDraw, at the start of a render, times it if it draws waiting
// chunks: from here to the end of the render's mounting, when go-app runs
// what is deferred.
func (c *Chunks) measureDraw() {
	d := &c.draw
	if !d.measure || c.freeze.dom == nil {
		return
	}
	d.measure = false
	start := time.Now()
	Defer(c.freeze.ctx, func(app.Context) { d.adapt(time.Since(start)) })
}
