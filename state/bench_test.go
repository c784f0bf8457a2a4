package state

import (
	"encoding/json"
	"fmt"
	"testing"

	"stepwise/state/wire"
)

// mixedStream builds the stream of ../shared/bench/gen-events.py with n
// events: groups of five tools whose results arrive in reverse order, each
// followed by a text answer streamed in ten deltas.
func mixedStream(n int) [][]byte {
	var out [][]byte
	emit := func(ev map[string]any) {
		ev["event_id"] = fmt.Sprint(len(out) + 1)
		b, _ := json.Marshal(ev)
		out = append(out, b)
	}
	emit(map[string]any{"type": "message_start", "message": map[string]any{"id": "m", "role": "assistant", "message_type": "chat"}})
	idx := 0
	for g := 1; len(out) < n-2; g++ {
		emit(map[string]any{"type": "group_start", "index": idx})
		idx++
		ids := make([]string, 5)
		for k := range ids {
			ids[k] = fmt.Sprintf("t%d_%d", g, k)
			emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
				"type": "tool_use", "id": ids[k], "name": "search_stock", "input": map[string]any{"symbol": "VNM"}, "tool_content_message": "Tìm " + ids[k]}})
			emit(map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		for k := len(ids) - 1; k >= 0; k-- {
			emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
				"type": "tool_result", "tool_use_id": ids[k], "tool_name": "search_stock", "content": "VNM: 82,000", "status": "success"}})
			emit(map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		emit(map[string]any{"type": "group_end", "index": idx, "summary": fmt.Sprintf("Nhóm %d", g)})
		idx++
		emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		for w := 0; w < 10; w++ {
			emit(map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": fmt.Sprintf("từ %d ", w)}})
		}
		emit(map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	emit(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}})
	emit(map[string]any{"type": "message_stop"})
	return out
}

var benchSizes = []int{1_000, 10_000, 100_000}

// BenchmarkApply measures the store alone. As in the browser, each event
// is decoded shortly before it is applied: frames are decoded in batches of
// 1,000 with the timer stopped, then applied while the batch is hot.
// Decoding a whole 100k stream up front would time how fast ~50 MB of
// decoded events stream from memory, not the store.
func BenchmarkApply(b *testing.B) {
	const batch = 1000
	for _, n := range benchSizes {
		frames := mixedStream(n)
		events := make([]wire.Event, batch)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := New(DefaultOptions())
				for lo := 0; lo < len(frames); lo += batch {
					b.StopTimer()
					hi := min(lo+batch, len(frames))
					for i, f := range frames[lo:hi] {
						events[i], _ = wire.DecodeEvent(f)
					}
					b.StartTimer()
					for i := range hi - lo {
						s.Apply(&events[i])
					}
				}
			}
			reportPerEvent(b, len(frames))
		})
	}
}

// BenchmarkApplyJSON measures what the browser does per frame: decode, then apply.
func BenchmarkApplyJSON(b *testing.B) {
	for _, n := range benchSizes {
		frames := mixedStream(n)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := New(DefaultOptions())
				for _, f := range frames {
					s.ApplyJSON(f)
				}
			}
			reportPerEvent(b, len(frames))
		})
	}
}

func reportPerEvent(b *testing.B, events int) {
	perEvent := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(events)
	b.ReportMetric(perEvent, "ns/event")
	b.ReportMetric(1e9/perEvent, "events/s")
	b.ReportMetric(0, "ns/op")
}

func TestMixedStreamShape(t *testing.T) {
	frames := mixedStream(1000)
	if len(frames) < 1000 || len(frames) > 1030 {
		t.Fatalf("stream has %d events", len(frames))
	}
	s := New(DefaultOptions())
	for _, f := range frames {
		if ch := s.ApplyJSON(f); ch.Outcome != Applied {
			t.Fatalf("frame %s: outcome %v", f, ch.Outcome)
		}
	}
	checkInvariants(t, s)
	if s.Status() != StatusIdle {
		t.Fatalf("status %s", s.Status())
	}
	for _, it := range s.Items() {
		if it.Kind == KindGroup {
			for _, st := range it.Group.Steps {
				if st.Tool.Status != ToolDone {
					t.Fatalf("tool %s is %s", st.Tool.ID, st.Tool.Status)
				}
			}
		}
	}
}
