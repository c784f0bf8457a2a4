package dom

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The renders of a streaming run take at most about a quarter of the
// time: after a render of d, the next waits 3d, at most maxRenderGap.
func TestRenderBudget(t *testing.T) {
	var b RenderBudget
	t0 := time.Unix(0, 0)
	assert.True(t, b.Due(t0))
	b.Rendered(t0, 2*time.Millisecond)
	assert.False(t, b.Due(t0.Add(5*time.Millisecond)))
	assert.True(t, b.Due(t0.Add(6*time.Millisecond)))
	wait, ok := b.Schedule(t0.Add(time.Millisecond))
	assert.True(t, ok)
	assert.Equal(t, 5*time.Millisecond, wait)
	_, ok = b.Schedule(t0.Add(2 * time.Millisecond))
	assert.False(t, ok, "one render is set at a time")
	b.Rendered(t0, 2*time.Second)
	assert.True(t, b.Due(t0.Add(maxRenderGap)))
}
