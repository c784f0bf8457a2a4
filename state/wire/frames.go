package wire

import "encoding/json"

// The client frames of PROTOCOL.md section 1, as they go on the wire.

// SubscribeFrame asks for the events after LastEventID.
type SubscribeFrame struct {
	Type        string  `json:"type"` // "subscribe"
	SessionID   string  `json:"session_id"`
	LastEventID *string `json:"last_event_id,omitempty"`
}

// TextContent is a text block of a user message.
type TextContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

// UserMessageFrame sends what the user typed.
type UserMessageFrame struct {
	Type      string        `json:"type"` // "user_message"
	SessionID string        `json:"session_id"`
	Content   []TextContent `json:"content"`
	// AppContext is what MCP Apps told the model since the last message
	// (ui/update-model-context; docs/protocol-extensions.md#mcp-apps).
	AppContext json.RawMessage `json:"app_context,omitempty"`
}

// ApprovalFrame answers a question (Answers) or a tool approval (Decisions).
type ApprovalFrame struct {
	Type        string            `json:"type"` // "approval"
	SessionID   string            `json:"session_id"`
	ApprovalKey string            `json:"approval_key"`
	Answers     map[string]string `json:"answers,omitempty"`
	Decisions   []Decision        `json:"decisions,omitempty"`
}

// StopFrame asks the agent to stop.
type StopFrame struct {
	Type      string `json:"type"` // "stop"
	SessionID string `json:"session_id"`
}

// ClientFrame is any client frame as decoded by a server.
type ClientFrame struct {
	Type        string            `json:"type"`
	SessionID   string            `json:"session_id"`
	LastEventID json.RawMessage   `json:"last_event_id"`
	Content     json.RawMessage   `json:"content"`
	ApprovalKey string            `json:"approval_key"`
	Answers     map[string]string `json:"answers"`
	Decisions   []Decision        `json:"decisions"`
}

// NewSubscribe builds a subscribe frame; a zero id subscribes from the start.
func NewSubscribe(session string, after EventID) SubscribeFrame {
	f := SubscribeFrame{Type: "subscribe", SessionID: session}
	if !after.IsZero() {
		id := after.String()
		f.LastEventID = &id
	}
	return f
}

// NewUserMessage builds a user_message frame.
func NewUserMessage(session, text string) UserMessageFrame {
	return UserMessageFrame{Type: "user_message", SessionID: session, Content: []TextContent{{Type: "text", Text: text}}}
}

// NewAnswers builds the approval frame of a question form.
func NewAnswers(session, key string, answers map[string]string) ApprovalFrame {
	return ApprovalFrame{Type: "approval", SessionID: session, ApprovalKey: key, Answers: answers}
}

// NewDecisions builds the approval frame of a tool approval card.
func NewDecisions(session, key string, decisions []Decision) ApprovalFrame {
	return ApprovalFrame{Type: "approval", SessionID: session, ApprovalKey: key, Decisions: decisions}
}

// NewStop builds a stop frame.
func NewStop(session string) StopFrame {
	return StopFrame{Type: "stop", SessionID: session}
}

// DecodeClientFrame decodes a frame a client sent.
func DecodeClientFrame(data []byte) (ClientFrame, error) {
	var f ClientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return ClientFrame{}, err
	}
	return f, nil
}

// Text is a user_message frame's text.
func (f *ClientFrame) Text() string { return userText(f.Content, nil) }
