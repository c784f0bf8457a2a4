package demo

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// Text. A browser closes a WebSocket on a text frame that is not UTF-8 and
// reconnects, forever when the frame is in the log: so what is not UTF-8
// is refused where it comes in (commands, frames, scenario files), and
// every frame is made valid before it is sent, since a damaged data file
// can still give back bad bytes.

// errNotUTF8 refuses a command that is not UTF-8 text.
var errNotUTF8 = errors.New("the command is not valid UTF-8 text")

var replacementChar = []byte(string(utf8.RuneError))

// validText returns b, or a copy of it with each invalid UTF-8 sequence
// replaced by U+FFFD (inside a JSON string, which is the only place a
// valid JSON text can hold one, it stays valid JSON).
func validText(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, replacementChar)
}

// storedEvent copies an event out of the data file. The agent stores only
// JSON it marshalled, which is UTF-8 and holds no control character:
// anything else is damage, repaired so that the event still goes out as
// valid text (a control character becomes a space, which JSON allows
// between tokens and a string may hold).
func storedEvent(v []byte) []byte {
	out := validText(bytes.Clone(v))
	for i, c := range out {
		if c < 0x20 {
			out[i] = ' '
		}
	}
	return out
}
