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

// TestNegativeEventIDsCompareNumerically: PROTOCOL.md section 1 makes every
// integer numeric, negative ones too, and a numeric id sorts before any
// other string. A "-5" compared as text would sort after "1" and before
// "-1", and a subscribe after -5 would replay nothing.
func TestNegativeEventIDsCompareNumerically(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"-5", "-1", -1},
		{"-1", "-5", 1},
		{"-10", "-9", -1},
		{"-1", "0", -1},
		{"-1", "1", -1},
		{"1", "-5", 1},
		{"-0", "0", 0},
		{"-007", "-7", 0},
		{"-1", "a", -1}, // numeric before non-numeric
		{"-1", "-a", -1},
		{"-123456789012345678901234567890", "-1", -1}, // beyond uint64
		{"-1", "-123456789012345678901234567890", 1},
		{"-123456789012345678901234567890", "-123456789012345678901234567891", 1},
		{"-123456789012345678901234567890", "123456789012345678901234567890", -1},
		{"-18446744073709551616", "-18446744073709551615", -1}, // 2^64 against 2^64-1
	}
	for _, c := range cases {
		assert.Equal(t, c.want, MakeEventID(c.a).Compare(MakeEventID(c.b)), "%s vs %s", c.a, c.b)
		assert.Equal(t, -c.want, MakeEventID(c.b).Compare(MakeEventID(c.a)), "%s vs %s", c.b, c.a)
	}

	// JSON integers and strings of the same value are the same id.
	parse := func(raw string) EventID {
		t.Helper()
		id, ok := ParseEventID(json.RawMessage(raw))
		require.True(t, ok, raw)
		return id
	}
	assert.Equal(t, 0, parse(`-5`).Compare(parse(`"-5"`)))
	assert.Equal(t, -1, parse(`-5`).Compare(parse(`-1`)))
	assert.Equal(t, -1, parse(`-5`).Compare(parse(`"-1"`)))
	assert.Equal(t, -1, parse(`-5`).Compare(parse(`1`)))
	assert.Equal(t, 1, parse(`3`).Compare(parse(`-5`)), "an event after last_event_id -5 is replayed")
	assert.Equal(t, -1, parse(`-99999999999999999999999`).Compare(parse(`-5`)))
	assert.Equal(t, "-5", parse(`-5`).String(), "kept as sent")
	assert.Equal(t, "-0", parse(`"-0"`).String(), "kept as sent")
	assert.Equal(t, "-123456789012345678901234567890", MakeEventID("-123456789012345678901234567890").String())
}

// TestEventIDsThatAreNotIntegers: a sign alone, a sign inside, a fraction
// or an exponent make a non-numeric id, compared as text after every
// numeric one.
func TestEventIDsThatAreNotIntegers(t *testing.T) {
	for _, s := range []string{"-", "--1", "+1", "1-", "1.5", "1e3", "-1.5", " 1"} {
		assert.Equal(t, 1, MakeEventID(s).Compare(MakeEventID("-99")), "%q sorts after every number", s)
		assert.Equal(t, s, MakeEventID(s).String())
	}
	id, ok := ParseEventID(json.RawMessage(`1.5`))
	require.True(t, ok)
	assert.Equal(t, 1, id.Compare(MakeEventID("2")), "a JSON fraction is not an integer")
}

// TestEventIDsCostNoAllocation: every event carries an id, so the usual
// forms (a short integer, as a JSON number or a string) are read and
// compared without touching the heap.
func TestEventIDsCostNoAllocation(t *testing.T) {
	raws := []json.RawMessage{json.RawMessage(`41`), json.RawMessage(`"41"`), json.RawMessage(`-5`), json.RawMessage(`"-5"`)}
	last := MakeEventID("7")
	allocs := testing.AllocsPerRun(100, func() {
		for _, raw := range raws {
			id, _ := ParseEventID(raw)
			_ = id.Compare(last)
		}
	})
	assert.Zero(t, allocs)
}
