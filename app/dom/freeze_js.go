//go:build js && wasm

package dom

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pageChunks freezes chunks in the page: copies of their DOM, and the
// listeners that thaw a frozen chunk when the reader reaches into it.
type pageChunks struct {
	conv   js.Value
	copies map[int]js.Value // a chunk's copied nodes (a JS array), placed or not

	pointerDown bool
	clicked     map[int]bool // chunks a click thawed since the pointer's release

	// hasSelection: the page holds a selection that is not collapsed, as
	// read when selectionStale was last cleared (selecting).
	hasSelection, selectionStale bool

	unlaid map[int]bool // chunks whose copy went in and was never laid out
	laying bool         // an idle callback will lay them out
	// drawing reports whether chunks wait to be drawn (app/dom/draw.go).
	drawing func() bool
}

// controls are the elements whose clicks a frozen chunk carries over to
// the live chunk: those go-app handles. Links, code blocks and the rest
// work in the copy as they are.
const controls = `button, [role="button"]`

func newChunkDOM(ctx app.Context, c *Chunks) chunkDOM {
	conv := js.Global().Get("document").Call("getElementById", "conversation")
	if !conv.Truthy() {
		return nil
	}
	d := &pageChunks{conv: conv, copies: map[int]js.Value{}, clicked: map[int]bool{}, unlaid: map[int]bool{},
		selectionStale: true, drawing: func() bool { return len(c.draw.waiting) > 0 }}
	d.listen(ctx, c)
	return d
}

// list is the element whose children are the chunks (components/page.go),
// or null while the conversation has none.
func (d *pageChunks) list() js.Value {
	return d.conv.Call("querySelector", ":scope > .chunks")
}

// chunk is chunk i's element, or undefined.
func (d *pageChunks) chunk(i int) js.Value {
	list := d.list()
	if !list.Truthy() {
		return js.Undefined()
	}
	el := list.Get("children").Index(i)
	if !el.Truthy() || !el.Get("classList").Call("contains", "chunk").Bool() {
		return js.Undefined()
	}
	return el
}

func (d *pageChunks) take(i int) bool {
	el := d.chunk(i)
	if !el.Truthy() || el.Call("hasAttribute", "data-frozen").Bool() {
		return false
	}
	if el.Call("contains", js.Global().Get("document").Get("activeElement")).Bool() {
		return false
	}
	if d.selecting() {
		sel := js.Global().Call("getSelection")
		if el.Call("contains", sel.Get("anchorNode")).Bool() || el.Call("contains", sel.Get("focusNode")).Bool() {
			return false
		}
	}
	// A disclosure the reader opened keeps its state in its view.
	if el.Call("querySelector", `[aria-expanded="true"]`).Truthy() {
		return false
	}
	d.copies[i] = js.Global().Get("Array").Call("from", el.Call("cloneNode", true).Get("childNodes"))
	return true
}

// selecting reports whether the page holds a selection that is not
// collapsed. Reading the selection lays the page out (Blink brings layout
// up to date for it): read for each chunk taken, it would force a layout
// of its own each time in a stream. So the answer is kept until the
// selection may have changed: a selectionchange, or what may start one
// before its selectionchange arrives (a pointer pressed, a key).
func (d *pageChunks) selecting() bool {
	if d.selectionStale {
		sel := js.Global().Call("getSelection")
		d.hasSelection = sel.Truthy() && !sel.Get("isCollapsed").Bool()
		d.selectionStale = false
	}
	return d.hasSelection
}

func (d *pageChunks) place(i int) bool {
	el, nodes := d.chunk(i), d.copies[i]
	if !el.Truthy() || !nodes.Truthy() {
		return false
	}
	if !el.Call("hasAttribute", "data-frozen").Bool() || el.Get("firstChild").Truthy() {
		return false // go-app has not drawn it empty yet
	}
	el.Get("append").Call("apply", el, nodes)
	d.unlaid[i] = true
	d.layOutLater()
	return true
}

// idleLayoutSlice is how many ms of layout one idle callback does at most.
const idleLayoutSlice = 10

// layOutLater lays out, in idle time, the copies that went in off screen.
//
// A chunk off screen is skipped by the browser (content-visibility: auto),
// and a copy that goes in there is never styled nor laid out. Find in page
// must lay out every chunk it searches, so in a long conversation the
// first search would do all of them at once and freeze the page. Laid out
// in idle time, a chunk keeps its layout while it is skipped, and the
// first search has little left to lay out.
//
// An idle period lasts up to 50 ms, but while chunks are being drawn a
// callback's work is capped at idleLayoutSlice: a render that falls due
// meanwhile runs in the same task once the callback returns, and with a
// whole idle period of layout before it that task is a long one. On an
// idle page it is not capped: a callback asked for from an idle callback
// waits for the next idle period, so the layout would take several times
// as many of them.
func (d *pageChunks) layOutLater() {
	if d.laying || len(d.unlaid) == 0 {
		return
	}
	d.laying = true
	InIdleTime(func(timeLeft func() float64) {
		d.laying = false
		start := timeLeft()
		for i := range d.unlaid {
			// Measuring a chunk's first item lays out the chunk (the
			// browser's forced update of a skipped subtree).
			if el := d.chunk(i); el.Truthy() {
				if first := el.Get("firstElementChild"); first.Truthy() {
					first.Call("getBoundingClientRect")
				}
			}
			delete(d.unlaid, i)
			if left := timeLeft(); left < 4 || start-left >= idleLayoutSlice && d.drawing() {
				break
			}
		}
		d.layOutLater()
	})
}

func (d *pageChunks) drop(i int) {
	nodes, ok := d.copies[i]
	delete(d.copies, i)
	if !ok {
		return
	}
	for k := 0; k < nodes.Length(); k++ {
		nodes.Index(k).Call("remove")
	}
}

// frozenChunkOf is the index of the frozen chunk holding node, or -1.
func (d *pageChunks) frozenChunkOf(node js.Value) (int, js.Value) {
	if !node.Truthy() || node.Get("nodeType").Int() != 1 {
		return -1, js.Undefined()
	}
	ch := node.Call("closest", ".chunk[data-frozen]")
	list := d.list()
	if !ch.Truthy() || !list.Truthy() || !ch.Get("parentNode").Equal(list) {
		return -1, js.Undefined()
	}
	return indexOf(list.Get("children"), ch), ch
}

// target names a control so that the same control can be found once its
// chunk is drawn live: by what identifies it (a copy button's id, the
// region a disclosure controls, an id, a link) and which of the
// conversation's matches it is, else by its position in its chunk.
type target struct {
	selector string
	nth      int
	path     []int
}

func (d *pageChunks) targetOf(ch, ctl js.Value) target {
	var t target
	tag := ctl.Get("localName").String()
	for _, attr := range []string{"data-copy-id", "aria-controls", "id", "href"} {
		if v := ctl.Call("getAttribute", attr); v.Truthy() {
			t.selector = tag + "[" + attr + `="` + js.Global().Get("CSS").Call("escape", v).String() + `"]`
			t.nth = indexOf(d.conv.Call("querySelectorAll", t.selector), ctl)
			return t
		}
	}
	for n := ctl; n.Truthy() && !n.Equal(ch); n = n.Get("parentElement") {
		t.path = append([]int{indexOf(n.Get("parentElement").Get("children"), n)}, t.path...)
	}
	return t
}

func (d *pageChunks) find(ch js.Value, t target) js.Value {
	if t.selector != "" {
		return d.conv.Call("querySelectorAll", t.selector).Index(t.nth)
	}
	el := ch
	for _, idx := range t.path {
		el = el.Get("children").Index(idx)
		if !el.Truthy() {
			return js.Undefined()
		}
	}
	return el
}

// indexOf is node's index in a NodeList or HTMLCollection, -1 if absent.
func indexOf(list, node js.Value) int {
	return js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", list, node).Int()
}

// listen thaws a frozen chunk when the reader reaches into it: a click on
// one of its controls (carried over to the live control), keyboard focus
// (moved to the live control), or focus that a pointer left there. It
// also lets chunks the reader was in be frozen again once they move on.
func (d *pageChunks) listen(ctx app.Context, c *Chunks) {
	thaw := func(i int, t target, click, focus bool) {
		Dispatch(ctx, func(ctx app.Context) {
			c.thaw(ctx, i, func() {
				el := d.chunk(i)
				if !el.Truthy() {
					return
				}
				live := d.find(el, t)
				if !live.Truthy() {
					return
				}
				if focus {
					live.Call("focus", map[string]any{"preventScroll": true})
				}
				if click {
					live.Call("click")
				}
			})
		})
	}
	unblock := func(js.Value) {
		if len(c.freeze.blocked) > 0 {
			Dispatch(ctx, c.unblock)
		}
	}
	// A chunk whose copy was taken but is not in yet is still live: a
	// reader acting on it now acts on views about to be dropped, and the
	// copy would not show what they did. It stays live instead.
	beingFrozen := func(e js.Value) {
		node := e.Get("target")
		if !node.Truthy() || node.Get("nodeType").Int() != 1 {
			return
		}
		ch := node.Call("closest", ".chunk")
		list := d.list()
		if !ch.Truthy() || !list.Truthy() || !ch.Get("parentNode").Equal(list) || ch.Call("hasAttribute", "data-frozen").Bool() {
			return
		}
		i := indexOf(list.Get("children"), ch)
		_, frozen := c.freeze.marks[i]
		_, pending := c.freeze.pending[i]
		if pending || frozen && !c.freeze.placed[i] {
			Dispatch(ctx, func(ctx app.Context) { c.thaw(ctx, i, nil) })
		}
	}
	for _, event := range []string{"pointerdown", "focusin", "click", "keydown", "input"} {
		listenCapture(d.conv, event, beingFrozen)
	}
	window := js.Global()
	listenCapture(window, "pointerdown", func(js.Value) {
		d.pointerDown = true
		d.selectionStale = true
		clear(d.clicked)
	})
	stale := func(js.Value) { d.selectionStale = true }
	listenCapture(window, "keydown", stale)
	listenCapture(window.Get("document"), "selectionchange", stale)
	listenCapture(window, "pointercancel", func(js.Value) { d.pointerDown = false })
	listenCapture(window, "pointerup", func(e js.Value) {
		d.pointerDown = false
		// The click this release makes comes after it, in the same task;
		// a chunk drawn live before that takes the pressed control out of
		// the page, and the browser sends no click at all. What the
		// release does waits for the next task.
		AfterTask(func() {
			// Focus a pointer left on a control of a frozen chunk (a code
			// block clicked) moves to the live one, unless the reader is
			// selecting; a click on a control has carried it over already.
			active := js.Global().Get("document").Get("activeElement")
			if i, ch := d.frozenChunkOf(active); i >= 0 && !d.clicked[i] && js.Global().Call("getSelection").Get("isCollapsed").Bool() {
				thaw(i, d.targetOf(ch, active), false, true)
			}
			clear(d.clicked)
			unblock(e)
		})
	})
	listenCapture(d.conv, "focusin", func(e js.Value) {
		if d.pointerDown {
			return // the click, or the pointer's release, carries it over
		}
		node := e.Get("target")
		if i, ch := d.frozenChunkOf(node); i >= 0 {
			thaw(i, d.targetOf(ch, node), false, true)
		}
	})
	listenCapture(d.conv, "focusout", unblock)
	listenCapture(d.conv, "click", func(e js.Value) {
		i, ch := d.frozenChunkOf(e.Get("target"))
		if i < 0 {
			return
		}
		ctl := e.Get("target").Call("closest", controls)
		if !ctl.Truthy() || !ch.Call("contains", ctl).Bool() {
			return // text, a link: the copy is enough
		}
		e.Call("preventDefault")
		e.Call("stopImmediatePropagation")
		d.clicked[i] = true
		thaw(i, d.targetOf(ch, ctl), true, true)
	})
}

// listenCapture calls f with each of target's events of that type, in the
// capture phase. (Not inlined: it is called in many places.)
//
//go:noinline
func listenCapture(target js.Value, event string, f func(e js.Value)) {
	target.Call("addEventListener", event, js.FuncOf(func(this js.Value, args []js.Value) any {
		f(args[0])
		return nil
	}), map[string]any{"capture": true})
}
