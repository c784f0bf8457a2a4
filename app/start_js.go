//go:build js && wasm

package app

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/url"
	"runtime"
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// startLive connects the session to the backend, over WebSocket or, with
// ?transport=sse, Server-Sent Events. What the transport delivers reaches
// the controller through ctx.Dispatch (see Controller).
func startLive(ctx app.Context, c *Controller) {
	// A history is loaded into a store of its own here, on the
	// transport's goroutine, in slices, while the page goes on with the
	// store it has (pace.go); the controller then swaps it in.
	opts := storeOptions(c.cfg)
	load := func(h *wire.History) (*state.Store, state.Changes) {
		loaded := state.New(opts)
		return loaded, loaded.LoadHistoryPaced(h, newPacer(pauseTask).tick)
	}
	ev := Events{
		OnHistory: func(h *wire.History) {
			loaded, changes := load(h)
			ctx.Dispatch(func(ctx app.Context) {
				c.onHistory(ctx, loaded, changes)
				c.keepHistory(ctx, h)
			})
		},
		OnFrames: func(frames [][]byte) {
			ctx.Dispatch(func(ctx app.Context) { c.applyFrame(ctx, frames...) })
		},
		OnState: func(s ConnState) {
			ctx.Dispatch(func(ctx app.Context) { c.onConnState(ctx, s) })
		},
		OnResult: func(r Result) {
			ctx.Dispatch(func(ctx app.Context) { c.onResult(ctx, r) })
		},
		OnReset: func(h *wire.History, last wire.EventID) {
			var loaded *state.Store // nil: no history replaces the items
			if h != nil && len(h.Messages) > 0 {
				loaded, _ = load(h)
			}
			ctx.Dispatch(func(ctx app.Context) {
				c.onReset(ctx, h, loaded, last)
				c.keepHistory(ctx, h) // nil: nothing newer is kept
			})
		},
	}
	if c.cfg.Transport == "sse" {
		sse := NewSSE(c.cfg, ev)
		c.sess.Conn = sse
		sse.Start()
		return
	}
	live := NewLive(c.cfg, ev)
	c.sess.Conn = live
	live.Start(context.Background())
}

// startReplay plays the configured file through the real store and views.
// The driver applies each event in a browser task of its own; the event
// reaches the store through ctx.Dispatch, in that same task.
func startReplay(ctx app.Context, c *Controller) {
	(&Replayer{
		URL:  c.cfg.Replay,
		Rate: c.cfg.Rate,
		Warm: c.cfg.Warm,
		Apply: func(lines ...[]byte) {
			ctx.Dispatch(func(ctx app.Context) { c.applyFrame(ctx, lines...) })
		},
		Rendered: func(done func()) {
			// Defer runs after the render of the frame that follows.
			ctx.Dispatch(func(ctx app.Context) { ctx.Defer(func(app.Context) { done() }) })
		},
		Drawing: func() bool {
			drawing := make(chan bool, 1)
			ctx.Dispatch(func(app.Context) { drawing <- len(c.draw.waiting) > 0 })
			return <-drawing
		},
		// A live page makes its Markdown parser and resolves its fonts
		// while idle before the first answer; a replay plays at once, so
		// it does them first.
		Prepare: func() {
			for _, step := range components.MarkdownWarmUp() {
				step()
			}
			warmFontsNow()
		},
		Skipped: func() int { return c.sess.Store.SkippedCount() },
		Failed: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { c.notice = c.settings.T("replay.failed", err.Error()) })
		},
	}).Start()
}

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
		b, err := json.Marshal(c.sess.Store.View())
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
	pausesFunc := js.FuncOf(func(this js.Value, args []js.Value) any { return pausesTaken() })
	api := js.Global().Get("Object").New()
	api.Set("view", view)
	api.Set("memory", memory)
	api.Set("pauses", pausesFunc)
	js.Global().Set("stepwise", api)
}

// newSessionID returns a random session id (crypto/rand's Text: 26
// characters of base32, within wire.ValidSessionID's alphabet).
func newSessionID() string { return rand.Text() }

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
