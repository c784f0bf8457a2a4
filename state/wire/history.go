package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// History is a history response (PROTOCOL.md section 4).
type History struct {
	SessionID       string           `json:"session_id"`
	AgentStatus     string           `json:"agent_status"`
	LastEventID     json.RawMessage  `json:"last_event_id"`
	Messages        []HistoryMessage `json:"messages"`
	Workspace       *Workspace       `json:"workspace"`
	PendingApproval *Block           `json:"pending_approval"`
}

// Workspace is the session's workspace in a history response.
type Workspace struct {
	Sources []SourceGroup `json:"sources"`
}

// SourceGroup is one web search as sent: a web_search tool's artifact, or an
// entry of a history's workspace.sources (PROTOCOL.md section 7).
type SourceGroup struct {
	Query   string   `json:"query"`
	Sources []Source `json:"sources"`
}

// Source is one search result as sent; the backend may leave out its domain
// and send a null favicon.
type Source struct {
	URL     string  `json:"url"`
	Title   string  `json:"title"`
	Snippet string  `json:"snippet"`
	Domain  string  `json:"domain"`
	Favicon *string `json:"favicon"`
	// PageAge is how old the page is, as the search engine says it
	// ("2 days ago", "April 30, 2025"); Anthropic's web search sends it.
	PageAge string `json:"page_age"`
}

// HistoryMessage is one flat message of a history.
type HistoryMessage struct {
	Role               string            `json:"role"`
	MessageType        string            `json:"message_type"`
	Content            json.RawMessage   `json:"content"`
	Parts              []HistoryPart     `json:"parts"`
	ActivityParts      []Activity        `json:"activity_parts"`
	ToolCalls          []HistoryToolCall `json:"tool_calls"`
	ToolCallID         string            `json:"tool_call_id"`
	Name               string            `json:"name"`
	Status             string            `json:"status"`
	Artifact           json.RawMessage   `json:"artifact"`
	ToolContentMessage string            `json:"tool_content_message"`
	// StructuredContent is a tool message's MCP structuredContent
	// (docs/mcp-apps.md).
	StructuredContent json.RawMessage `json:"structured_content"`
	DisplayType       string          `json:"display_type"`
	Summary           string          `json:"summary"`
	GroupClosed       bool            `json:"group_closed"`

	// An Anthropic message kept as history may carry its token counts and
	// why it stopped (BACKENDS.md section 1).
	Usage       *Usage       `json:"usage"`
	StopReason  string       `json:"stop_reason"`
	StopDetails *StopDetails `json:"stop_details"`

	// Branches (docs/protocol-extensions.md#branches): a user message, and
	// the first message of an answer, carry the message's id, its parent
	// (read with Parent, as an event's), when it was made, its versions
	// (Siblings: their ids in order, its own among them) and an answer's
	// feedback. The messages after an answer's first, up to the next user
	// message, are that answer's.
	ID        string          `json:"id"`
	ParentID  json.RawMessage `json:"parent_id"`
	CreatedAt string          `json:"created_at"`
	Siblings  []string        `json:"siblings"`
	Feedback  *Feedback       `json:"feedback"`
}

// Parent is the parent the message names, as Event.Parent.
func (m *HistoryMessage) Parent() (id string, set bool) { return parentOf(m.ParentID) }

// Feedback is a person's rating of an answer.
type Feedback struct {
	_       [0]func() // not comparable: no equality code in app.wasm
	Rating  string    `json:"rating"` // "up" or "down"
	Comment string    `json:"comment,omitempty"`
}

// UserText is a user message's text: its content (a string or text
// blocks), else its text parts joined.
func (m *HistoryMessage) UserText() string {
	if text := userText(m.Content, nil); text != "" {
		return text
	}
	var out []string
	for _, p := range m.Parts {
		if p.Type != "activity" && p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// HistoryPart is a part of the activity dialect: text_output or activity.
type HistoryPart struct {
	Activity
	Text string `json:"text"`
}

// HistoryToolCall is one entry of a message's tool_calls.
type HistoryToolCall struct {
	ID                 string          `json:"id"`
	Name               string          `json:"name"`
	Args               json.RawMessage `json:"args"`
	Input              json.RawMessage `json:"input"`
	ToolContentMessage string          `json:"tool_content_message"`
	// UI is the MCP tool's _meta.ui (docs/mcp-apps.md).
	UI json.RawMessage `json:"ui"`
}

// DecodeHistory decodes a history response; it must be a JSON object.
// It decodes as json.Unmarshal into a History would, and fails where that
// fails.
func DecodeHistory(data []byte) (*History, error) {
	return DecodeHistoryPaced(data, nil)
}

// DecodeHistoryPaced is DecodeHistory calling tick, when not nil, after
// each message: a long conversation's history is megabytes of JSON, and a
// browser decoding it in one go freezes for a few hundred ms; tick may
// pause to let the page paint and answer (app/internal/browser/pace.go).
//
// The messages are read one at a time from the stream; every other member
// is decoded by json.Unmarshal, which keeps its rules (keys matched
// without case, the last of two equal keys winning).
func DecodeHistoryPaced(data []byte, tick func()) (*History, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return nil, errors.New("history is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var h History
	rest := []byte{'{'} // the members other than messages, as an object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if strings.EqualFold(key, "messages") {
			if h.Messages, err = decodeMessages(dec, h.Messages, tick); err != nil {
				return nil, err
			}
			continue
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		quoted, _ := json.Marshal(key)
		rest = append(append(append(rest, quoted...), ':'), value...)
	}
	if _, err := dec.Token(); err != nil { // }
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("history: data after the top-level object")
	}
	messages := h.Messages
	if err := json.Unmarshal(append(rest, '}'), &h); err != nil {
		return nil, err
	}
	h.Messages = messages
	return &h, nil
}

// decodeMessages reads a messages array (or null) from dec, one message at
// a time, calling tick after each. Like json.Unmarshal, it decodes into the
// elements of prev (a messages member seen before) where there are some.
func decodeMessages(dec *json.Decoder, prev []HistoryMessage, tick func()) ([]HistoryMessage, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("history: messages is %v, not an array", tok)
	}
	messages := prev[:0]
	if messages == nil {
		messages = []HistoryMessage{}
	}
	for dec.More() {
		if len(messages) < cap(messages) {
			messages = messages[:len(messages)+1]
		} else {
			messages = append(messages, HistoryMessage{})
		}
		if err := dec.Decode(&messages[len(messages)-1]); err != nil {
			return nil, err
		}
		if tick != nil {
			tick()
		}
	}
	if _, err := dec.Token(); err != nil { // ]
		return nil, err
	}
	return messages, nil
}
