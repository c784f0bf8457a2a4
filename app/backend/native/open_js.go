//go:build js && wasm

package native

import (
	"context"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
	"stepwise/state"
	"stepwise/state/wire"
)

// Open connects over WebSocket or, with Config.SSE, Server-Sent Events,
// and follows the browser's network.
func (b *Backend) Open(deliver func(backend.Event)) {
	// A history is loaded into a store of its own here, on the
	// transport's goroutine, in slices, while the page goes on with the
	// store it has (app/internal/browser's Pacer); the page then takes it.
	b.deliver = deliver
	opts := b.cfg.Store
	load := func(h *wire.History) (*state.Store, state.Changes) {
		loaded := state.New(opts)
		return loaded, loaded.LoadHistoryPaced(h, browser.NewPacer(browser.PauseTask).Tick)
	}
	ev := b.events(deliver, load)
	if b.cfg.SSE {
		sse := NewSSE(b.cfg, ev)
		b.conn = sse
		sse.Start()
	} else {
		live := NewLive(b.cfg, ev)
		b.conn = live
		live.Start(context.Background())
	}
	conn := b.conn
	if !backend.WatchNetwork(func(online bool) {
		deliver(backend.Network{Online: online})
		conn.NetworkChanged(online)
	}) {
		deliver(backend.Network{Online: false})
	}
}

// Close lets the connection go with the page.
func (b *Backend) Close() {}
