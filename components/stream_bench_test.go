package components

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// benchStream is ../shared/bench/gen-events.py's stream in Go: groups of
// five tools whose results come in reverse order, each followed by an
// answer of ten deltas, n events in all.
func benchStream(n int) [][]byte {
	var out [][]byte
	emit := func(ev map[string]any) {
		ev["event_id"] = fmt.Sprint(len(out) + 1)
		b, _ := json.Marshal(ev)
		out = append(out, b)
	}
	type m = map[string]any
	emit(m{"type": "message_start", "message": m{"id": "m", "role": "assistant", "message_type": "chat"}})
	for g, idx := 1, 0; len(out) < n-2; g++ {
		emit(m{"type": "group_start", "index": idx})
		idx++
		var ids []string
		for k := range 5 {
			ids = append(ids, fmt.Sprintf("t%d_%d", g, k))
		}
		for _, id := range ids {
			emit(m{"type": "content_block_start", "index": idx, "content_block": m{"type": "tool_use", "id": id, "name": "search_stock", "input": m{"symbol": "VNM"}, "tool_content_message": "Tìm " + id}})
			emit(m{"type": "content_block_stop", "index": idx})
			idx++
		}
		for k := len(ids) - 1; k >= 0; k-- {
			emit(m{"type": "content_block_start", "index": idx, "content_block": m{"type": "tool_result", "tool_use_id": ids[k], "tool_name": "search_stock", "content": "VNM: 82,000", "status": "success"}})
			emit(m{"type": "content_block_stop", "index": idx})
			idx++
		}
		emit(m{"type": "group_end", "index": idx, "summary": fmt.Sprintf("Nhóm %d", g)})
		idx++
		emit(m{"type": "content_block_start", "index": idx, "content_block": m{"type": "text", "text": ""}})
		for w := range 10 {
			emit(m{"type": "content_block_delta", "index": idx, "delta": m{"type": "text_delta", "text": fmt.Sprintf("từ %d ", w)}})
		}
		emit(m{"type": "content_block_stop", "index": idx})
		idx++
	}
	emit(m{"type": "message_delta", "delta": m{"stop_reason": "end_turn"}})
	emit(m{"type": "message_stop"})
	return out
}

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
// engine waits for each finished group's 300 ms collapse, ~45 s of
// sleeping per run. The wasm builds against patched go-app
// (wasm/goapp-wasm.patch), which this, natively, does not use.
//
//	go test -run '^$' -bench StreamRender -benchmem -memprofile mem.out ./components
func BenchmarkStreamRender(b *testing.B) {
	events := benchStream(5000)
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
