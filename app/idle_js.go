//go:build js && wasm

package app

import "syscall/js"

// whenIdle runs f once, when the browser has nothing more urgent to do
// (requestIdleCallback, at the latest after 2 s), or after a short timer
// where there is no such call.
func whenIdle(f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		f()
		return nil
	})
	window := js.Global()
	if window.Get("requestIdleCallback").Type() == js.TypeFunction {
		window.Call("requestIdleCallback", cb, map[string]any{"timeout": 2000})
		return
	}
	window.Call("setTimeout", cb, 200)
}

// afterTask runs f in a task of its own, after what the current one
// dispatches (a pointer's release and the click it makes are one task).
func afterTask(f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		f()
		return nil
	})
	js.Global().Call("setTimeout", cb, 0)
}
