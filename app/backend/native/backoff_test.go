package native

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestBackoff(t *testing.T) {
	lo := func() float64 { return 0 }
	hi := func() float64 { return 0.999999 }
	assert.Equal(t, 250*time.Millisecond, Backoff(0, lo))
	assert.InDelta(t, float64(500*time.Millisecond), float64(Backoff(0, hi)), float64(time.Millisecond))
	assert.Equal(t, 2*time.Second, Backoff(3, lo))
	assert.Equal(t, 7500*time.Millisecond, Backoff(10, lo), "capped at 15 s, half of it at least")
	assert.LessOrEqual(t, Backoff(50, hi), 15*time.Second)
	for n := 0; n < 6; n++ {
		assert.Less(t, Backoff(n, hi), Backoff(n+1, hi)+time.Millisecond, "grows")
	}
}

func TestPath(t *testing.T) {
	assert.Equal(t, "/api/sessions/a%2Fb/ws", Config{SessionID: "a/b"}.path("/api/sessions/{session_id}/ws"))
}
