package i18n

import "testing"

func TestInt(t *testing.T) {
	for _, tc := range []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 0, "0"},
		{"en", 999, "999"},
		{"en", 1234, "1,234"},
		{"en", 1234567, "1,234,567"},
		{"en", -10682, "-10,682"},
		{"vi", 10682, "10.682"},
		{"fr", 210320, "210\u202f320"},
		{"fr", 100, "100"},
	} {
		if got := Match(tc.lang).Int(tc.n); got != tc.want {
			t.Errorf("%s Int(%d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
	for _, lang := range Languages {
		if separators[lang] == "" {
			t.Errorf("%s has no thousands separator", lang)
		}
	}
}
