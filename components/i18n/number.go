package i18n

import "strconv"

// separators are each language's thousands separator: "1,234" in English,
// "1.234" in Vietnamese, "1 234" (a narrow no-break space) in French.
var separators = map[string]string{"en": ",", "vi": ".", "fr": "\u202f"}

// Int formats n with the language's thousands separator.
func (l Locale) Int(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	sep := separators[l.Lang()]
	if sep == "" || len(digits) <= 3 {
		return sign + digits
	}
	out := make([]byte, 0, len(digits)+len(digits)/3*len(sep))
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	out = append(out, digits[:head]...)
	for i := head; i < len(digits); i += 3 {
		out = append(out, sep...)
		out = append(out, digits[i:i+3]...)
	}
	return sign + string(out)
}
