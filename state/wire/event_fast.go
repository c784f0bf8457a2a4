package wire

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodeEventFast decodes the frames a stream is made of most of the time
// (content_block_start/delta/stop, group_start/end, message_start...) without
// reflection: in the browser, encoding/json cost about as much per event as
// the store and the views together. It handles a subset of the grammar: the
// keys below spelled exactly, each at most once, no null, integers written
// plainly. Anything else returns ok false and the caller decodes with
// encoding/json, so the result is always what json.Unmarshal gives
// (FuzzDecodeEventFast checks it).
func decodeEventFast(data []byte) (ev Event, ok bool) {
	d := fastDecoder{data: data}
	ok = d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return d.str(&ev.Type)
		case "event_id":
			return d.raw(&ev.EventID)
		case "index":
			return d.intPtr(&ev.Index)
		case "message":
			return d.raw(&ev.Message)
		case "message_id":
			return d.str(&ev.MessageID)
		case "summary":
			return d.strPtr(&ev.Summary)
		case "text":
			return d.strPtr(&ev.Text)
		case "error":
			return d.raw(&ev.Error)
		case "content_block":
			ev.ContentBlock = new(Block)
			return d.block(ev.ContentBlock)
		case "delta":
			ev.Delta = new(Delta)
			return d.delta(ev.Delta)
		}
		return false
	})
	if !ok || !d.end() {
		return Event{}, false
	}
	return ev, true
}

type fastDecoder struct {
	data []byte
	pos  int
}

func (d *fastDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func (d *fastDecoder) end() bool {
	d.skipSpace()
	return d.pos == len(d.data)
}

// object reads an object, calling field for each key with the position on
// its value; a key seen twice fails (encoding/json merges them).
func (d *fastDecoder) object(field func(key []byte) bool) bool {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return false
	}
	d.pos++
	var seen [12][]byte
	n := 0
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return true
	}
	for {
		d.skipSpace()
		key, ok := d.plainString()
		if !ok {
			return false
		}
		for _, k := range seen[:n] {
			if string(k) == string(key) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n] = key
		n++
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return false
		}
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == 'n' {
			return false // null: encoding/json's rules differ by type
		}
		if !field(key) {
			return false
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return false
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return true
		default:
			return false
		}
	}
}

// stringToken returns the string token at the position, quotes included,
// and whether it needs unescaping or UTF-8 repair.
func (d *fastDecoder) stringToken() (tok []byte, plain, ok bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, false, false
	}
	start := d.pos
	plain, ascii := true, true
	for i := d.pos + 1; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			tok = d.data[start:d.pos]
			if !ascii && plain && !utf8.Valid(tok) {
				plain = false
			}
			return tok, plain, true
		case c == '\\':
			plain = false
			i++ // the escaped byte cannot end the string
		case c < 0x20:
			return nil, false, false // invalid JSON: let encoding/json say so
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false, false
}

// plainString reads a string that needs no unescaping (keys).
func (d *fastDecoder) plainString() ([]byte, bool) {
	tok, plain, ok := d.stringToken()
	if !ok || !plain {
		return nil, false
	}
	return tok[1 : len(tok)-1], true
}

func (d *fastDecoder) str(dst *string) bool {
	tok, plain, ok := d.stringToken()
	if !ok {
		return false
	}
	if plain {
		*dst = string(tok[1 : len(tok)-1])
		return true
	}
	// Escapes and invalid UTF-8: encoding/json's own rules, on this string.
	// Into a string of its own: dst given to json.Unmarshal would make
	// every event's Event a heap allocation.
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return false
	}
	*dst = s
	return true
}

func (d *fastDecoder) strPtr(dst **string) bool {
	var s string
	if !d.str(&s) {
		return false
	}
	*dst = &s
	return true
}

func (d *fastDecoder) boolean(dst *bool) bool {
	rest := d.data[d.pos:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*dst, d.pos = true, d.pos+4
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*dst, d.pos = false, d.pos+5
	default:
		return false
	}
	return true
}

// intPtr reads an integer written -?(0|[1-9][0-9]*) that fits an int.
func (d *fastDecoder) intPtr(dst **int) bool {
	start := d.pos
	i := d.pos
	if i < len(d.data) && d.data[i] == '-' {
		i++
	}
	digits := i
	for i < len(d.data) && d.data[i] >= '0' && d.data[i] <= '9' {
		i++
	}
	if i == digits || (d.data[digits] == '0' && i > digits+1) {
		return false
	}
	if i < len(d.data) {
		switch d.data[i] {
		case '.', 'e', 'E':
			return false
		}
	}
	n, err := strconv.Atoi(string(d.data[start:i]))
	if err != nil {
		return false
	}
	d.pos = i
	*dst = &n
	return true
}

// raw reads any value as json.RawMessage would keep it (a copy of its
// bytes), checked with json.Valid when it is an object or an array.
func (d *fastDecoder) raw(dst *json.RawMessage) bool {
	start := d.pos
	if !d.skip() {
		return false
	}
	*dst = append(json.RawMessage(nil), d.data[start:d.pos]...)
	return true
}

// skip moves past any value, checked as raw checks it.
func (d *fastDecoder) skip() bool {
	start := d.pos
	if d.pos >= len(d.data) {
		return false
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		tok, plain, ok := d.stringToken()
		if !ok || !plain && !json.Valid(tok) {
			return false
		}
	case c == '{' || c == '[':
		if !d.skipComposite() {
			return false
		}
		if !json.Valid(d.data[start:d.pos]) {
			return false
		}
	case c == 't' || c == 'f':
		var b bool
		if !d.boolean(&b) {
			return false
		}
	case c == '-' || c >= '0' && c <= '9':
		for d.pos < len(d.data) && isNumberByte(d.data[d.pos]) {
			d.pos++
		}
		if !json.Valid(d.data[start:d.pos]) {
			return false
		}
	default:
		return false
	}
	return true
}

// skipComposite moves past an object or array by matching brackets outside
// strings; the caller validates the slice.
func (d *fastDecoder) skipComposite() bool {
	depth := 0
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '"':
			if _, _, ok := d.stringToken(); !ok {
				return false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				d.pos++
				return true
			}
		}
		d.pos++
	}
	return false
}

func (d *fastDecoder) block(b *Block) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return d.str(&b.Type)
		case "text":
			return d.str(&b.Text)
		case "thinking":
			return d.str(&b.Thinking)
		case "id":
			return d.str(&b.ID)
		case "name":
			return d.str(&b.Name)
		case "input":
			return d.raw(&b.Input)
		case "tool_use_id":
			return d.str(&b.ToolUseID)
		case "tool_name":
			return d.str(&b.ToolName)
		case "content":
			return d.raw(&b.Content)
		case "status":
			return d.str(&b.Status)
		case "tool_content_message":
			return d.str(&b.ToolContentMessage)
		case "is_error":
			return d.boolean(&b.IsError)
		case "citations":
			return d.raw(&b.Citations)
		}
		return false
	})
}

func (d *fastDecoder) delta(v *Delta) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return d.str(&v.Type)
		case "text":
			return d.str(&v.Text)
		case "thinking":
			return d.str(&v.Thinking)
		case "partial_json":
			return d.str(&v.PartialJSON)
		case "stop_reason":
			return d.str(&v.StopReason)
		}
		return false
	})
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
