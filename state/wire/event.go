package wire

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

	// Text is the text of text_output_stream, or a user_message's text
	// when it sends no content.
	Text *string `json:"text"`

	// Usage is message_delta's usage, cumulative within its message
	// (BACKENDS.md section 1); message_start carries it in Message.
	Usage *Usage `json:"usage"`
	// StopDetails explains a refusal. Anthropic sends it in message_delta's
	// delta; it is also read here.
	StopDetails *StopDetails `json:"stop_details"`
	// ContextManagement is a message_delta's context management report
	// ({"applied_edits": [...]}).
	ContextManagement json.RawMessage `json:"context_management"`

	// Branches and feedback (docs/protocol-extensions.md#branches): a
	// user_message's or an answer_start's parent (read with Parent) and
	// when it was made (RFC 3339); a feedback event's rating ("up",
	// "down", "" for none) and comment.
	ParentID  json.RawMessage `json:"parent_id"`
	CreatedAt string          `json:"created_at"`
	Rating    string          `json:"rating"`
	Comment   string          `json:"comment"`

	// Activity holds the activity dialect's fields (PROTOCOL.md section 8):
	// an activity event's activity_type, content, tools, ...; Content is also
	// a user_message's content. Its Type is shadowed by the event's Type.
	Activity
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

	// Anthropic-native blocks (BACKENDS.md section 1). Citations is the
	// list a cited text block starts with ("citations": [] while
	// streaming); absent or null on an uncited one. IsError marks an MCP
	// tool result that failed. ServerName is an mcp_tool_use's server.
	Citations  json.RawMessage `json:"citations"`
	IsError    bool            `json:"is_error"`
	ServerName string          `json:"server_name"`
	// To is a fallback block's model that answers from there on
	// ({"model": ...}); From the one that handed over.
	From json.RawMessage `json:"from"`
	To   json.RawMessage `json:"to"`
	// FileID is a container_upload block's file.
	FileID string `json:"file_id"`

	// An image block's source (Anthropic's shapes) and what Stepwise
	// shows of its file (attachments.go).
	Source json.RawMessage `json:"source"`
	File   *FileInfo       `json:"file"`

	// MCP Apps (docs/mcp-apps.md): a tool_use's UI is its MCP tool's
	// _meta.ui ({"resourceUri": "ui://...", "visibility": [...]}); a
	// tool_result's StructuredContent is the MCP result's
	// structuredContent.
	UI                json.RawMessage `json:"ui"`
	StructuredContent json.RawMessage `json:"structured_content"`
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

	// Citation is a citations_delta's citation (BACKENDS.md section 1).
	Citation json.RawMessage `json:"citation"`
	// StopDetails explains a message_delta's refusal.
	StopDetails *StopDetails `json:"stop_details"`
}

// Usage is an Anthropic message's token counts (message_start's
// message.usage, message_delta's usage, a history message's usage). A nil
// field was not sent: within a message, a message_delta replaces only the
// fields it carries.
type Usage struct {
	InputTokens          *int64         `json:"input_tokens"`
	OutputTokens         *int64         `json:"output_tokens"`
	CacheReadInputTokens *int64         `json:"cache_read_input_tokens"`
	ServerToolUse        *ServerToolUse `json:"server_tool_use"`
}

// ServerToolUse counts the server tools a message ran.
type ServerToolUse struct {
	WebSearchRequests *int64 `json:"web_search_requests"`
}

// StopDetails is Anthropic's structured information about a refusal.
type StopDetails struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation *string `json:"explanation"`
}

// Citation is one citation of a text block: a web_search_result_location
// (url, title), a document location (char_location, page_location,
// content_block_location: document_index, document_title) or a
// search_result_location (source, title). Kinds this client does not know
// are read for the same fields.
type Citation struct {
	Type          string `json:"type"`
	URL           string `json:"url"`
	Title         string `json:"title"`
	CitedText     string `json:"cited_text"`
	DocumentIndex *int   `json:"document_index"`
	DocumentTitle string `json:"document_title"`
	Source        string `json:"source"`
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
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Event{}, ErrNotObject
	}
	if ev, ok := decodeEventFast(trimmed); ok {
		return ev, nil
	}
	return decodeEventJSON(trimmed)
}

// decodeEventJSON decodes with encoding/json what decodeEventFast does
// not take. Apart, so that the Event it gives json.Unmarshal (which
// moves it to the heap) is made only here, not for every event.
func decodeEventJSON(data []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// ErrorText is the text an error or terminal_error event shows
// (PROTOCOL.md section 2): error.message, else the error string, else
// message.
func (ev *Event) ErrorText() string { return errorText(ev.Error, ev.Message) }

// UserText is a user_message's text: its content (a string or text blocks),
// else its text field.
func (ev *Event) UserText() string { return userText(ev.Content, ev.Text) }

// Parent is the parent a message names: set is false when it names none
// (it follows the last message shown), id is "" for the conversation's
// start (JSON null).
func (ev *Event) Parent() (id string, set bool) { return parentOf(ev.ParentID) }

func parentOf(raw json.RawMessage) (id string, set bool) {
	if len(raw) == 0 {
		return "", false
	}
	id, _ = StringValue(raw)
	return id, true
}

// ErrorText is the text of a block that carries an error (terminal_error).
func (b *Block) ErrorText() string { return errorText(b.Error, b.Message) }

// ActivityMarker prefixes a legacy copy of an activity sent as the text of
// a text_output_stream event (PROTOCOL.md section 8).
const ActivityMarker = "__STREAM_ACTIVITY__"
