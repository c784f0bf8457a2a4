//go:build js && wasm

package app

import "syscall/js"

// whenIdle runs f once, when the browser has nothing more urgent to do
// (requestIdleCallback, at the latest after 2 s), or after a short timer
// where there is no such call.
func whenIdle(f func()) {
	cb := callOnce(func([]js.Value) { f() })
	window := js.Global()
	if window.Get("requestIdleCallback").Type() == js.TypeFunction {
		window.Call("requestIdleCallback", cb, map[string]any{"timeout": 2000})
		return
	}
	window.Call("setTimeout", cb, 200)
}

// inIdleTime runs f in the browser's idle periods only (no deadline: it
// waits while the page is busy), with the ms left in the period; where
// there is no requestIdleCallback, after a short timer with a slice of 8 ms.
func inIdleTime(f func(timeLeft func() float64)) {
	cb := callOnce(func(args []js.Value) {
		if len(args) > 0 && args[0].Type() == js.TypeObject {
			deadline := args[0]
			f(func() float64 { return deadline.Call("timeRemaining").Float() })
			return
		}
		perf := js.Global().Get("performance")
		end := perf.Call("now").Float() + 8
		f(func() float64 { return end - perf.Call("now").Float() })
	})
	window := js.Global()
	if window.Get("requestIdleCallback").Type() == js.TypeFunction {
		window.Call("requestIdleCallback", cb)
		return
	}
	window.Call("setTimeout", cb, 200)
}

// afterTask runs f in a task of its own, after what the current one
// dispatches (a pointer's release and the click it makes are one task).
func afterTask(f func()) {
	js.Global().Call("setTimeout", callOnce(func([]js.Value) { f() }), 0)
}

// callOnce is a JavaScript function that runs f and releases itself: for
// callbacks the browser calls once.
func callOnce(f func(args []js.Value)) js.Func {
	var cb js.Func
	cb = js.FuncOf(func(this js.Value, args []js.Value) any {
		cb.Release()
		f(args)
		return nil
	})
	return cb
}
