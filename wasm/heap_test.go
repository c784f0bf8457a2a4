package main

import (
	"runtime"
	"testing"
	"time"
)

func TestGCPercentKeepsMinimumHeap(t *testing.T) {
	cases := []struct {
		live uint64
		want int
	}{
		{0, 400},         // Go's first goal: 4 MB × 4
		{1 << 20, 1500},  // 1 MB live may grow to 16
		{4 << 20, 300},   // 4 MB to 16
		{8 << 20, 100},   // from half the minimum, Go's default
		{100 << 20, 100}, // and never below it
	}
	for _, c := range cases {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
	// Below half the minimum, the goal is the minimum, less what the
	// percent's rounding down loses (under 1 % of the live heap).
	for live := uint64(1); live < minHeapGoal/2; live = live*3 + 1 {
		p := gcPercentFor(live)
		goal := live * uint64(100+p) / 100
		if goal > minHeapGoal || goal+live/100+1 < minHeapGoal {
			t.Errorf("live %d: GOGC %d puts the next collection at %d, want %d", live, p, goal, minHeapGoal)
		}
	}
}

func TestAfterEachCollectionRunsAfterEveryCycle(t *testing.T) {
	called := make(chan struct{}, 8)
	afterEachCollection(func() {
		select {
		case called <- struct{}{}:
		default:
		}
	})
	for i := range 3 {
		runtime.GC()
		select {
		case <-called:
		case <-time.After(time.Minute):
			t.Fatalf("not called after collection %d", i+1)
		}
	}
}
