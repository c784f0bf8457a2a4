package state

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxJSONIndent caps the levels IndentJSON indents. Indenting costs twice
// the depth in spaces on every line, so the text of a deeply nested value
// grows with the square of its depth, not with its size (docs/security.md,
// "Rendering limits"). Real tool arguments and results nest a few levels,
// API responses a dozen at most.
const maxJSONIndent = 32

// IndentJSON formats a JSON value for reading (tool requests, artifacts),
// as json.Indent with two spaces would, but for a value nested deeper than
// maxJSONIndent: that one is written compactly on its line. Text that is
// not JSON is returned as is.
func IndentJSON(raw []byte) string {
	if !json.Valid(raw) {
		return string(raw)
	}
	src := bytes.TrimLeft(raw, " \t\r\n")
	end := len(bytes.TrimRight(src, " \t\r\n"))
	var b strings.Builder
	b.Grow(len(src) + len(src)/2)
	newline := func(depth int) {
		b.WriteByte('\n')
		for range depth {
			b.WriteString("  ")
		}
	}
	depth := 0 // containers open
	for i := 0; i < end; i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\r', '\n':
		case '"':
			j := i + 1
			for src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			b.Write(src[i : j+1])
			i = j
		case '{', '[':
			b.WriteByte(c)
			next := i + 1
			for src[next] == ' ' || src[next] == '\t' || src[next] == '\r' || src[next] == '\n' {
				next++
			}
			if src[next] == '}' || src[next] == ']' { // empty: {} or []
				b.WriteByte(src[next])
				i = next
				continue
			}
			depth++
			if depth <= maxJSONIndent {
				newline(depth)
			}
		case '}', ']':
			depth--
			if depth < maxJSONIndent {
				newline(depth)
			}
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			if depth <= maxJSONIndent {
				newline(depth)
			}
		case ':':
			b.WriteByte(c)
			if depth <= maxJSONIndent {
				b.WriteByte(' ')
			}
		default: // numbers, true, false, null
			b.WriteByte(c)
		}
	}
	b.Write(src[end:]) // trailing space, kept as json.Indent keeps it
	return b.String()
}
