package components

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
	"stepwise/state/statetest"
)

// streamPage renders the page from a store, as the app's controller does,
// and keeps the context go-app gives it to render it again.
type streamPage struct {
	app.Compo
	store *state.Store
	ctx   app.Context
	ready bool
}

func (p *streamPage) OnPreRender(ctx app.Context) { p.ctx, p.ready = ctx, true }

func (p *streamPage) Render() app.UI {
	return Page(PageProps{Settings: DefaultSettings(), Items: p.store.Items(), Status: p.store.Status(), Sources: p.store.Sources()})
}

// BenchmarkStreamRender plays the benchmark's 5k stream into a store and
// renders the page through go-app (natively: its diff without a DOM)
// every eight events, about as often as go-app's frames come at max
// rate in a browser. It is for the render path's allocations (allocs/op,
// and a memory profile) and CPU profile, not for its time: go-app's test
// engine waits for each finished group's 300 ms collapse, which makes a
// run mostly sleep. The wasm builds against patched go-app
// (wasm/goapp-wasm.patch), which this, natively, does not use.
//
//	go test -run '^$' -bench StreamRender -benchmem -memprofile mem.out ./components
func BenchmarkStreamRender(b *testing.B) {
	events := statetest.MixedStream(5000)
	const perFrame = 8
	b.ReportAllocs()
	for b.Loop() {
		page := &streamPage{store: state.New(state.DefaultOptions())}
		e := app.NewTestEngine()
		if err := e.Load(page); err != nil {
			b.Fatal(err)
		}
		e.ConsumeAll()
		if !page.ready {
			b.Fatal("no context to render the page with")
		}
		for i, ev := range events {
			if page.store.ApplyJSON(ev).Outcome == state.Skipped {
				b.Fatalf("event %d skipped: %s", i, ev)
			}
			if i%perFrame == perFrame-1 || i == len(events)-1 {
				page.ctx.Update()
				e.ConsumeAll()
			}
		}
	}
}
