//go:build js && wasm

// Command jsevents is called from JavaScript by
// wasm/syscalljs_patch_test.go (run.js): a js.Func that reads its this and
// arguments, and one that calls back into JavaScript, which calls the
// first again (a call inside a call).
package main

import (
	"runtime/debug"
	"syscall/js"
)

func main() {
	// No collection: finalizers would release values while run.js counts
	// the ones Go holds.
	debug.SetGCPercent(-1)
	add := js.FuncOf(func(this js.Value, args []js.Value) any {
		return this.Get("base").Int() + args[0].Get("n").Int() + args[1].Int()
	})
	nested := js.FuncOf(func(this js.Value, args []js.Value) any {
		return js.Global().Call("jsEventsInner", args[0]).Int() + 1
	})
	js.Global().Set("jsEventsAdd", add)
	js.Global().Set("jsEventsNested", nested)
	select {}
}
