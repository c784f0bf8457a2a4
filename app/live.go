package app

import (
	"errors"
	"math/rand/v2"
	"time"
)

// MaxQueued is how many frames wait for a reconnection before sending is
// refused.
const MaxQueued = 32

// ErrOffline is returned when a frame cannot even be queued.
var ErrOffline = errors.New("not connected, and too many messages are waiting")

// networkListener is a transport that follows the browser's network: it
// drops the connection the browser says is gone (a frame sent then waits
// for the next one instead of going into a dead socket), and reconnects
// at once when the network is back, without waiting out its backoff.
type networkListener interface {
	NetworkChanged(online bool)
}

// Backoff is the wait before reconnection attempt n (0-based): exponential
// from 500 ms to 15 s, with full jitter on its upper half so that many
// clients do not reconnect in step.
func Backoff(n int, rnd func() float64) time.Duration {
	d := 500 * time.Millisecond
	for i := 0; i < n && d < 15*time.Second; i++ {
		d *= 2
	}
	d = min(d, 15*time.Second)
	if rnd == nil {
		rnd = rand.Float64
	}
	return d/2 + time.Duration(rnd()*float64(d/2))
}
