package state

import (
	"fmt"
	"testing"

	"stepwise/state/statetest"
	"stepwise/state/wire"
)

var benchSizes = []int{1_000, 10_000, 100_000}

// BenchmarkApply measures the store alone. As in the browser, each event
// is decoded shortly before it is applied: frames are decoded in batches of
// 1,000 with the timer stopped, then applied while the batch is hot.
// Decoding a whole 100k stream up front would time how fast tens of
// megabytes of decoded events stream from memory, not the store.
func BenchmarkApply(b *testing.B) {
	const batch = 1000
	for _, n := range benchSizes {
		frames := statetest.MixedStream(n)
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
		frames := statetest.MixedStream(n)
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
	frames := statetest.MixedStream(1000)
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
