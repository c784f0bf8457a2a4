package wire

import "encoding/json"

// Vercel AI SDK UI message streams (BACKENDS.md section 3, AI SDK v5 to v7):
// the chunks a chat route streams, the UIMessages of the conversation and
// the body a client POSTs. Field names are those of the `ai` package.

// UIChunk is one UI message stream chunk: the union of the fields of every
// type.
type UIChunk struct {
	Type string `json:"type"`

	// ID names a text or reasoning part (text-*, reasoning-*) or a data
	// part (data-*).
	ID    string `json:"id"`
	Delta string `json:"delta"`

	MessageID       string          `json:"messageId"`
	MessageMetadata json.RawMessage `json:"messageMetadata"`
	FinishReason    string          `json:"finishReason"`
	// Reason is why an abort happened.
	Reason string `json:"reason"`

	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Title            string          `json:"title"`
	InputTextDelta   string          `json:"inputTextDelta"`
	InputEncoding    string          `json:"inputEncoding"`
	Input            json.RawMessage `json:"input"`
	Output           json.RawMessage `json:"output"`
	Preliminary      bool            `json:"preliminary"`
	Dynamic          bool            `json:"dynamic"`
	ProviderExecuted *bool           `json:"providerExecuted"`
	ErrorText        string          `json:"errorText"`
	ApprovalID       string          `json:"approvalId"`
	ToolMetadata     json.RawMessage `json:"toolMetadata"`
	// A tool-approval-request may carry these; they are kept with the part.
	ApprovalDescriptor json.RawMessage `json:"approvalDescriptor"`
	Signature          string          `json:"signature"`
	InputSchemaInput   json.RawMessage `json:"inputSchemaInput"`

	SourceID  string `json:"sourceId"`
	URL       string `json:"url"`
	MediaType string `json:"mediaType"`
	Filename  string `json:"filename"`

	ProviderMetadata json.RawMessage `json:"providerMetadata"`
	Data             json.RawMessage `json:"data"`
	Transient        bool            `json:"transient"`

	// v7: a tool-approval-response's answer, a custom chunk's kind, a
	// steering message's parts.
	Approved *bool `json:"approved"`
	// IsAutomatic marks a tool-approval-request the route's own policy
	// decides (v7): its tool-approval-response follows.
	IsAutomatic bool     `json:"isAutomatic"`
	Kind        string   `json:"kind"`
	Parts       []UIPart `json:"parts"`
}

// UIMessage is one message of an AI SDK conversation.
type UIMessage struct {
	ID       string          `json:"id"`
	Role     string          `json:"role"` // "user", "assistant" or "system"
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Parts    []UIPart        `json:"parts"`
}

// UIPart is one part of a UIMessage: text, reasoning, a tool call
// ("tool-NAME" or "dynamic-tool"), a source, a file, a step start or data.
// Optional fields are left out when unset: the SDK's schemas accept an
// absent optional field, not a null one.
type UIPart struct {
	Type  string  `json:"type"`
	ID    string  `json:"id,omitempty"` // reasoning and data parts
	Text  *string `json:"text,omitempty"`
	State string  `json:"state,omitempty"`

	ToolCallID             string          `json:"toolCallId,omitempty"`
	ToolName               string          `json:"toolName,omitempty"` // dynamic-tool
	Title                  string          `json:"title,omitempty"`
	Input                  json.RawMessage `json:"input,omitempty"`
	RawInput               json.RawMessage `json:"rawInput,omitempty"`
	InputEncoding          string          `json:"inputEncoding,omitempty"`
	Output                 json.RawMessage `json:"output,omitempty"`
	ErrorText              string          `json:"errorText,omitempty"`
	ProviderExecuted       *bool           `json:"providerExecuted,omitempty"`
	Preliminary            *bool           `json:"preliminary,omitempty"`
	Approval               *UIApproval     `json:"approval,omitempty"`
	ToolMetadata           json.RawMessage `json:"toolMetadata,omitempty"`
	CallProviderMetadata   json.RawMessage `json:"callProviderMetadata,omitempty"`
	ResultProviderMetadata json.RawMessage `json:"resultProviderMetadata,omitempty"`

	SourceID  string `json:"sourceId,omitempty"`
	URL       string `json:"url,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
	Filename  string `json:"filename,omitempty"`

	ProviderMetadata json.RawMessage `json:"providerMetadata,omitempty"`
	Data             json.RawMessage `json:"data,omitempty"`

	// v7: a custom part's kind; a steering message's own parts.
	Kind  string   `json:"kind,omitempty"`
	Parts []UIPart `json:"parts,omitempty"`
}

// UIApproval is a tool part's approval: requested (ID only), then answered.
type UIApproval struct {
	ID               string          `json:"id"`
	Approved         *bool           `json:"approved,omitempty"`
	Reason           string          `json:"reason,omitempty"`
	Descriptor       json.RawMessage `json:"descriptor,omitempty"`
	Signature        string          `json:"signature,omitempty"`
	InputSchemaInput json.RawMessage `json:"inputSchemaInput,omitempty"`
	IsAutomatic      bool            `json:"isAutomatic,omitempty"`
}

// UIChatRequest is the body a client POSTs to a chat route, as the SDK's
// DefaultChatTransport sends it.
type UIChatRequest struct {
	ID        string      `json:"id"`
	Messages  []UIMessage `json:"messages"`
	Trigger   string      `json:"trigger"` // "submit-message" or "regenerate-message"
	MessageID string      `json:"messageId,omitempty"`
}

// DecodeUIChunk decodes one UI message stream chunk. Only a frame that is
// not a JSON object, or whose fields have the wrong JSON types, is an error.
func DecodeUIChunk(data []byte) (UIChunk, error) {
	var c UIChunk
	if !isObject(data) {
		return c, ErrNotObject
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return UIChunk{}, err
	}
	return c, nil
}
