package wire

import (
	"cmp"
	"strconv"
	"testing"
)

// FuzzEventIDOrder checks that Compare is a total order and, for ids that
// are int64s, the numeric one: the oracle is strconv and cmp.
func FuzzEventIDOrder(f *testing.F) {
	for _, seed := range [][3]string{
		{"9", "10", "11"}, {"-5", "-1", "0"}, {"-0", "0", "00"}, {"-007", "-7", "7"},
		{"a", "-1", "1"}, {"evt-2", "evt-10", "-"}, {"18446744073709551615", "18446744073709551616", "-18446744073709551616"},
		{"1.5", "1e3", "+1"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ia, ib, ic := MakeEventID(a), MakeEventID(b), MakeEventID(c)
		if a == "" || b == "" || c == "" {
			return // the zero EventID is "none", not an id
		}
		ab, ba := ia.Compare(ib), ib.Compare(ia)
		if ab != -ba {
			t.Fatalf("%q vs %q is %d, the other way %d", a, b, ab, ba)
		}
		if ab <= 0 && ib.Compare(ic) <= 0 && ia.Compare(ic) > 0 {
			t.Fatalf("%q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
		// strconv takes a plus sign; the protocol's integers have none.
		na, errA := strconv.ParseInt(a, 10, 64)
		nb, errB := strconv.ParseInt(b, 10, 64)
		if errA == nil && errB == nil && a[0] != '+' && b[0] != '+' && ab != cmp.Compare(na, nb) {
			t.Fatalf("%q vs %q is %d, numerically %d", a, b, ab, cmp.Compare(na, nb))
		}
		if ia.String() != a {
			t.Fatalf("%q reads back as %q", a, ia.String())
		}
	})
}
