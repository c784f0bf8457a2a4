//go:build js && wasm

package dom

import "syscall/js"

// followEnd runs web/boot.js's stepwiseFollow, which reads the page's
// layout only while the conversation is scrolled to its top.
func followEnd() {
	if f := js.Global().Get("stepwiseFollow"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}
