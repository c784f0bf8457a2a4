//go:build js && wasm

// Command jsevents is called from JavaScript by wasm/runtime_patch_test.go
// (run.js), which counts the calls out of the wasm those calls make: a
// js.Func that reads its this and arguments, and one that calls back into
// JavaScript, which calls the first again (a call inside a call); one
// that takes any number of arguments and returns a string, and one that
// releases itself when called, so that a second call reaches a released
// function.
package main

import (
	"fmt"
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
	many := js.FuncOf(func(this js.Value, args []js.Value) any {
		s := fmt.Sprint(len(args), ":")
		for _, a := range args {
			s += " " + a.String()
		}
		return s
	})
	var once js.Func
	once = js.FuncOf(func(this js.Value, args []js.Value) any {
		once.Release()
		return "once"
	})
	js.Global().Set("jsEventsAdd", add)
	js.Global().Set("jsEventsNested", nested)
	js.Global().Set("jsEventsMany", many)
	js.Global().Set("jsEventsOnce", once)
	select {}
}
