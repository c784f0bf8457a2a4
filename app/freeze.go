package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
)

// Freezing settled chunks.
//
// Go in the browser collects garbage on the page's only thread, and once a
// collection has started it marks the whole live heap before it gives the
// thread back (the runtime's idle mark worker runs until it is done, and
// nothing in the page can interrupt it). go-app keeps a tree of elements,
// attributes and event handlers for everything on the page, so in a long
// conversation every collection became a long task: ~100 ms at 100,000
// events, each a pause the reader feels.
//
// A chunk whose items have settled (no running group, no form, nothing
// the reader opened or is in) is therefore frozen: the controller copies
// its DOM (cloneNode), go-app draws the chunk empty and drops its views,
// and the copy goes into the chunk in the same task. The page keeps the
// same DOM, so in-page search, screen readers, selection and the layout
// (the chunk element itself stays) are unchanged; the Go heap keeps only
// the items. Anything that changes an item of a frozen chunk draws it live
// again (its mark no longer matches), and so does the reader reaching into
// it: a click or keyboard focus in a frozen chunk thaws it and is carried
// over to the same control once it is live (freeze_js.go).

// liveChunks are the newest chunks, never frozen: where a stream adds and
// the reader acts.
const liveChunks = 2

// freezePerPass bounds one pass's work, so that a long history freezes in
// several short tasks rather than one long one.
const freezePerPass = 8

// chunkDOM is what freezing does to the page (freeze_js.go; nothing
// outside a browser).
type chunkDOM interface {
	// take copies chunk i's DOM, as the page shows it now; false when the
	// reader is in it (focus, a selection, a disclosure they opened).
	take(i int) bool
	// place puts chunk i's copy into it; false while go-app has not yet
	// drawn it empty.
	place(i int) bool
	// drop removes chunk i's copy, placed or not.
	drop(i int)
}

// freezer is the controller's record of frozen chunks.
type freezer struct {
	dom     chunkDOM
	marks   map[int]components.ChunkMark // frozen chunks: their items when frozen
	placed  map[int]bool                 // their copy is in the page
	blocked map[int]blocked              // chunks a pass could not take
	tries   map[int]int                  // passes a copy has waited for its chunk

	scheduled bool
	retrying  bool // a pass is due after retryBlocked
}

func (f *freezer) init(dom chunkDOM) {
	f.dom = dom
	f.marks = map[int]components.ChunkMark{}
	f.placed = map[int]bool{}
	f.blocked = map[int]blocked{}
	f.tries = map[int]int{}
}

// blocked is a chunk a pass could not take (the reader in it, or a
// disclosure open: a group collapses by itself 300 ms after it ends): it
// is tried again when the reader moves, its items change, or after
// retryBlocked.
type blocked struct {
	mark  components.ChunkMark
	until time.Time
}

const retryBlocked = time.Second

// settledChunk reports whether a chunk's items may be shown as a copy:
// nothing in them is a form (inputs, countdowns) or a running group, and
// no copy button of theirs shows "Copied".
func settledChunk(items []*state.Item, copied string) bool {
	for _, it := range items {
		if !settledItem(it) {
			return false
		}
	}
	return components.CopiedIn(copied, items) == ""
}

func settledItem(it *state.Item) bool {
	switch it.Kind {
	case state.KindQuestion, state.KindApproval, state.KindForm:
		return false
	case state.KindGroup:
		if it.Group.Open {
			return false
		}
		for _, st := range it.Group.Steps {
			if !settledItem(st) {
				return false
			}
		}
	}
	return true
}

// candidates are the chunks a pass may freeze: settled, not among the
// newest, not frozen, not blocked at their current mark; oldest first, at
// most limit.
func (f *freezer) candidates(items []*state.Item, copied string, now time.Time, limit int) []int {
	n := (len(items) + components.ChunkSize - 1) / components.ChunkSize
	var out []int
	for i := 0; i < n-liveChunks && len(out) < limit; i++ {
		if _, ok := f.marks[i]; ok {
			continue
		}
		part := components.Chunk(items, i)
		if b, ok := f.blocked[i]; ok && b.mark == components.MarkOf(part) && now.Before(b.until) {
			continue
		}
		if settledChunk(part, copied) {
			out = append(out, i)
		}
	}
	return out
}

// reconcile brings the page's copies in line with the marks after a
// render: a chunk whose items changed is live again, so its copy goes; a
// frozen chunk go-app has drawn empty gets its copy. It reports whether a
// copy still waits for its chunk to be drawn empty, and whether a chunk
// was given up (it must be drawn live again: the page needs a render).
func (f *freezer) reconcile(items []*state.Item) (waiting, gaveUp bool) {
	for i, m := range f.marks {
		if components.MarkOf(components.Chunk(items, i)) != m {
			f.forget(i)
			continue
		}
		if f.placed[i] {
			continue
		}
		if f.placed[i] = f.dom.place(i); f.placed[i] {
			delete(f.tries, i)
			continue
		}
		// A render draws it empty within a pass or two; a chunk that is
		// still not empty after that is drawn live again, never left blank.
		if f.tries[i]++; f.tries[i] > 3 {
			f.forget(i)
			gaveUp = true
			continue
		}
		waiting = true
	}
	return waiting, gaveUp
}

func (f *freezer) forget(i int) {
	f.dom.drop(i)
	delete(f.marks, i)
	delete(f.placed, i)
	delete(f.tries, i)
}

// freezeSoon runs a freeze pass after the next render. Call it from an
// action or a dispatch (a defer registered there waits for the render).
func (c *Controller) freezeSoon(ctx app.Context) {
	if c.freeze.dom == nil || c.freeze.scheduled {
		return
	}
	c.freeze.scheduled = true
	ctx.Defer(c.freezePass)
}

// freezePass runs after a render: it reconciles the copies, then freezes
// up to freezePerPass settled chunks (their copy is taken now, from the
// page as just rendered; the next render draws them empty and the pass
// after it puts the copies in).
func (c *Controller) freezePass(ctx app.Context) {
	f := &c.freeze
	f.scheduled = false
	items := c.sess.Store.Items()
	again, gaveUp := f.reconcile(items)
	took, now := 0, time.Now()
	for _, i := range f.candidates(items, c.copied, now, freezePerPass) {
		if !f.dom.take(i) {
			f.blocked[i] = blocked{components.MarkOf(components.Chunk(items, i)), now.Add(retryBlocked)}
			continue
		}
		f.marks[i] = components.MarkOf(components.Chunk(items, i))
		took++
	}
	if took > 0 || gaveUp {
		ctx.Update()
		again = true
	}
	c.retryLater(ctx, now)
	if again {
		// A defer registered while defers run would run before the next
		// render: a dispatch registers it for after that render.
		ctx.Dispatch(func(ctx app.Context) { c.freezeSoon(ctx) })
	}
}

// retryLater runs a pass when the earliest blocked chunk may be tried
// again (not for chunks a thaw blocked: those wait for the reader).
func (c *Controller) retryLater(ctx app.Context, now time.Time) {
	f := &c.freeze
	if f.retrying {
		return
	}
	var first time.Time
	for _, b := range f.blocked {
		if b.until.Sub(now) <= retryBlocked && (first.IsZero() || b.until.Before(first)) {
			first = b.until
		}
	}
	if first.IsZero() {
		return
	}
	f.retrying = true
	ctx.After(first.Sub(now)+50*time.Millisecond, func(ctx app.Context) {
		f.retrying = false
		c.freezeSoon(ctx)
	})
}

// thaw draws chunk i live again, then calls then (with the chunk live and
// its copy gone), after that render.
func (c *Controller) thaw(ctx app.Context, i int, then func()) {
	f := &c.freeze
	if _, ok := f.marks[i]; !ok {
		return
	}
	f.marks[i] = components.ChunkMark{First: -1} // matches no items: drawn live
	// Not frozen again before the reader has moved on (unblock), whatever
	// a pass sees before the control is focused.
	f.blocked[i] = blocked{components.MarkOf(components.Chunk(c.sess.Store.Items(), i)), time.Now().Add(time.Hour)}
	ctx.Update()
	ctx.Defer(func(ctx app.Context) {
		if _, gaveUp := f.reconcile(c.sess.Store.Items()); gaveUp {
			ctx.Update()
		}
		if then != nil {
			then()
		}
	})
}

// unblock: the reader moved (focus, selection, a click), so chunks they
// were in may be frozen again.
func (c *Controller) unblock(ctx app.Context) {
	if len(c.freeze.blocked) == 0 {
		return
	}
	clear(c.freeze.blocked)
	c.freezeSoon(ctx)
}

// unfreezeAll forgets every frozen chunk, for a store whose items were
// replaced (a history load, a reset): their copies go after the render.
func (c *Controller) unfreezeAll(ctx app.Context) {
	f := &c.freeze
	if f.dom == nil || len(f.marks) == 0 {
		return
	}
	for i := range f.marks {
		f.marks[i] = components.ChunkMark{First: -1}
	}
	clear(f.blocked)
	ctx.Update()
	c.freezeSoon(ctx)
}
