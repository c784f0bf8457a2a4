//go:build js && wasm

package dom

import (
	"syscall/js"

	"stepwise/app/internal/browser"
)

// WhenIdle runs f once, when the browser has nothing more urgent to do
// (requestIdleCallback, at the latest after 2 s), or after a short timer
// where there is no such call.
func WhenIdle(f func()) {
	cb := browser.CallOnce(func([]js.Value) { f() })
	window := js.Global()
	if window.Get("requestIdleCallback").Type() == js.TypeFunction {
		window.Call("requestIdleCallback", cb, map[string]any{"timeout": 2000})
		return
	}
	window.Call("setTimeout", cb, 200)
}

// InIdleTime runs f in the browser's idle periods only (no deadline: it
// waits while the page is busy), with the ms left in the period; where
// there is no requestIdleCallback, after a short timer with a slice of 8 ms.
func InIdleTime(f func(timeLeft func() float64)) {
	cb := browser.CallOnce(func(args []js.Value) {
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

// AfterTask runs f in a task of its own, after what the current one
// dispatches (a pointer's release and the click it makes are one task).
func AfterTask(f func()) {
	js.Global().Call("setTimeout", browser.CallOnce(func([]js.Value) { f() }), 0)
}
