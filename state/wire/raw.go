package wire

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Readers of the fields whose JSON type varies between backends: they never
// fail, they fall back to what the protocol says to show instead.

// StringValue returns the JSON string in raw, or "" with ok false when raw
// is not a string.
func StringValue(raw json.RawMessage) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	// Most strings (every event id) have no escapes: skip the reflection.
	if body := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && bytes.IndexByte(body, '\\') < 0 && bytes.IndexByte(body, '"') < 0 {
		return string(body), true
	}
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// IsNull reports whether raw is absent or JSON null.
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// ContentText turns a tool result's content into display text: a string as
// is, a list of text blocks joined, anything else as compact JSON. ok is
// false when there is no content at all.
func ContentText(raw json.RawMessage) (text string, ok bool) {
	if IsNull(raw) {
		return "", false
	}
	if s, ok := StringValue(raw); ok {
		return s, true
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if raw[0] == '[' && json.Unmarshal(raw, &blocks) == nil {
		var b strings.Builder
		for _, bl := range blocks {
			if bl.Type == "text" || bl.Type == "" {
				b.WriteString(bl.Text)
			}
		}
		return b.String(), true
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String(), true
	}
	return string(raw), true
}

// DecodeAnswers reads an approval's answers as strings; other values become
// their JSON text, null ones are left out. It never fails: what cannot be
// read gives an empty map.
func DecodeAnswers(raw json.RawMessage) map[string]string {
	out := map[string]string{}
	if IsNull(raw) {
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return out
	}
	for k, v := range m {
		if str, ok := StringValue(v); ok {
			out[k] = str
		} else if !IsNull(v) {
			out[k] = string(v)
		}
	}
	return out
}

// errorText is the text of an error (PROTOCOL.md section 2): error.message,
// else the error string, else message, else error.type.
func errorText(errRaw, msgRaw json.RawMessage) string {
	if s, ok := StringValue(errRaw); ok {
		return s
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if !IsNull(errRaw) && json.Unmarshal(errRaw, &obj) == nil {
		if obj.Message != "" {
			return obj.Message
		}
	}
	if s, ok := StringValue(msgRaw); ok {
		return s
	}
	return obj.Type
}

// ErrorType is the type of an error object ({"type": "overloaded_error",
// "message": ...}), or "" when the error is a plain string or absent.
func ErrorType(errRaw json.RawMessage) string {
	var obj struct {
		Type json.RawMessage `json:"type"`
	}
	if IsNull(errRaw) || json.Unmarshal(errRaw, &obj) != nil {
		return ""
	}
	t, _ := StringValue(obj.Type)
	return t
}

// userText is a user message's text: a string, or its text blocks joined;
// text when the content has none.
func userText(content json.RawMessage, text *string) string {
	if s, ok := StringValue(content); ok {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var parts []string
	if !IsNull(content) && json.Unmarshal(content, &blocks) == nil {
		for _, b := range blocks {
			if (b.Type == "text" || b.Type == "text_output") && b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
	}
	if len(parts) == 0 && text != nil {
		return *text
	}
	return strings.Join(parts, "\n")
}

// DecodeCitation reads a citation leniently: raw must be a JSON object;
// each known field is read when it is a string (document_index when it is a
// number), so a kind this client does not know, or a field of an odd type,
// still gives what can be shown. ok is false when raw is not an object.
func DecodeCitation(raw json.RawMessage) (c Citation, ok bool) {
	var m map[string]json.RawMessage
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return Citation{}, false
	}
	str := func(k string) string { s, _ := StringValue(m[k]); return s }
	c = Citation{
		Type:          str("type"),
		URL:           str("url"),
		Title:         str("title"),
		CitedText:     str("cited_text"),
		DocumentTitle: str("document_title"),
		Source:        str("source"),
	}
	var idx int
	if v := m["document_index"]; !IsNull(v) && json.Unmarshal(v, &idx) == nil {
		c.DocumentIndex = &idx
	}
	return c, true
}
