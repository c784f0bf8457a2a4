package wire

import "encoding/json"

// The client frames of PROTOCOL.md section 1, as they go on the wire.

// SubscribeFrame asks for the events after LastEventID.
type SubscribeFrame struct {
	Type        string  `json:"type"` // "subscribe"
	SessionID   string  `json:"session_id"`
	LastEventID *string `json:"last_event_id,omitempty"`
}

// UserMessageFrame sends what the user typed, with the files attached
// (image and document blocks, attachments.go). ParentID, when set, makes
// it an edit: a new version of a sent message, following the message
// ParentID names (JSON null: the conversation's start) rather than the
// last one shown (docs/protocol-extensions.md#branches).
type UserMessageFrame struct {
	Type      string          `json:"type"` // "user_message"
	SessionID string          `json:"session_id"`
	ParentID  json.RawMessage `json:"parent_id,omitempty"`
	Content   []ContentBlock  `json:"content"`
	// AppContext is what MCP Apps told the model since the last message
	// (ui/update-model-context; docs/protocol-extensions.md#mcp-apps).
	AppContext json.RawMessage `json:"app_context,omitempty"`
}

// RegenerateFrame asks for another answer in place of MessageID's: a new
// version of it, which the conversation then follows.
type RegenerateFrame struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Type      string    `json:"type"` // "regenerate"
	SessionID string    `json:"session_id"`
	MessageID string    `json:"message_id"`
}

// SelectBranchFrame makes the conversation follow the version of a
// message MessageID names (one of its siblings).
type SelectBranchFrame struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Type      string    `json:"type"` // "select_branch"
	SessionID string    `json:"session_id"`
	MessageID string    `json:"message_id"`
}

// FeedbackFrame rates an answer: Rating "up", "down", or nil to take the
// rating back; Comment is optional.
type FeedbackFrame struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Type      string    `json:"type"` // "feedback"
	SessionID string    `json:"session_id"`
	MessageID string    `json:"message_id"`
	Rating    *string   `json:"rating"`
	Comment   string    `json:"comment,omitempty"`
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

	// Branches and feedback (docs/protocol-extensions.md#branches): the
	// message a regenerate, select_branch or feedback names; a
	// user_message's parent (an edit; null for the conversation's start);
	// a feedback's rating ("up", "down", null) and comment.
	MessageID string          `json:"message_id"`
	ParentID  json.RawMessage `json:"parent_id"`
	Rating    json.RawMessage `json:"rating"`
	Comment   string          `json:"comment"`
}

// Parent returns the parent a user_message names: edit is false when it
// names none (the message follows the last one shown), id is "" for the
// conversation's start.
func (f *ClientFrame) Parent() (id string, edit bool) { return parentOf(f.ParentID) }

// Blocks returns a user_message's content as blocks: a string is one text
// block; nil when the content is neither.
func (f *ClientFrame) Blocks() []ContentBlock {
	if s, ok := StringValue(f.Content); ok {
		return []ContentBlock{{Type: "text", Text: s}}
	}
	var blocks []ContentBlock
	if IsNull(f.Content) || json.Unmarshal(f.Content, &blocks) != nil {
		return nil
	}
	return blocks
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
	return NewUserMessageWith(session, text, nil)
}

// NewUserMessageWith builds a user_message frame with files (FileBlock's
// blocks), after the text.
func NewUserMessageWith(session, text string, files []ContentBlock) UserMessageFrame {
	content := make([]ContentBlock, 0, 1+len(files))
	if text != "" || len(files) == 0 {
		content = append(content, ContentBlock{Type: "text", Text: text})
	}
	content = append(content, files...)
	return UserMessageFrame{Type: "user_message", SessionID: session, Content: content}
}

// NewEdit builds the user_message frame of an edit: a new version of a
// sent message, following parentID ("" for the conversation's start).
func NewEdit(session, parentID, text string, files []ContentBlock) UserMessageFrame {
	f := NewUserMessageWith(session, text, files)
	f.ParentID = json.RawMessage("null")
	if parentID != "" {
		f.ParentID, _ = json.Marshal(parentID)
	}
	return f
}

// NewRegenerate builds a regenerate frame.
func NewRegenerate(session, messageID string) RegenerateFrame {
	return RegenerateFrame{Type: "regenerate", SessionID: session, MessageID: messageID}
}

// NewSelectBranch builds a select_branch frame.
func NewSelectBranch(session, messageID string) SelectBranchFrame {
	return SelectBranchFrame{Type: "select_branch", SessionID: session, MessageID: messageID}
}

// NewFeedback builds a feedback frame; rating "" takes the rating back.
func NewFeedback(session, messageID, rating, comment string) FeedbackFrame {
	f := FeedbackFrame{Type: "feedback", SessionID: session, MessageID: messageID, Comment: comment}
	if rating != "" {
		f.Rating = &rating
	}
	return f
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
