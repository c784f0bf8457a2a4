//go:build js && wasm

package app

import (
	"encoding/json"
	"net/url"
	"runtime"
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/internal/browser"
)

// markReady tells tests that the wasm app runs.
func markReady() {
	data := js.Global().Get("document").Get("documentElement").Get("dataset")
	data.Set("stepwise", "ready")
	data.Set("readyAt", js.Global().Get("performance").Call("now").Float())
}

// exposeView publishes window.stepwise.view(): the view model of REPLAY.md
// as JSON, what `stepwise replay` would print for the same input.
func exposeView(c *Controller) {
	view := js.FuncOf(func(this js.Value, args []js.Value) any {
		b, err := json.Marshal(c.page.Store().View())
		if err != nil {
			return nil
		}
		return string(b)
	})
	// memory reports the Go heap in bytes: in use, and obtained from the
	// wasm linear memory; and the allocations and collections so far.
	// memory(true) collects first: heapAlloc is then the live heap.
	memory := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Truthy() {
			runtime.GC()
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return map[string]any{"heapInUse": m.HeapInuse, "heapAlloc": m.HeapAlloc, "heapObjects": m.HeapObjects, "sys": m.Sys,
			"mallocs": m.Mallocs, "totalAlloc": m.TotalAlloc, "numGC": m.NumGC}
	})
	// pauses reports how many times long work (a history's decoding and
	// loading) let the browser run between its slices (pace.go).
	pausesFunc := js.FuncOf(func(this js.Value, args []js.Value) any { return browser.PausesTaken() })
	api := js.Global().Get("Object").New()
	api.Set("view", view)
	api.Set("memory", memory)
	api.Set("pauses", pausesFunc)
	js.Global().Set("stepwise", api)
}

// newSessionID returns a random session id: as crypto/rand's Text, 26
// characters of base32 (within wire.ValidSessionID's alphabet) from the
// browser's crypto.getRandomValues, which crypto/rand calls too, without
// crypto/rand's FIPS 140 DRBG (AES, SHA-2) in the wasm.
func newSessionID() string {
	const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	random := js.Global().Get("Uint8Array").New(26)
	js.Global().Get("crypto").Call("getRandomValues", random)
	var id [26]byte
	js.CopyBytesToGo(id[:], random)
	for i, b := range id {
		id[i] = base32[b%32]
	}
	return string(id[:])
}

// keepSessionInURL puts the session in the address bar without a reload.
func keepSessionInURL(id string) {
	loc := app.Window().Get("location")
	u, err := url.Parse(loc.Get("href").String())
	if err != nil {
		return
	}
	q := u.Query()
	q.Set("session", id)
	u.RawQuery = q.Encode()
	app.Window().Get("history").Call("replaceState", nil, "", u.String())
}

// navigate loads href as a new page.
func navigate(href string) { js.Global().Get("location").Set("href", href) }
