package wire

import (
	"encoding/json"
	"strconv"
	"strings"
)

// EventID is an event's id as PROTOCOL.md section 1 orders them: integers and
// strings of decimal digits compare numerically and sort before any other
// string; other strings compare as strings. The zero EventID means "none".
type EventID struct {
	// A plain decimal id that fits in a uint64 is kept as a number, so the
	// id of every event costs no allocation; anything else keeps its text.
	num     uint64
	text    string // as sent, when not kept as num alone
	numeric bool
	set     bool
}

// ParseEventID reads an event_id: a JSON string or number. ok is false when
// raw is absent, null, empty, or of another JSON type.
func ParseEventID(raw json.RawMessage) (id EventID, ok bool) {
	if IsNull(raw) {
		return EventID{}, false
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && raw[len(raw)-1] == '"' {
			if n, ok := plainDecimal(raw[1 : len(raw)-1]); ok {
				return EventID{num: n, numeric: true, set: true}, true
			}
		}
		s, isStr := StringValue(raw)
		return MakeEventID(s), isStr && s != ""
	}
	if n, ok := plainDecimal(raw); ok {
		return EventID{num: n, numeric: true, set: true}, true
	}
	if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
		return MakeEventID(string(raw)), true
	}
	return EventID{}, false
}

// plainDecimal parses digits with no leading zero that fit in a uint64.
func plainDecimal(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// MakeEventID builds an EventID from its text form.
func MakeEventID(s string) EventID {
	if s == "" {
		return EventID{}
	}
	if n, ok := plainDecimal([]byte(s)); ok {
		return EventID{num: n, numeric: true, set: true}
	}
	return EventID{text: s, numeric: isDigits(s), set: true}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// IsZero reports whether the id is unset.
func (id EventID) IsZero() bool { return !id.set }

// String returns the id as sent (an integer as its decimal digits).
func (id EventID) String() string {
	if id.text == "" && id.set {
		return strconv.FormatUint(id.num, 10)
	}
	return id.text
}

// digits returns a numeric id's digits without leading zeros.
func (id EventID) digits() string {
	if id.text == "" {
		return strconv.FormatUint(id.num, 10)
	}
	return strings.TrimLeft(id.text, "0")
}

// Compare returns -1, 0 or +1 as id sorts before, with or after other.
func (id EventID) Compare(other EventID) int {
	switch {
	case id.numeric && !other.numeric:
		return -1
	case !id.numeric && other.numeric:
		return 1
	case id.numeric:
		if id.text == "" && other.text == "" { // the common case: two plain numbers
			switch {
			case id.num < other.num:
				return -1
			case id.num > other.num:
				return 1
			}
			return 0
		}
		a, b := id.digits(), other.digits()
		if len(a) != len(b) {
			if len(a) < len(b) {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	default:
		return strings.Compare(id.text, other.text)
	}
}
