package state

import (
	"encoding/json"
	"strings"
)

// EventID is an event's id as PROTOCOL.md section 1 orders them: integers and
// strings of decimal digits compare numerically and sort before any other
// string; other strings compare as strings. The zero EventID means "none".
type EventID struct {
	text    string // as sent, or the integer's decimal digits
	numeric bool
	digits  string // numeric only: the digits without leading zeros
}

// ParseEventID reads an event_id: a JSON string or number. ok is false when
// raw is absent, null, or of another JSON type.
func ParseEventID(raw json.RawMessage) (id EventID, ok bool) {
	if isNull(raw) {
		return EventID{}, false
	}
	if s, isStr := rawString(raw); isStr {
		return MakeEventID(s), s != ""
	}
	if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
		return MakeEventID(string(raw)), true
	}
	return EventID{}, false
}

// MakeEventID builds an EventID from its text form.
func MakeEventID(s string) EventID {
	if s == "" {
		return EventID{}
	}
	id := EventID{text: s}
	if isDigits(s) {
		id.numeric = true
		id.digits = strings.TrimLeft(s, "0")
	}
	return id
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
func (id EventID) IsZero() bool { return id.text == "" }

// String returns the id as sent.
func (id EventID) String() string { return id.text }

// Compare returns -1, 0 or +1 as id sorts before, with or after other.
func (id EventID) Compare(other EventID) int {
	switch {
	case id.numeric && !other.numeric:
		return -1
	case !id.numeric && other.numeric:
		return 1
	case id.numeric:
		if len(id.digits) != len(other.digits) {
			if len(id.digits) < len(other.digits) {
				return -1
			}
			return 1
		}
		return strings.Compare(id.digits, other.digits)
	default:
		return strings.Compare(id.text, other.text)
	}
}
