package wire

import (
	"bytes"
	"strings"
)

// SSEEvent is one Server-Sent Event.
type SSEEvent struct {
	Event string // the event field, "" for the default "message"
	Data  string // the data lines joined by "\n"
	ID    string
}

// Done reports the AI SDK's end-of-stream marker, `data: [DONE]`.
func (e SSEEvent) Done() bool { return strings.TrimSpace(e.Data) == "[DONE]" }

// SSEParser splits a Server-Sent Events stream into events as the WHATWG
// specification reads it: lines end with CRLF, LF or CR; a line starting
// with ":" is a comment; "data" lines accumulate; a blank line dispatches.
// Bytes can arrive in chunks of any size (a fetch stream's reads): a line
// cut between two chunks is completed by the next.
type SSEParser struct {
	line    []byte
	data    strings.Builder
	event   string
	id      string
	hasData bool
	afterCR bool // the last byte seen was a CR: a following LF is part of it
}

// Feed parses chunk and calls emit for each complete event.
func (p *SSEParser) Feed(chunk []byte, emit func(SSEEvent)) {
	for len(chunk) > 0 {
		if p.afterCR {
			p.afterCR = false
			if chunk[0] == '\n' {
				chunk = chunk[1:]
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			p.line = append(p.line, chunk...)
			return
		}
		p.line = append(p.line, chunk[:i]...)
		p.afterCR = chunk[i] == '\r'
		chunk = chunk[i+1:]
		p.processLine(emit)
		p.line = p.line[:0]
	}
}

// Close ends the stream. An event whose blank line never came is still
// dispatched: servers that close right after their last data line lose
// nothing.
func (p *SSEParser) Close(emit func(SSEEvent)) {
	if len(p.line) > 0 {
		p.processLine(emit)
		p.line = p.line[:0]
	}
	p.dispatch(emit)
}

func (p *SSEParser) processLine(emit func(SSEEvent)) {
	line := p.line
	if len(line) == 0 {
		p.dispatch(emit)
		return
	}
	if line[0] == ':' {
		return
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if p.hasData {
			p.data.WriteByte('\n')
		}
		p.data.Write(value)
		p.hasData = true
	case "event":
		p.event = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.id = string(value)
		}
	}
}

func (p *SSEParser) dispatch(emit func(SSEEvent)) {
	if p.hasData {
		emit(SSEEvent{Event: p.event, Data: p.data.String(), ID: p.id})
	}
	p.data.Reset()
	p.hasData = false
	p.event = ""
}
