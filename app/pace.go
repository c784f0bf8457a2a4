package app

import (
	"sync/atomic"
	"time"
)

// Long work in slices.
//
// A long conversation's history is megabytes of JSON: decoded and loaded
// into the store in one go, it holds the browser for the better part of a
// second, the page frozen and deaf to input. The decoder and the store call
// a pacer's tick after each message; every pacedSlice of work the pacer
// lets the browser run a task of its own (pauseTask), so that the page
// paints and answers between slices. The work runs on the transport's
// goroutine, which waits meanwhile, so no event overtakes the history.

// pacedSlice is how long a slice of work may take: well under the 50 ms
// of a long task, long enough that the pauses cost little.
const pacedSlice = 12 * time.Millisecond

// pacedCheck is how many ticks pass between two reads of the clock.
const pacedCheck = 16

// pauses counts the pauses every pacer took (window.stepwise.pauses(), for
// the browser tests).
var pauses atomic.Int64

// pacer pauses work that calls its tick after each unit, once per slice.
type pacer struct {
	pause func() // returns once the browser has run; nil never pauses
	now   func() time.Time
	ticks int
	since time.Time // the slice's start
}

func newPacer(pause func()) *pacer {
	return &pacer{pause: pause, now: time.Now, since: time.Now()}
}

// tick counts a unit of work done, and pauses if the slice is over.
func (p *pacer) tick() {
	if p.pause == nil {
		return
	}
	if p.ticks++; p.ticks%pacedCheck != 0 || p.now().Sub(p.since) < pacedSlice {
		return
	}
	p.pause()
	pauses.Add(1)
	p.since = p.now()
}

// pausesTaken is how many pauses pacers have taken since the page started.
func pausesTaken() int64 { return pauses.Load() }
