package replay

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPercentileAndLines(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3}
	assert.Equal(t, 3.0, Percentile(v, 50))
	assert.Equal(t, 5.0, Percentile(v, 95))
	assert.Equal(t, 1.0, Percentile(v, 0))
	assert.Equal(t, [][]byte{[]byte("a"), []byte("b")}, SplitLines([]byte(" a \n\n b\r\n")))
	// Server-Sent Events as the replay command reads them: data lines of
	// one event joined, other fields and [DONE] not frames.
	assert.Equal(t, [][]byte{[]byte("{\"a\":\n1}"), []byte("{}")}, SplitLines([]byte("event: x\ndata: {\"a\":\ndata: 1}\n\ndata: {}\n\ndata: [DONE]\n\n")))
}
