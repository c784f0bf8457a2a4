//go:build js && wasm

package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	client "stepwise/app"
)

// startReplay plays the configured file through the real store and
// components. Events are applied in their own browser tasks, outside the
// UI goroutine; that is safe because Go in the browser is single-threaded
// and a JS callback runs only while every goroutine is parked.
func startReplay(ctx app.Context, r *Root) {
	(&client.Replayer{
		URL:     r.cfg.Replay,
		Rate:    r.cfg.Rate,
		Apply:   func(line []byte) { r.applyFrame(ctx, line) },
		Skipped: func() int { return r.sess.Store.SkippedCount() },
		Failed: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { r.notice = err.Error() })
		},
	}).Start()
}
