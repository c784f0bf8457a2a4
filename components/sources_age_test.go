package components

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expression relativeAge replaces: the oracle.
var relativeAgeOracle = regexp.MustCompile(`^(\d+|an?|one) (minute|hour|day|week|month|year)s? ago$`)

func TestRelativeAgeAsRegexp(t *testing.T) {
	for _, age := range []string{
		"2 days ago", "1 day ago", "an hour ago", "a minute ago", "one week ago", "12 months ago",
		"3 years ago", "a year ago", "an years ago", "100000000000000000000 days ago",
		"", "ago", "days ago", " 2 days ago", "2 days ago ", "2  days ago", "2 days  ago", "2 dayss ago",
		"2 s ago", "2 ago", "2 days", "2 days ago.", "two days ago", "-2 days ago", "2.5 days ago",
		"on week ago", "ann hour ago", "a hours ago", "2 Days ago", "２ days ago", "2 days agoo",
		"2 weeks ago\n", "2\tdays ago", "2 fortnights ago", "2 minutes ago", "0 seconds ago",
	} {
		m := relativeAgeOracle.FindStringSubmatch(age)
		count, unit, ok := relativeAge(age)
		assert.Equal(t, m != nil, ok, "%q", age)
		if m != nil {
			assert.Equal(t, []string{m[1], m[2]}, []string{count, unit}, "%q", age)
		}
	}
}

func FuzzRelativeAgeAsRegexp(f *testing.F) {
	f.Add("2 days ago")
	f.Add("an hour ago")
	f.Fuzz(func(t *testing.T, age string) {
		m := relativeAgeOracle.FindStringSubmatch(age)
		count, unit, ok := relativeAge(age)
		if (m != nil) != ok || (ok && (m[1] != count || m[2] != unit)) {
			t.Fatalf("relativeAge(%q) = %q, %q, %v; the expression finds %q", age, count, unit, ok, m)
		}
	})
}
