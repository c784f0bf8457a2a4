package native

import (
	"math/rand/v2"
	"time"
)

// MaxQueued is how many frames wait for a reconnection before sending is
// refused (backend.ErrOffline).
const MaxQueued = 32

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
