package dom

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
)

// Freezing settled chunks.
//
// Go in the browser collects garbage on the page's only thread, and a
// collection marks the whole live heap. go-app keeps a tree of elements,
// attributes and event handlers for everything on the page, so in a long
// conversation each collection has that much more to mark on the thread
// the reader is using (in the stock runtime, in one task: see
// wasm/goruntime-wasm.patch).
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

// retryBlocked is when a chunk a pass could not take is tried again, once:
// a group collapses by itself 300 ms after it ends.
const retryBlocked = time.Second

// chunkDOM is what freezing does to the page (freeze_js.go; nothing
// outside a browser).
type chunkDOM interface {
	// take copies chunk i's DOM, as the page shows it now; false when the
	// reader is in it (focus, a selection, a disclosure open).
	take(i int) bool
	// place puts chunk i's copy into it; false while go-app has not yet
	// drawn it empty.
	place(i int) bool
	// drop removes chunk i's copy, placed or not.
	drop(i int)
}

// freezer is the record of frozen chunks.
type freezer struct {
	dom     chunkDOM
	ctx     app.Context                  // the controller's, to run passes after renders
	pending map[int]components.ChunkMark // copies taken, not yet frozen
	marks   map[int]components.ChunkMark // frozen chunks: their items when frozen
	placed  map[int]bool                 // their copy is in the page
	tries   map[int]int                  // passes a copy has waited for its chunk
	blocked map[int]blocked              // chunks not to take for now

	scheduled bool // a pass runs after this render
	retrying  bool // a pass is due when a block expires
}

// blocked is a chunk a pass could not take, or one the reader reached
// into: it is tried again when its items change, when the reader moves
// (unblock), or at until.
type blocked struct {
	mark  components.ChunkMark
	until time.Time
}

// forever is a block that only the reader or the items lift.
var forever = time.Unix(1<<40, 0)

func (f *freezer) init(ctx app.Context, dom chunkDOM) {
	f.dom, f.ctx = dom, ctx
	f.pending = map[int]components.ChunkMark{}
	f.marks = map[int]components.ChunkMark{}
	f.placed = map[int]bool{}
	f.tries = map[int]int{}
	f.blocked = map[int]blocked{}
}

// settledChunk reports whether a chunk's items may be shown as a copy:
// nothing in them is a form (inputs, countdowns), a running group or tool,
// and no copy button of theirs shows "Copied".
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
	case state.KindTool:
		// An MCP App lives in its frame: a copy would be an empty one.
		return it.Tool.Status != state.ToolActive && it.Tool.Status != state.ToolAwaiting && it.Tool.App == nil
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

// candidates are the chunks a pass may freeze: drawn (not waiting),
// settled, not among the newest, neither frozen nor being frozen, not
// blocked; oldest first, at most limit.
func (f *freezer) candidates(items []*state.Item, waiting map[int]bool, copied string, now time.Time, limit int) []int {
	n := ChunkCount(len(items))
	var out []int
	for i := 0; i < n-liveChunks && len(out) < limit; i++ {
		if _, ok := f.marks[i]; ok {
			continue
		}
		if _, ok := f.pending[i]; ok || waiting[i] {
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

// block keeps chunk i from being taken: until retryBlocked the first
// time, then until the reader moves or its items change.
func (f *freezer) block(i int, m components.ChunkMark, now time.Time) {
	until := now.Add(retryBlocked)
	if b, ok := f.blocked[i]; ok && b.mark == m {
		until = forever
	}
	f.blocked[i] = blocked{m, until}
}

// reconcile brings the page's copies in line with the marks after a
// render: a chunk whose items changed is live again, so its copy goes; a
// frozen chunk go-app has drawn empty gets its copy. It reports whether a
// chunk was given up (drawn live again: the page needs a render).
func (f *freezer) reconcile(items []*state.Item, now time.Time) (gaveUp bool) {
	for i, m := range f.marks {
		cur := components.MarkOf(components.Chunk(items, i))
		if cur != m {
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
		// The render that draws it empty comes before this pass; a chunk
		// still not empty after a few is drawn live again (never left
		// blank) and not tried again before the reader or its items move.
		if f.tries[i]++; f.tries[i] > 3 {
			f.forget(i)
			f.blocked[i] = blocked{cur, forever}
			gaveUp = true
		}
	}
	return gaveUp
}

func (f *freezer) forget(i int) {
	f.dom.drop(i)
	delete(f.marks, i)
	delete(f.placed, i)
	delete(f.tries, i)
}

// AfterRender runs a freeze pass after the render under way (and draws
// waiting chunks, and follows the end). The controller's Render calls it: a defer registered while go-app renders
// runs once the render is done, in the same task, so a chunk drawn empty
// gets its copy (and one drawn live loses it) before the page is painted,
// whatever made the render.
func (c *Chunks) AfterRender() {
	c.measureDraw()
	c.drawLater()
	c.followLater()
	f := &c.freeze
	if f.dom == nil || f.scheduled {
		return
	}
	f.scheduled = true
	Defer(f.ctx, c.freezePass)
}

// freezePass reconciles the copies with the items, then takes copies of up
// to freezePerPass settled chunks; a dispatch then marks them frozen and
// asks for a render (both before the next render, which draws them empty;
// the pass after it puts the copies in).
func (c *Chunks) freezePass(ctx app.Context) {
	f := &c.freeze
	f.scheduled = false
	items, now := c.items(), time.Now()
	if f.reconcile(items, now) {
		Update(ctx)
	}
	took := false
	for _, i := range f.candidates(items, c.draw.waiting, c.copied(), now, freezePerPass) {
		m := components.MarkOf(components.Chunk(items, i))
		if !f.dom.take(i) {
			f.block(i, m, now)
			continue
		}
		f.pending[i] = m
		took = true
	}
	if took {
		Dispatch(ctx, func(ctx app.Context) {
			for i, m := range f.pending {
				f.marks[i] = m
			}
			clear(f.pending)
			Update(ctx)
		})
	}
	c.retryLater(ctx, now)
}

// retryLater asks for a pass when the earliest timed block expires.
func (c *Chunks) retryLater(ctx app.Context, now time.Time) {
	f := &c.freeze
	if f.retrying {
		return
	}
	first, ok := f.nextRetry(now)
	if !ok {
		return
	}
	f.retrying = true
	After(ctx, first.Sub(now)+50*time.Millisecond, func(ctx app.Context) {
		f.retrying = false
		Update(ctx)
	})
}

// nextRetry is when the earliest timed block that still blocks expires.
// One that has expired blocks nothing (candidates takes its chunk again)
// and stays only as the memory that its chunk was tried once: a pass
// asked for it would find nothing to do and, asking again, make the idle
// page render every 50 ms for as long as it stays open.
func (f *freezer) nextRetry(now time.Time) (first time.Time, ok bool) {
	for _, b := range f.blocked {
		if b.until != forever && b.until.After(now) && (!ok || b.until.Before(first)) {
			first, ok = b.until, true
		}
	}
	return first, ok
}

// thaw draws chunk i live again (or stops it from being frozen), and keeps
// it live until the reader moves on; then, if set, runs after that render,
// with the chunk live and its copy gone.
func (c *Chunks) thaw(ctx app.Context, i int, then func()) {
	f := &c.freeze
	if f.dom == nil {
		return
	}
	items := c.items()
	f.blocked[i] = blocked{components.MarkOf(components.Chunk(items, i)), forever}
	if _, ok := f.pending[i]; ok {
		delete(f.pending, i)
		f.dom.drop(i)
	}
	if _, ok := f.marks[i]; ok {
		f.marks[i] = components.ChunkMark{First: -1} // matches no items: drawn live
		Update(ctx)
	}
	if then != nil {
		Defer(ctx, func(ctx app.Context) {
			if f.reconcile(c.items(), time.Now()) {
				Update(ctx)
			}
			then()
		})
	}
}

// unblock: the reader moved (a pointer released, focus left a control),
// so chunks they were in may be frozen again.
func (c *Chunks) unblock(ctx app.Context) {
	if len(c.freeze.blocked) == 0 {
		return
	}
	clear(c.freeze.blocked)
	Update(ctx)
}

// unfreezeAll draws every chunk live, for a store whose items were
// replaced (a history load, a reset): keys may repeat, so marks could
// match other items. Their copies go after the render.
func (c *Chunks) unfreezeAll(ctx app.Context) {
	f := &c.freeze
	if f.dom == nil {
		return
	}
	for i := range f.pending {
		f.dom.drop(i)
	}
	clear(f.pending)
	for i := range f.marks {
		f.marks[i] = components.ChunkMark{First: -1}
	}
	clear(f.blocked)
	Update(ctx)
}
