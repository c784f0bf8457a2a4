package state

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Event is one server event as it comes off the wire (PROTOCOL.md section 2
// and the activity dialect of section 8). Fields whose JSON type varies
// between event types stay raw and are read by the handler that needs them.
type Event struct {
	Type         string          `json:"type"`
	EventID      json.RawMessage `json:"event_id"`
	Index        *int            `json:"index"`
	Message      json.RawMessage `json:"message"` // object on message_start, string on terminal_error
	MessageID    string          `json:"message_id"`
	ContentBlock *Block          `json:"content_block"`
	Delta        *Delta          `json:"delta"`
	Summary      *string         `json:"summary"`
	Error        json.RawMessage `json:"error"`

	// Top-level approval_result and approval_timeout.
	ApprovalKey string          `json:"approval_key"`
	Answers     json.RawMessage `json:"answers"`
	Decisions   json.RawMessage `json:"decisions"`

	// Activity dialect: text_output_stream and activity events; user_message.
	Text         *string          `json:"text"`
	ActivityType string           `json:"activity_type"`
	Content      json.RawMessage  `json:"content"`
	Timestamp    string           `json:"timestamp"`
	Tools        []ActivityTool   `json:"tools"`
	Results      []ActivityResult `json:"results"`
	DisplayInfo  *DisplayInfo     `json:"display_info"`
}

// Block is a content block: the content_block of content_block_start, a
// block of a history message's content, or a top-level event that carries
// block fields (approval_result, terminal_error, ...).
type Block struct {
	Type               string          `json:"type"`
	Text               string          `json:"text"`
	IsPart             bool            `json:"is_part"`
	IsFinal            bool            `json:"is_final"`
	Thinking           string          `json:"thinking"`
	ID                 string          `json:"id"`
	Name               string          `json:"name"`
	Input              json.RawMessage `json:"input"`
	ToolUseID          string          `json:"tool_use_id"`
	ToolName           string          `json:"tool_name"`
	Content            json.RawMessage `json:"content"`
	Status             string          `json:"status"`
	Artifact           json.RawMessage `json:"artifact"`
	ToolContentMessage string          `json:"tool_content_message"`
	ApprovalKey        string          `json:"approval_key"`
	Answers            json.RawMessage `json:"answers"`
	Decisions          json.RawMessage `json:"decisions"`
	Error              json.RawMessage `json:"error"`
	Message            json.RawMessage `json:"message"`

	// An approval request may carry its data on the block itself (history's
	// pending_approval, or backends that send no delta).
	ActionRequests []ActionRequest `json:"action_requests"`
	ReviewConfigs  []ReviewConfig  `json:"review_configs"`
	TimeoutSeconds *float64        `json:"timeout_seconds"`
	CreatedAt      string          `json:"created_at"`

	// History spells a resolved approval in camelCase.
	IsResolved          bool            `json:"isResolved"`
	ActionRequestsCamel []ActionRequest `json:"actionRequests"`
	ReviewConfigsCamel  []ReviewConfig  `json:"reviewConfigs"`
	SubmittedAnswers    json.RawMessage `json:"submittedAnswers"`
	SubmittedDecisions  json.RawMessage `json:"submittedDecisions"`
}

// Delta is the delta of content_block_delta or message_delta.
type Delta struct {
	Type           string          `json:"type"`
	Text           string          `json:"text"`
	Thinking       string          `json:"thinking"`
	PartialJSON    string          `json:"partial_json"`
	StopReason     string          `json:"stop_reason"`
	ActionRequests []ActionRequest `json:"action_requests"`
	ReviewConfigs  []ReviewConfig  `json:"review_configs"`
	TimeoutSeconds *float64        `json:"timeout_seconds"`
}

// ActionRequest is one action an approval asks about.
type ActionRequest struct {
	Name        string          `json:"name"`
	Args        json.RawMessage `json:"args"`
	Description string          `json:"description,omitempty"`
}

// ReviewConfig says which decisions an action allows.
type ReviewConfig struct {
	ActionName       string   `json:"action_name"`
	AllowedDecisions []string `json:"allowed_decisions"`
}

// Decision is one entry of an approval's decisions, in the form of
// LangChain's human-in-the-loop middleware.
type Decision struct {
	Type         string        `json:"type"`
	EditedAction *EditedAction `json:"edited_action,omitempty"`
	Message      string        `json:"message,omitempty"`
}

// EditedAction is the action an "edit" decision runs instead.
type EditedAction struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// Question is one question of an ask_user_question request.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header,omitempty"`
	MultiSelect bool     `json:"multiSelect"`
	Options     []Option `json:"options"`
}

// Option is one choice of a question. Input marks the free-text option.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Input       bool   `json:"input,omitempty"`
}

// Activity is an activity part of the activity dialect (PROTOCOL.md section 8).
type Activity struct {
	Type         string           `json:"type"`
	ActivityType string           `json:"activity_type"`
	Content      json.RawMessage  `json:"content"`
	Timestamp    string           `json:"timestamp"`
	Tools        []ActivityTool   `json:"tools"`
	Results      []ActivityResult `json:"results"`
	DisplayInfo  *DisplayInfo     `json:"display_info"`
}

// ActivityTool is one call of a tool_call or tool_request activity.
type ActivityTool struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	ID        string          `json:"id"`
}

// ActivityResult is one result of a tool_call or tool_result activity.
type ActivityResult struct {
	Name    string          `json:"name"`
	Content json.RawMessage `json:"content"`
	IsError bool            `json:"is_error"`
	CallID  string          `json:"call_id"`
}

// DisplayInfo is an activity's rendering metadata.
type DisplayInfo struct {
	FriendlyName string `json:"friendly_name"`
	Icon         string `json:"icon"`
	Description  string `json:"description"`
}

// ErrNotObject reports a frame that is not a JSON object.
var ErrNotObject = errors.New("frame is not a JSON object")

// DecodeEvent decodes one stream frame. It fails on anything but a JSON
// object; unknown fields are ignored.
func DecodeEvent(data []byte) (Event, error) {
	var ev Event
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return ev, ErrNotObject
	}
	if err := json.Unmarshal(trimmed, &ev); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// rawString returns the JSON string in raw, or "" with ok false when raw is
// not a string.
func rawString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	// Most strings (every event id) have no escapes: skip the reflection.
	if body := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && bytes.IndexByte(body, '\\') < 0 && bytes.IndexByte(body, '"') < 0 {
		return string(body), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// contentText turns a tool result's content into display text: a string as
// is, a list of text blocks joined, anything else as compact JSON. The
// second result is false when there is no content at all.
func contentText(raw json.RawMessage) (string, bool) {
	if isNull(raw) {
		return "", false
	}
	if s, ok := rawString(raw); ok {
		return s, true
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if raw[0] == '[' && json.Unmarshal(raw, &blocks) == nil {
		var b []byte
		for _, bl := range blocks {
			if bl.Type == "text" || bl.Type == "" {
				b = append(b, bl.Text...)
			}
		}
		return string(b), true
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String(), true
	}
	return string(raw), true
}

// errorText is the text of an error (PROTOCOL.md section 2): error.message,
// else the error string, else message.
func errorText(errRaw, msgRaw json.RawMessage) string {
	if s, ok := rawString(errRaw); ok {
		return s
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if !isNull(errRaw) && json.Unmarshal(errRaw, &obj) == nil {
		if obj.Message != "" {
			return obj.Message
		}
	}
	if s, ok := rawString(msgRaw); ok {
		return s
	}
	return obj.Type
}
