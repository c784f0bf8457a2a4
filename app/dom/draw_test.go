package dom

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"stepwise/components"
)

func TestDrawerHoldsBackAllButTheNewestChunks(t *testing.T) {
	var d drawer
	d.holdBack(0, 1)
	d.holdBack(0, drawAtOnce)
	assert.Empty(t, d.waiting, "a change of no more than drawAtOnce chunks is drawn at once")

	d.holdBack(0, 10)
	assert.Len(t, d.waiting, 10-drawAtOnce)
	for i := 10 - drawAtOnce; i < 10; i++ {
		assert.False(t, d.waiting[i], "chunk %d, among the newest, waits", i)
	}
	// A later arrival: the chunks it brought wait too, but its newest.
	d.holdBack(10, 15)
	assert.Len(t, d.waiting, 10-drawAtOnce+5-drawAtOnce)
	assert.True(t, d.waiting[12])
	assert.False(t, d.waiting[13])

	// Drawn newest first.
	assert.True(t, d.drawNext(2))
	assert.False(t, d.waiting[12])
	assert.False(t, d.waiting[11])
	assert.True(t, d.waiting[10])
	assert.True(t, d.drawNext(100))
	assert.Empty(t, d.waiting)
	assert.False(t, d.drawNext(1), "nothing left to draw")

	d.holdBack(0, 5)
	d.forget()
	assert.Empty(t, d.waiting)
}

func TestFreezeCandidatesSkipWaitingChunks(t *testing.T) {
	f, _ := newFreezer()
	items := answers(4*components.ChunkSize + 1) // chunks 0..4
	waiting := map[int]bool{0: true, 2: true}
	assert.Equal(t, []int{1}, f.candidates(items, waiting, "", time.Now(), 8), "a chunk drawn empty has nothing to copy")
}

// TestDrawerAdaptsChunksPerTask: a cheap draw lets the next task draw one
// chunk more, a dear one one fewer, between 1 and drawMost.
func TestDrawerAdaptsChunksPerTask(t *testing.T) {
	var d drawer
	d.adapt(drawBudget * 2)
	assert.Equal(t, 1, d.perTask, "never fewer than one")
	d.adapt(drawBudget / 4)
	assert.Equal(t, 2, d.perTask)
	d.adapt(drawBudget * 3 / 4)
	assert.Equal(t, 2, d.perTask, "within the budget: as many")
	for range 10 {
		d.adapt(time.Millisecond)
	}
	assert.Equal(t, drawMost, d.perTask)
	d.adapt(drawBudget + time.Millisecond)
	assert.Equal(t, drawMost-1, d.perTask)
}
