package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEventIDOrder(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"10", "9", 1},
		{"007", "7", 0},
		{"99", "a", -1}, // numeric sorts before non-numeric
		{"b", "a", 1},
		{"evt-2", "evt-10", 1}, // plain strings compare as strings
	}
	for _, c := range cases {
		assert.Equal(t, c.want, MakeEventID(c.a).Compare(MakeEventID(c.b)), "%s vs %s", c.a, c.b)
	}
	id, ok := ParseEventID(json.RawMessage(`12`))
	require.True(t, ok)
	assert.Equal(t, "12", id.String())
	_, ok = ParseEventID(json.RawMessage(`{"x":1}`))
	assert.False(t, ok)
}

func TestEventIDForms(t *testing.T) {
	big := MakeEventID("123456789012345678901234567890")
	assert.Equal(t, 1, big.Compare(MakeEventID("99")), "longer than a uint64 still compares numerically")
	assert.Equal(t, "123456789012345678901234567890", big.String())
	assert.Equal(t, "007", MakeEventID("007").String(), "kept as sent")
	assert.Equal(t, -1, MakeEventID("7").Compare(MakeEventID("008")))
	id, ok := ParseEventID(json.RawMessage(`"42"`))
	require.True(t, ok)
	assert.Equal(t, 0, id.Compare(MakeEventID("42")))
	_, ok = ParseEventID(json.RawMessage(`""`))
	assert.False(t, ok)
}
