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
		{"de", 1234567, "1.234.567"},
		{"es", 1234, "1234"},
		{"es", 12345, "12.345"},
		{"pl", 1234, "1234"},
		{"pl", 12345, "12\u00a0345"},
		{"ru", 1234, "1\u00a0234"},
		{"hi", 1234567, "12,34,567"},
		{"hi", 123, "123"},
		{"hi", 1234, "1,234"},
		{"hi", -100000, "-1,00,000"},
		{"ja", 1234567, "1,234,567"},
		{"ar", 1234, "1,234"},
	} {
		if got := Match(tc.lang).Int(tc.n); got != tc.want {
			t.Errorf("%s Int(%d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
	for _, lang := range Languages {
		if _, ok := numberFormats[lang]; !ok {
			t.Errorf("%s has no number format", lang)
		}
	}
	for lang, want := range map[string]string{"en": "1,234.5", "de": "1.234,5", "fr": "1\u202f234,5", "hi": "1,234.5"} {
		if got := Match(lang).Decimal(1234, 5); got != want {
			t.Errorf("%s Decimal(1234, 5) = %q, want %q", lang, got, want)
		}
	}
}
