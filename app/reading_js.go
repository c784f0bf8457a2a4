//go:build js && wasm

package app

import "syscall/js"

// watchReading marks the conversation data-reading while the reader is
// scrolled up from its end. At the end, only the anchor after the last
// item anchors the scroll, so new content is followed; scrolled up, the
// items anchor it (web/stepwise.css), so a group that collapses or a chunk
// that gets its real size above the reader does not move what they read.
// The check runs on scroll events only (at most once a frame), never per
// stream event.
func watchReading() {
	conv := js.Global().Get("document").Call("getElementById", "conversation")
	if !conv.Truthy() {
		return
	}
	reading := false
	onScroll := js.FuncOf(func(this js.Value, args []js.Value) any {
		gap := conv.Get("scrollHeight").Float() - conv.Get("scrollTop").Float() - conv.Get("clientHeight").Float()
		if now := gap > 48; now != reading {
			reading = now
			if reading {
				conv.Call("setAttribute", "data-reading", "")
			} else {
				conv.Call("removeAttribute", "data-reading")
			}
		}
		return nil
	})
	conv.Call("addEventListener", "scroll", onScroll, map[string]any{"passive": true})
}
