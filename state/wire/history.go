package wire

import (
	"bytes"
	"encoding/json"
	"errors"
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
	DisplayType        string            `json:"display_type"`
	Summary            string            `json:"summary"`
	GroupClosed        bool              `json:"group_closed"`

	// An Anthropic message kept as history may carry its token counts and
	// why it stopped (BACKENDS.md section 1).
	Usage       *Usage       `json:"usage"`
	StopReason  string       `json:"stop_reason"`
	StopDetails *StopDetails `json:"stop_details"`
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
}

// DecodeHistory decodes a history response; it must be a JSON object.
func DecodeHistory(data []byte) (*History, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return nil, errors.New("history is not a JSON object")
	}
	var h History
	if err := json.Unmarshal(t, &h); err != nil {
		return nil, err
	}
	return &h, nil
}
