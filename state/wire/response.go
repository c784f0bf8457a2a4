package wire

import (
	"bytes"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// StreamProblem says why a backend's answer to a POST (or a resume GET)
// cannot be read as the event stream the AG-UI and AI SDK modes expect.
type StreamProblem struct {
	// Status is the HTTP status of a refusal (4xx, 5xx), 0 when the status
	// was fine but the body is not a stream.
	Status int
	// Detail is what the backend said, made readable: the message of a
	// JSON error, the title of an HTML page, the first line of text. Never
	// markup; at most MaxDetail bytes.
	Detail string
}

// MaxDetail bounds a problem's detail: it is shown in the conversation.
const MaxDetail = 200

func (p *StreamProblem) Error() string {
	if p.Status != 0 {
		return "HTTP " + strconv.Itoa(p.Status) + ": " + p.Detail
	}
	return "not an event stream: " + p.Detail
}

// CheckStreamResponse reads the head of an answer: its status, its
// Content-Type and the first bytes of its body (a few KiB are enough). It
// returns nil for an event stream, else what went wrong.
func CheckStreamResponse(status int, contentType string, head []byte) *StreamProblem {
	mt := mediaType(contentType)
	if status < 200 || status > 299 {
		return &StreamProblem{Status: status, Detail: readableBody(mt, head)}
	}
	if mt == "text/event-stream" {
		return nil
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if mt == "" && (bytes.HasPrefix(t, []byte("data:")) || bytes.HasPrefix(t, []byte(":"))) {
		return nil // a stream served without its type
	}
	detail := mt
	if mt == "" || strings.HasPrefix(mt, "text/") || strings.Contains(mt, "json") || strings.Contains(mt, "html") {
		if d := readableBody(mt, head); d != "" {
			detail = d
		}
	}
	return &StreamProblem{Detail: detail}
}

// mediaType is the media type of a Content-Type header, lower case, or ""
// when it is not a valid one: what mime.ParseMediaType returns, without
// its parameters (unused here). Package mime would add its type tables to
// the browser build, and the loading of system type files to its
// start-up. It departs from ParseMediaType only where that
// rejects a header for a duplicate parameter.
func mediaType(contentType string) string {
	base, _, _ := strings.Cut(contentType, ";")
	mt := strings.ToLower(strings.TrimSpace(base))
	typ, sub, slash := strings.Cut(mt, "/")
	if !isToken(typ) || (slash && !isToken(sub)) {
		return ""
	}
	return mt
}

// isToken reports whether s is an RFC 1521 token: printable ASCII but
// space and tspecials.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`()<>@,;:\"/[]?=`, r) {
			return false
		}
	}
	return true
}

// htmlTitle is the text of a page's first <title> element, as the
// expression (?is)<title[^>]*>(.*?)</title> finds it, written out so that
// the browser build links no regular expressions (docs/performance.md).
func htmlTitle(page []byte) ([]byte, bool) {
	lower := asciiLower(page)
	open := bytes.Index(lower, []byte("<title"))
	if open < 0 {
		return nil, false
	}
	gt := bytes.IndexByte(lower[open:], '>')
	if gt < 0 {
		return nil, false
	}
	start := open + gt + 1
	end := bytes.Index(lower[start:], []byte("</title>"))
	if end < 0 {
		return nil, false
	}
	return page[start : start+end], true
}

// asciiLower is b with ASCII letters lowered, byte for byte: offsets in it
// are offsets in b.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// withoutTags is s with each tag (a '<' to the next '>') replaced by a
// space, as (?s)<[^>]*> replaced by " ".
func withoutTags(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '<')
		if open < 0 {
			break
		}
		gt := strings.IndexByte(s[open:], '>')
		if gt < 0 {
			break
		}
		b.WriteString(s[:open])
		b.WriteByte(' ')
		s = s[open+gt+1:]
	}
	b.WriteString(s)
	return b.String()
}

// readableBody makes what a backend sent readable in one line: a JSON
// error's message, an HTML page's title (else its text), plain text's
// first line.
func readableBody(mediaType string, body []byte) string {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return ""
	}
	if t[0] == '{' {
		var e struct {
			Error   json.RawMessage `json:"error"`
			Message string          `json:"message"`
			Detail  string          `json:"detail"`
		}
		if json.Unmarshal(t, &e) == nil {
			if msg := errorText(e.Error, nil); msg != "" {
				return oneLine(msg)
			}
			if e.Message != "" {
				return oneLine(e.Message)
			}
			if e.Detail != "" {
				return oneLine(e.Detail)
			}
		}
	}
	if strings.Contains(mediaType, "html") || t[0] == '<' {
		if m, ok := htmlTitle(t); ok {
			if title := oneLine(html.UnescapeString(string(m))); title != "" {
				return title
			}
		}
		return oneLine(html.UnescapeString(withoutTags(string(t))))
	}
	line, _, _ := strings.Cut(string(t), "\n")
	return oneLine(line)
}

// oneLine collapses white space and cuts to MaxDetail bytes on a rune
// boundary.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= MaxDetail {
		return s
	}
	cut := MaxDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
