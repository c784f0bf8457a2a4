package i18n

import "strconv"

// numberFormat is how a language writes numbers (CLDR, Latin digits: the
// agent's own text has them, and a page mixing two sets would read
// badly). The server prerenders what the app renders, so the formats are
// here rather than asked of the browser's Intl.
type numberFormat struct {
	group, decimal string
	// minGroup: a 4-digit number is grouped only when 1 (CLDR's
	// minimumGroupingDigits 2: Spanish and Polish write 1000, 10 000).
	minGroup int
	// indian: groups of two above the thousands (1,00,000).
	indian bool
}

const (
	nbsp       = "\u00a0"
	narrowNbsp = "\u202f"
)

// numberFormats are each language's number format.
var numberFormats = map[string]numberFormat{
	"vi": {".", ",", 1, false}, "en": {",", ".", 1, false}, "fr": {narrowNbsp, ",", 1, false},
	"zh-Hans": {",", ".", 1, false}, "zh-Hant": {",", ".", 1, false}, "ja": {",", ".", 1, false},
	"ko": {",", ".", 1, false}, "es": {".", ",", 2, false}, "de": {".", ",", 1, false},
	"pt-BR": {".", ",", 1, false}, "it": {".", ",", 1, false}, "nl": {".", ",", 1, false},
	"pl": {nbsp, ",", 2, false}, "tr": {".", ",", 1, false}, "ru": {nbsp, ",", 1, false},
	"uk": {nbsp, ",", 1, false}, "id": {".", ",", 1, false}, "th": {",", ".", 1, false},
	"hi": {",", ".", 1, true}, "ar": {",", ".", 1, false}, "he": {",", ".", 1, false},
}

func (l Locale) numbers() numberFormat {
	if f, ok := numberFormats[l.Lang()]; ok {
		return f
	}
	return numberFormats["en"]
}

// Int formats n with the language's thousands separator.
func (l Locale) Int(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	f := l.numbers()
	if len(digits) <= 3 || (f.minGroup == 2 && len(digits) == 4) {
		return sign + digits
	}
	// The groups, from the right: three digits, then three or (Indian)
	// two at a time.
	var groups []string
	rest := digits
	size := 3
	for len(rest) > size {
		groups = append(groups, rest[len(rest)-size:])
		rest = rest[:len(rest)-size]
		if f.indian {
			size = 2
		}
	}
	out := rest
	for i := len(groups) - 1; i >= 0; i-- {
		out += f.group + groups[i]
	}
	return sign + out
}

// Decimal formats whole and one decimal digit ("1.5", "1,5").
func (l Locale) Decimal(whole int64, tenth int) string {
	return l.Int(whole) + l.numbers().decimal + strconv.Itoa(tenth)
}
