package browser

import (
	"sync/atomic"
	"time"
)

// Long work in slices.
//
// A long conversation's history is megabytes of JSON: decoded and loaded
// into the store in one go, it holds the browser for the better part of a
// second, the page frozen and deaf to input. The decoder and the store call
// a Pacer's Tick after each message; every PacedSlice of work the pacer
// lets the browser run a task of its own (PauseTask), so that the page
// paints and answers between slices. The work runs on the transport's
// goroutine, which waits meanwhile, so no event overtakes the history.

// PacedSlice is how long a slice of work may take: well under the 50 ms
// of a long task, long enough that the pauses cost little.
const PacedSlice = 12 * time.Millisecond

// pacedCheck is how many ticks pass between two reads of the clock.
const pacedCheck = 16

// pauses counts the pauses every pacer took (window.stepwise.pauses(), for
// the browser tests).
var pauses atomic.Int64

// Pacer pauses work that calls its tick after each unit, once per slice.
type Pacer struct {
	pause func() // returns once the browser has run; nil never pauses
	now   func() time.Time
	ticks int
	since time.Time // the slice's start
}

func NewPacer(pause func()) *Pacer {
	return &Pacer{pause: pause, now: time.Now, since: time.Now()}
}

// Tick counts a unit of work done, and pauses if the slice is over.
func (p *Pacer) Tick() {
	if p.pause == nil {
		return
	}
	if p.ticks++; p.ticks%pacedCheck != 0 || p.now().Sub(p.since) < PacedSlice {
		return
	}
	p.pause()
	pauses.Add(1)
	p.since = p.now()
}

// PausesTaken is how many pauses pacers have taken since the page started.
func PausesTaken() int64 { return pauses.Load() }
