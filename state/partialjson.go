package state

import (
	"bytes"
	"encoding/json"
)

// repairPartialJSON makes a JSON value of the start of one, as tool-call
// arguments arrive in pieces: open strings, arrays and objects are closed,
// and an element cut in the middle is dropped. ok is false when nothing
// valid can be made of it yet.
func repairPartialJSON(text []byte) (json.RawMessage, bool) {
	t := bytes.TrimSpace(text)
	for attempt := 0; attempt < 16 && len(t) > 0; attempt++ {
		closed, cut := closeJSON(t)
		if json.Valid(closed) {
			return closed, true
		}
		if cut <= 0 || cut >= len(t) {
			return nil, false
		}
		t = bytes.TrimSpace(t[:cut])
	}
	return nil, false
}

// closeJSON appends to t what closes its open string and containers. cut is
// where a shorter prefix may end validly: the last comma, or just after the
// last opening bracket, outside strings (-1 when none).
func closeJSON(t []byte) (closed []byte, cut int) {
	var stack []byte
	inString, escaped := false, false
	cut = -1
	for i, c := range t {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, c)
			cut = i + 1
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			cut = i
		}
	}
	closed = make([]byte, 0, len(t)+len(stack)+2)
	closed = append(closed, t...)
	if inString {
		if escaped {
			closed = closed[:len(closed)-1] // a lone backslash
		}
		closed = append(closed, '"')
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			closed = append(closed, '}')
		} else {
			closed = append(closed, ']')
		}
	}
	return closed, cut
}
