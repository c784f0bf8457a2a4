package wire

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
)

// EventID is an event's id as PROTOCOL.md section 1 orders them: integers,
// negative ones too, and strings of decimal digits compare numerically and
// sort before any other string, whatever their size; other strings compare
// as strings. The zero EventID means "none".
type EventID struct {
	// An integer written the shortest way ("42", "-5") whose magnitude fits
	// in a uint64 is kept as a number, so the id of every event costs no
	// allocation; anything else keeps its text.
	num     uint64 // the magnitude, when text is ""
	text    string // as sent, when not kept as num alone
	numeric bool
	neg     bool // numeric and below zero
	set     bool
}

// ParseEventID reads an event_id: a JSON string or number. ok is false when
// raw is absent, null, empty, or of another JSON type. A JSON number that is
// not an integer (1.5, 1e3) is kept as text.
func ParseEventID(raw json.RawMessage) (id EventID, ok bool) {
	if IsNull(raw) {
		return EventID{}, false
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && raw[len(raw)-1] == '"' {
			if id, ok := shortInteger(raw[1 : len(raw)-1]); ok {
				return id, true
			}
		}
		s, isStr := StringValue(raw)
		return MakeEventID(s), isStr && s != ""
	}
	if id, ok := shortInteger(raw); ok {
		return id, true
	}
	if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
		return MakeEventID(string(raw)), true
	}
	return EventID{}, false
}

// shortInteger reads an integer written the shortest way (no leading zero,
// no "-0") whose magnitude fits in a uint64: the form kept without its text.
func shortInteger(b []byte) (EventID, bool) {
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) || bytes.ContainsFunc(digits, notDigit) {
		return EventID{}, false
	}
	// string(digits) does not escape: no allocation. Only a magnitude
	// beyond a uint64 fails here.
	n, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil || (neg && n == 0) {
		return EventID{}, false
	}
	return EventID{num: n, numeric: true, neg: neg, set: true}, true
}

// MakeEventID builds an EventID from its text form.
func MakeEventID(s string) EventID {
	if s == "" {
		return EventID{}
	}
	if id, ok := shortInteger([]byte(s)); ok {
		return id
	}
	neg, digits, numeric := splitInteger(s)
	return EventID{text: s, numeric: numeric, neg: numeric && neg && digits != "", set: true}
}

// splitInteger splits an optional minus sign off s; numeric is true when
// the rest is decimal digits. digits is the rest without leading zeros.
func splitInteger(s string) (neg bool, digits string, numeric bool) {
	rest, neg := strings.CutPrefix(s, "-")
	if rest == "" || strings.ContainsFunc(rest, notDigit) {
		return false, "", false
	}
	return neg, strings.TrimLeft(rest, "0"), true
}

func notDigit(r rune) bool { return r < '0' || r > '9' }

// IsZero reports whether the id is unset.
func (id EventID) IsZero() bool { return !id.set }

// String returns the id as sent (an integer as its decimal digits).
func (id EventID) String() string {
	if id.text != "" || !id.set {
		return id.text
	}
	if id.neg {
		return "-" + strconv.FormatUint(id.num, 10)
	}
	return strconv.FormatUint(id.num, 10)
}

// sign is -1, 0 or +1 as a numeric id is below, at or above zero.
func (id EventID) sign() int {
	switch {
	case id.neg:
		return -1
	case id.text == "" && id.num == 0, id.text != "" && id.magnitude() == "":
		return 0
	}
	return 1
}

// magnitude returns a numeric id's digits without sign and leading zeros
// ("" for zero).
func (id EventID) magnitude() string {
	if id.text == "" {
		if id.num == 0 {
			return ""
		}
		return strconv.FormatUint(id.num, 10)
	}
	_, digits, _ := splitInteger(id.text)
	return digits
}

// Compare returns -1, 0 or +1 as id sorts before, with or after other.
func (id EventID) Compare(other EventID) int {
	switch {
	case id.numeric && !other.numeric:
		return -1
	case !id.numeric && other.numeric:
		return 1
	case !id.numeric:
		return strings.Compare(id.text, other.text)
	}
	if id.text == "" && other.text == "" && !id.neg && !other.neg { // the common case
		return cmp.Compare(id.num, other.num)
	}
	sign := id.sign()
	if c := cmp.Compare(sign, other.sign()); c != 0 || sign == 0 {
		return c
	}
	// Same sign: compare magnitudes, longer is larger; below zero, the
	// larger magnitude is the smaller number.
	var c int
	if id.text == "" && other.text == "" {
		c = cmp.Compare(id.num, other.num)
	} else {
		a, b := id.magnitude(), other.magnitude()
		c = cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	}
	return c * sign
}
