package dom

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
)

// Chunks is how the conversation's chunks are drawn: settled ones frozen
// as copies of their DOM (freeze.go), those a large arrival brings drawn a
// few per task (draw.go), a reader at the top brought to the newest
// content (follow.go). The controller owns one, tells it when the items
// were replaced or grew, and calls AfterRender from its Render; the
// components draw what Frozen and Waiting say. Every method runs in
// go-app's engine work, as the controller's do.
type Chunks struct {
	freeze freezer
	draw   drawer
	// following: a check that the reader follows the newest content is
	// due after the render (follow.go).
	following bool

	items  func() []*state.Item // the conversation's top-level items
	copied func() string        // the copy button showing "Copied"
}

// Mount starts on the page that ctx renders: items and copied read the
// page's model. Outside a browser nothing is frozen nor held back.
func (c *Chunks) Mount(ctx app.Context, items func() []*state.Item, copied func() string) {
	c.items, c.copied = items, copied
	c.freeze.init(ctx, newChunkDOM(ctx, c))
}

// Frozen are the chunks shown as copies, with their items' marks (a prop).
func (c *Chunks) Frozen() map[int]components.ChunkMark { return c.freeze.marks }

// Waiting are the chunks drawn empty, to be drawn later (a prop).
func (c *Chunks) Waiting() map[int]bool { return c.draw.waiting }

// Drawing reports whether chunks wait to be drawn.
func (c *Chunks) Drawing() bool { return len(c.draw.waiting) > 0 }

// Replaced: the store's items were replaced (a history, a reset) and are
// now n. Every chunk is drawn live again, and all but the newest wait.
func (c *Chunks) Replaced(ctx app.Context, n int) {
	c.unfreezeAll(ctx)
	c.draw.forget()
	c.draw.holdBack(0, ChunkCount(n))
}

// Grew: the items went from before to after top-level items; the chunks
// the change brought wait, but the newest.
func (c *Chunks) Grew(before, after int) {
	c.draw.holdBack(ChunkCount(before), ChunkCount(after))
}
