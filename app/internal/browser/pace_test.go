package browser

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestPacerPausesOncePerSlice: the pacer pauses when a slice of work is
// over, counted from the last pause, and reads the clock only every
// pacedCheck ticks.
func TestPacerPausesOncePerSlice(t *testing.T) {
	clock := time.Unix(0, 0)
	reads, paused := 0, 0
	p := &Pacer{
		pause: func() { paused++ },
		now:   func() time.Time { reads++; return clock },
		since: clock,
	}
	counted := PausesTaken()
	step := PacedSlice / 40 // one unit of work
	for range 40 * 3 {      // three slices of work
		clock = clock.Add(step)
		p.Tick()
	}
	assert.Equal(t, 2, paused, "40 units a slice, 120 units: a pause at 48 and 96 ticks (read every 16)")
	assert.Equal(t, int64(2), PausesTaken()-counted)
	assert.Equal(t, 120/pacedCheck+paused, reads)

	idle := &Pacer{pause: nil, now: func() time.Time { t.Fatal("no pause: no clock"); return clock }}
	for range 100 {
		idle.Tick()
	}
}

func TestTrimBOM(t *testing.T) {
	assert.Equal(t, []byte(`{"a":1}`), trimBOM([]byte("\xef\xbb\xbf{\"a\":1}")))
	assert.Equal(t, []byte(`{}`), trimBOM([]byte(`{}`)))
	assert.Equal(t, []byte("\xef\xbb"), trimBOM([]byte("\xef\xbb")))
}
