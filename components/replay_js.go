//go:build js && wasm

package components

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"runtime"
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	client "stepwise/app"
	"stepwise/state/wire"
)

// startReplay plays the configured file through the real store and
// components. Events are applied in their own browser tasks, outside the
// UI goroutine; that is safe because Go in the browser is single-threaded
// and a JS callback runs only while every goroutine is parked.
func startReplay(ctx app.Context, r *Root) {
	(&client.Replayer{
		URL:     r.cfg.Replay,
		Rate:    r.cfg.Rate,
		Warm:    r.cfg.Warm,
		Apply:   func(line []byte) { r.applyFrame(ctx, line) },
		Skipped: func() int { return r.sess.Store.SkippedCount() },
		Failed: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { r.notice = T("replay.failed", err.Error()) })
		},
	}).Start()
}

// exposeView publishes window.stepwise.view(): the view model of REPLAY.md
// as JSON, what `stepwise replay` would print for the same input.
func exposeView(r *Root) {
	view := js.FuncOf(func(this js.Value, args []js.Value) any {
		b, err := json.Marshal(r.sess.Store.View())
		if err != nil {
			return nil
		}
		return string(b)
	})
	// memory reports the Go heap in bytes: in use, and obtained from the
	// wasm linear memory.
	memory := js.FuncOf(func(this js.Value, args []js.Value) any {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return map[string]any{"heapInUse": m.HeapInuse, "sys": m.Sys}
	})
	api := js.Global().Get("Object").New()
	api.Set("view", view)
	api.Set("memory", memory)
	js.Global().Set("stepwise", api)
}

// startLive connects the session to the backend, over WebSocket or, with
// ?transport=sse, Server-Sent Events.
func startLive(ctx app.Context, r *Root) {
	ev := client.Events{
		OnHistory: func(h *wire.History) {
			ctx.Dispatch(func(ctx app.Context) { r.onHistory(ctx, h) })
		},
		OnFrame: func(frame []byte) {
			ctx.Dispatch(func(ctx app.Context) { r.applyFrame(ctx, frame) })
		},
		OnState: func(s client.ConnState) {
			ctx.Dispatch(func(ctx app.Context) { r.onConnState(ctx, s) })
		},
		OnError: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { r.report(err) })
		},
	}
	if r.cfg.Transport == "sse" {
		sse := client.NewSSE(r.cfg, ev)
		r.sess.Conn = sse
		sse.Start()
		return
	}
	live := client.NewLive(r.cfg, ev)
	r.sess.Conn = live
	live.Start(context.Background())
}

func newSessionID() string {
	b := make([]byte, 9)
	rand.Read(b)
	return hex.EncodeToString(b)
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
