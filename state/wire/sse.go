package wire

import (
	"bufio"
	"bytes"
	"io"
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
//
// With MaxData set, an event whose data would pass MaxData bytes is
// skipped as it is read (its lines are never held whole) and counted in
// Skipped: one endless line cannot take the reader's memory.
type SSEParser struct {
	MaxData int // 0: no limit
	Skipped int // events skipped for MaxData

	line     []byte
	data     strings.Builder
	event    string
	id       string
	hasData  bool
	afterCR  bool // the last byte seen was a CR: a following LF is part of it
	tooLarge bool // the event being read passed MaxData: it is skipped
	dropLine bool // the line being read passed MaxData: its bytes are dropped
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
			p.keep(chunk)
			return
		}
		p.keep(chunk[:i])
		p.afterCR = chunk[i] == '\r'
		chunk = chunk[i+1:]
		p.endLine(emit)
	}
}

// keep adds part of a line to the line being read; a line longer than
// MaxData (its field name aside) is dropped as it comes, and its event
// skipped.
func (p *SSEParser) keep(b []byte) {
	if p.dropLine {
		return
	}
	if p.MaxData > 0 && len(p.line)+len(b) > p.MaxData+16 {
		p.dropLine, p.tooLarge = true, true
		p.line = p.line[:0]
		return
	}
	p.line = append(p.line, b...)
}

// endLine handles the line read.
func (p *SSEParser) endLine(emit func(SSEEvent)) {
	if p.dropLine {
		p.dropLine = false
	} else {
		p.processLine(emit)
	}
	p.line = p.line[:0]
}

// Close ends the stream. An event whose blank line never came is still
// dispatched: servers that close right after their last data line lose
// nothing.
func (p *SSEParser) Close(emit func(SSEEvent)) {
	if len(p.line) > 0 || p.dropLine {
		p.endLine(emit)
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
		if p.tooLarge {
			return
		}
		if p.MaxData > 0 && p.data.Len()+len(value)+1 > p.MaxData {
			p.tooLarge = true
			p.data.Reset()
			return
		}
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
	switch {
	case p.tooLarge:
		p.Skipped++
		p.tooLarge = false
	case p.hasData:
		emit(SSEEvent{Event: p.event, Data: p.data.String(), ID: p.id})
	}
	p.data.Reset()
	p.hasData = false
	p.event = ""
}

// Frame is the event's payload as a stream frame: its data, unless it is
// empty or the AI SDK's closing [DONE] (ok false). The browser and the
// replay command apply exactly these.
func (e SSEEvent) Frame() (frame []byte, ok bool) {
	if e.Data == "" || e.Done() {
		return nil, false
	}
	return []byte(e.Data), true
}

// ReadCapture reads a captured stream and calls emit with each frame, in
// order. The capture may be JSONL (one event a line), Server-Sent Events
// as the wire carries them, or both mixed: SSE lines (fields such as
// `data:`, `event:` and `id:`, comments, blank lines) go through the same
// SSEParser as the browser's, so the data lines of one event are joined
// with "\n" before the event is read; any other line ends the event in
// progress and is a frame by itself (applied, and counted as skipped when
// it is not an event). It returns the reader's error, never io.EOF.
func ReadCapture(r io.Reader, emit func(frame []byte)) error {
	var parser SSEParser
	send := func(e SSEEvent) {
		if frame, ok := e.Frame(); ok {
			emit(frame)
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if isSSELine(line) {
				if line[len(line)-1] != '\n' {
					line = append(line, '\n')
				}
				parser.Feed(line, send)
			} else {
				parser.Close(send)
				if t := bytes.TrimSpace(line); len(t) > 0 {
					emit(t)
				}
			}
		}
		if err == io.EOF {
			parser.Close(send)
			return nil
		}
		if err != nil {
			parser.Close(send)
			return err
		}
	}
}

// isSSELine reports whether a captured line belongs to the Server-Sent
// Events around it: blank, a comment, or one of the fields the
// specification names (with or without a value).
func isSSELine(line []byte) bool {
	t := bytes.TrimRight(line, "\r\n")
	if len(bytes.TrimSpace(t)) == 0 || t[0] == ':' {
		return true
	}
	field := t
	if i := bytes.IndexByte(t, ':'); i >= 0 {
		field = t[:i]
	}
	switch string(field) {
	case "data", "event", "id", "retry":
		return true
	}
	return false
}
