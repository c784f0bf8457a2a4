package wire

import (
	"bytes"
	"encoding/json"
)

// Dialect is the protocol an event belongs to. Stepwise recognises it per
// event (BACKENDS.md section 6), so a captured stream of any backend, even
// one whose lines mix dialects, replays as the browser would show it.
type Dialect int

// The dialects.
const (
	// Native is PROTOCOL.md's (and Anthropic's): snake_case types.
	Native Dialect = iota
	// AGUI is an AG-UI agent's: UPPER_CASE types.
	AGUI
	// AISDK is an AI SDK UI message stream's: kebab-case types, and the
	// single words start, finish, abort, file and custom (v7).
	AISDK
)

// DialectOf tells the dialect of an event type. An AI SDK "error" chunk
// shares its type with the native error event; it is told apart by its
// errorText field (see the state package).
func DialectOf(eventType string) Dialect {
	if eventType == "" {
		return Native
	}
	upper, letter := true, false
	for i := 0; i < len(eventType); i++ {
		c := eventType[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || (c >= '0' && c <= '9'):
		case c == '-':
			return AISDK
		default:
			upper = false
		}
	}
	if upper && letter {
		return AGUI
	}
	switch eventType {
	case "start", "finish", "abort", "file", "custom":
		return AISDK
	}
	return Native
}

// PeekType reads only the "type" of a JSON object frame; ok is false when
// the frame is not an object or its type is not a string.
func PeekType(data []byte) (typ string, ok bool) {
	if !isObject(data) {
		return "", false
	}
	var head struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(data, &head) != nil {
		return "", false
	}
	return StringValue(head.Type)
}

func isObject(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}
