package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// minHeapGoal is the heap the collector lets the page reach before it
// collects, however little of it is live. Go's default (GOGC=100) starts
// collecting at 4 MB: a stream's first seconds in a fresh tab then run
// several collections in code V8 has not optimised yet, and make the
// collector's large functions hot, for V8 to optimise on the second core
// while the stream plays. Past minHeapGoal/2 of live heap the collector
// runs as by default: twice the live heap at most.
const minHeapGoal = 16 << 20

// keepMinimumHeap sets the collector's target so that the heap may grow to
// minHeapGoal before a collection, and resets it after each collection for
// the heap then live. Call it once, before the app starts.
func keepMinimumHeap() {
	// With nothing live yet, Go's first goal is 4 MB × GOGC/100.
	debug.SetGCPercent(gcPercentFor(0))
	afterEachCollection(func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(gcPercentFor(sample[0].Value.Uint64()))
		}
	})
}

// gcPercentFor returns the GOGC that puts the next collection at
// minHeapGoal for a live heap of live bytes, and at no less than Go's
// default of 100 (twice the live heap).
func gcPercentFor(live uint64) int {
	const floor = 100
	if live == 0 {
		return minHeapGoal / (4 << 20) * 100
	}
	if live >= minHeapGoal/2 {
		return floor
	}
	return max(floor, int((minHeapGoal-live)*100/live))
}

// afterEachCollection calls f on the finalizers' goroutine after each
// collection cycle: an unreachable sentinel's finalizer runs once a cycle
// has found it, and arms the next one.
func afterEachCollection(f func()) {
	type sentinel struct{ _ [16]byte } // not a tiny allocation: its own finalizer
	var arm func()
	arm = func() {
		runtime.SetFinalizer(new(sentinel), func(*sentinel) {
			f()
			arm()
		})
	}
	arm()
}
