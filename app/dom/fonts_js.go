//go:build js && wasm

package dom

import "syscall/js"

// fontSlice is how many ms of an idle period the fonts take at most.
const fontSlice = 10

// WarmFonts lays out a line in each of ConversationFonts, off screen and
// hidden from everyone, a few in each of the browser's idle periods
// (each strike is a synchronous call to the browser process), then takes
// it away.
func WarmFonts() {
	warmFontsFrom(0, func(next func(timeLeft func() float64)) { InIdleTime(next) })
}

// WarmFontsNow does it all at once: for a replay, which plays as soon as
// the app runs (see Replayer.Prepare).
func WarmFontsNow() {
	warmFontsFrom(0, func(next func(timeLeft func() float64)) {
		next(func() float64 { return 1e9 })
	})
}

// warmFontsFrom is not inlined: its closure would be copied into each
// caller, and into itself.
//
//go:noinline
func warmFontsFrom(first int, schedule func(func(timeLeft func() float64))) {
	schedule(func(timeLeft func() float64) {
		doc := js.Global().Get("document")
		box := doc.Call("createElement", "div")
		box.Call("setAttribute", "aria-hidden", "true")
		// Laid out (visibility, unlike display: none, keeps the text
		// shaped), out of sight and of the page's layout.
		box.Get("style").Set("cssText", "position: fixed; left: -10000px; top: 0; visibility: hidden; contain: strict; width: 400px; height: 40px; pointer-events: none")
		doc.Get("body").Call("append", box)
		i, start := first, timeLeft()
		for i < len(ConversationFonts) {
			line := doc.Call("createElement", "span")
			line.Get("style").Set("font", ConversationFonts[i])
			line.Set("textContent", "Aa 09")
			box.Call("append", line)
			line.Call("getBoundingClientRect")
			i++
			// A strike can take tens of ms when the machine is busy: a
			// slice stops at fontSlice, as a person may type meanwhile.
			if left := timeLeft(); left < 4 || start-left >= fontSlice {
				break
			}
		}
		box.Call("remove")
		if i < len(ConversationFonts) {
			warmFontsFrom(i, schedule)
		}
	})
}
