//go:build js && wasm

package app

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
}

// interactive are the elements a click or focus in a frozen chunk is
// carried over to once the chunk is live.
const interactive = `button, a[href], summary, input, select, textarea, [role="button"], [tabindex]`

func newChunkDOM(ctx app.Context, c *Controller) chunkDOM {
	conv := js.Global().Get("document").Call("getElementById", "conversation")
	if !conv.Truthy() {
		return nil
	}
	d := &pageChunks{conv: conv, copies: map[int]js.Value{}}
	d.listen(ctx, c)
	return d
}

// chunk is chunk i's element (the conversation's children are its chunks,
// then the scroll anchor), or undefined.
func (d *pageChunks) chunk(i int) js.Value {
	el := d.conv.Get("children").Index(i)
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
	if sel := js.Global().Call("getSelection"); sel.Truthy() && !sel.Get("isCollapsed").Bool() &&
		(el.Call("contains", sel.Get("anchorNode")).Bool() || el.Call("contains", sel.Get("focusNode")).Bool()) {
		return false
	}
	// A disclosure the reader opened keeps its state in its view.
	if el.Call("querySelector", `[aria-expanded="true"]`).Truthy() {
		return false
	}
	d.copies[i] = js.Global().Get("Array").Call("from", el.Call("cloneNode", true).Get("childNodes"))
	return true
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
	return true
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
	if !ch.Truthy() || !ch.Get("parentNode").Equal(d.conv) {
		return -1, js.Undefined()
	}
	return js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", d.conv.Get("children"), ch).Int(), ch
}

// target names a control in a chunk so that the same control can be
// found once the chunk is drawn live: by what identifies it (a copy
// button's id, the region a disclosure controls, an id, a link), else by
// its position.
type target struct {
	selector string
	path     []int
}

func targetOf(ch, ctl js.Value) target {
	var t target
	tag := ctl.Get("localName").String()
	for _, attr := range []string{"data-copy-id", "aria-controls", "id", "href"} {
		if v := ctl.Call("getAttribute", attr); v.Truthy() {
			t.selector = tag + "[" + attr + `="` + js.Global().Get("CSS").Call("escape", v).String() + `"]`
			break
		}
	}
	for n := ctl; n.Truthy() && !n.Equal(ch); n = n.Get("parentElement") {
		parent := n.Get("parentElement")
		idx := js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", parent.Get("children"), n).Int()
		t.path = append([]int{idx}, t.path...)
	}
	return t
}

func (t target) find(ch js.Value) js.Value {
	if t.selector != "" {
		if el := ch.Call("querySelector", t.selector); el.Truthy() {
			return el
		}
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

// listen thaws a frozen chunk when the reader reaches into it: a click on
// one of its controls (carried over to the live control), keyboard focus
// (moved to the live control), or focus that a pointer left there. It
// also lets chunks the reader was in be frozen again once they move on.
func (d *pageChunks) listen(ctx app.Context, c *Controller) {
	thaw := func(i int, t target, click, focus bool) {
		ctx.Dispatch(func(ctx app.Context) {
			c.thaw(ctx, i, func() {
				el := d.chunk(i)
				if !el.Truthy() {
					return
				}
				live := t.find(el)
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
	unblock := func() {
		if len(c.freeze.blocked) > 0 {
			ctx.Dispatch(c.unblock)
		}
	}
	on := func(event string, f func(e js.Value)) {
		d.conv.Call("addEventListener", event, js.FuncOf(func(this js.Value, args []js.Value) any {
			f(args[0])
			return nil
		}), map[string]any{"capture": true})
	}
	// A chunk whose copy was taken but is not in yet is still live: a
	// reader acting on it now would act on views about to be dropped, and
	// the copy would not show what they did. It stays live instead.
	pending := func(e js.Value) {
		node := e.Get("target")
		if !node.Truthy() || node.Get("nodeType").Int() != 1 {
			return
		}
		ch := node.Call("closest", ".chunk")
		if !ch.Truthy() || !ch.Get("parentNode").Equal(d.conv) || ch.Call("hasAttribute", "data-frozen").Bool() {
			return
		}
		i := js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", d.conv.Get("children"), ch).Int()
		if _, ok := c.freeze.marks[i]; ok && !c.freeze.placed[i] {
			ctx.Dispatch(func(ctx app.Context) { c.thaw(ctx, i, nil) })
		}
	}
	for _, event := range []string{"pointerdown", "focusin", "click", "keydown", "input"} {
		on(event, pending)
	}
	on("pointerdown", func(js.Value) { d.pointerDown = true })
	on("pointerup", func(js.Value) {
		d.pointerDown = false
		doc := js.Global().Get("document")
		if i, ch := d.frozenChunkOf(doc.Get("activeElement")); i >= 0 {
			thaw(i, targetOf(ch, doc.Get("activeElement")), false, true)
		}
		unblock()
	})
	on("pointercancel", func(js.Value) { d.pointerDown = false })
	on("focusin", func(e js.Value) {
		if d.pointerDown {
			return // the click, or the pointer's release, carries it over
		}
		node := e.Get("target")
		if i, ch := d.frozenChunkOf(node); i >= 0 {
			thaw(i, targetOf(ch, node), false, true)
		}
	})
	on("focusout", func(js.Value) { unblock() })
	on("click", func(e js.Value) {
		i, ch := d.frozenChunkOf(e.Get("target"))
		if i < 0 {
			return
		}
		ctl := e.Get("target").Call("closest", interactive)
		if !ctl.Truthy() || !ch.Call("contains", ctl).Bool() {
			return // a click on text: nothing to carry over
		}
		e.Call("preventDefault")
		e.Call("stopImmediatePropagation")
		thaw(i, targetOf(ch, ctl), true, true)
	})
	js.Global().Get("document").Call("addEventListener", "selectionchange", js.FuncOf(func(js.Value, []js.Value) any {
		unblock()
		return nil
	}))
}
