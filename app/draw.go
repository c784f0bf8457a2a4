package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
)

// Drawing many items a few chunks at a time.
//
// A history, a reset or a replay's warm-up can bring thousands of items in
// one go, and go-app mounts every view a render brings in that render's
// task: 10,000 items were one task of 4-7 s, the page frozen and blank
// until it ended. So only the newest chunks (what the reader sees, at the
// end) are drawn in the render that brings them; the others are drawn
// empty at their estimated height (web/stepwise.css) and then drawn for
// real, newest first, a few in each later task, so that the page paints
// and answers between them. Settled chunks are then frozen as usual
// (freeze.go), which the freezer does only to drawn chunks.

// drawAtOnce is how many of the newest chunks of a large arrival are drawn
// at once: more than a screen.
const drawAtOnce = 2

// drawPerTask is how many waiting chunks each later task draws. For
// chunks of groups and answers, on this project's machine, a task took
// 57-74 ms with two and 54-68 with one (the render of the whole page and
// the freezing around it cost more than a chunk's views), and drawing
// 10,000 items took 5.2 s with two against 7.6 with one.
const drawPerTask = 2

// drawer is the controller's record of chunks not drawn yet.
type drawer struct {
	waiting   map[int]bool // chunks drawn empty, by index
	scheduled bool         // a task to draw more is due
}

// chunkCount is how many chunks n top-level items make.
func chunkCount(n int) int {
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
func (c *Controller) drawLater() {
	d := &c.draw
	if len(d.waiting) == 0 || d.scheduled || c.freeze.dom == nil {
		return
	}
	d.scheduled = true
	// A timer, not a dispatch: the browser gets its task back in between.
	c.freeze.ctx.After(time.Millisecond, func(ctx app.Context) {
		d.scheduled = false
		if d.drawNext(drawPerTask) {
			ctx.Update()
		}
	})
}
