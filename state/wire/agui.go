package wire

import (
	"bytes"
	"encoding/json"
)

// AG-UI (BACKENDS.md section 2): the events an AG-UI agent streams, the
// messages of its conversation and the RunAgentInput a client POSTs. Field
// names are those of the AG-UI core schema (@ag-ui/core 1.0). Fields whose
// JSON type varies between event types, or between versions of the schema,
// stay raw.

// AGUIEvent is one AG-UI event: the union of the fields of every type.
type AGUIEvent struct {
	Type string `json:"type"`

	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`

	// MessageID names a text, reasoning or activity message, and the tool
	// message a TOOL_CALL_RESULT mints.
	MessageID string `json:"messageId"`
	Role      string `json:"role"`
	// Delta is a string on the *_CONTENT, *_ARGS and *_CHUNK events, a JSON
	// Patch array on STATE_DELTA.
	Delta json.RawMessage `json:"delta"`

	ToolCallID      string `json:"toolCallId"`
	ToolCallName    string `json:"toolCallName"`
	ParentMessageID string `json:"parentMessageId"`
	// Content is a TOOL_CALL_RESULT's content (a string or content parts)
	// or an ACTIVITY_SNAPSHOT's content object.
	Content json.RawMessage `json:"content"`
	// Error marks a failed tool result (as a tool message's error).
	Error json.RawMessage `json:"error"`

	// Message is RUN_ERROR's and SUBAGENT_ERROR's text.
	Message json.RawMessage `json:"message"`
	Code    json.RawMessage `json:"code"`
	Outcome *AGUIOutcome    `json:"outcome"`
	// Usage is RUN_FINISHED's and RUN_ERROR's token usage, one entry per
	// (provider, model): read with AGUIUsageOf, which never fails.
	Usage json.RawMessage `json:"usage"`

	ActivityType string          `json:"activityType"`
	Replace      *bool           `json:"replace"`
	Patch        json.RawMessage `json:"patch"`
	Snapshot     json.RawMessage `json:"snapshot"`
	Messages     json.RawMessage `json:"messages"`

	// CUSTOM events, and a SUBAGENT_STARTED's name.
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`

	// REASONING_ENCRYPTED_VALUE.
	Subtype        string `json:"subtype"`
	EntityID       string `json:"entityId"`
	EncryptedValue string `json:"encryptedValue"`

	// THINKING_START (deprecated) carries a title.
	Title string `json:"title"`

	// Sub-agents: the invocation an event is attributed to, and
	// SUBAGENT_STARTED's own fields; RUN_STARTED's parentRunId names the
	// run that spawned this one.
	SubagentRunID       string `json:"subagentRunId"`
	ParentSubagentRunID string `json:"parentSubagentRunId"`
	ParentToolCallID    string `json:"parentToolCallId"`
	Description         string `json:"description"`
	ParentRunID         string `json:"parentRunId"`
}

// AGUIOutcome is why a run finished: "success", "interrupt" (with its
// interrupts) or "cancelled".
type AGUIOutcome struct {
	Type       string          `json:"type"`
	Interrupts []AGUIInterrupt `json:"interrupts"`
}

// AGUIInterrupt is something a run needs from outside before it continues.
type AGUIInterrupt struct {
	ID             string          `json:"id"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message,omitempty"`
	ToolCallID     string          `json:"toolCallId,omitempty"`
	ResponseSchema json.RawMessage `json:"responseSchema,omitempty"`
	ExpiresAt      string          `json:"expiresAt,omitempty"`
	Metadata       json.RawMessage `json:"metadata,omitempty"`
}

// AGUIMessage is one message of an AG-UI conversation, any role (user,
// assistant, tool, reasoning, activity, system, developer).
type AGUIMessage struct {
	ID   string `json:"id"`
	Role string `json:"role"`
	// Content is a string (assistant, reasoning, system), a string or
	// content parts (user, tool), or an object (activity).
	Content      json.RawMessage `json:"content,omitempty"`
	Name         string          `json:"name,omitempty"`
	ToolCalls    []AGUIToolCall  `json:"toolCalls,omitempty"`
	ToolCallID   string          `json:"toolCallId,omitempty"`
	Error        string          `json:"error,omitempty"`
	ActivityType string          `json:"activityType,omitempty"`
	// EncryptedValue is kept and sent back as the agent gave it.
	EncryptedValue string          `json:"encryptedValue,omitempty"`
	Metadata       json.RawMessage `json:"metadata,omitempty"`
	// SubagentRunID is the sub-agent invocation that produced it, kept as
	// the reference client keeps it.
	SubagentRunID string `json:"subagentRunId,omitempty"`
}

// AGUIToolCall is a call an assistant message made.
type AGUIToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"` // "function"
	Function AGUIFunctionCall `json:"function"`
	// EncryptedValue is kept and sent back as the agent gave it.
	EncryptedValue string `json:"encryptedValue,omitempty"`
}

// AGUIFunctionCall is the name and arguments (JSON text) of a tool call.
type AGUIFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// AGUIResumeEntry answers one interrupt on the run that continues from it.
type AGUIResumeEntry struct {
	InterruptID string          `json:"interruptId"`
	Status      string          `json:"status"` // "resolved" or "cancelled"
	Payload     json.RawMessage `json:"payload,omitempty"`
}

// RunAgentInput is the body a client POSTs to run an AG-UI agent.
type RunAgentInput struct {
	ThreadID       string            `json:"threadId"`
	RunID          string            `json:"runId"`
	Messages       []AGUIMessage     `json:"messages"`
	Tools          []json.RawMessage `json:"tools"`
	Context        []json.RawMessage `json:"context"`
	State          json.RawMessage   `json:"state,omitempty"`
	ForwardedProps json.RawMessage   `json:"forwardedProps"`
	Resume         []AGUIResumeEntry `json:"resume,omitempty"`
}

// DecodeAGUIEvent decodes one AG-UI event. Only a frame that is not a JSON
// object, or whose fields have the wrong JSON types, is an error.
func DecodeAGUIEvent(data []byte) (AGUIEvent, error) {
	var ev AGUIEvent
	if !isObject(data) {
		return ev, ErrNotObject
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return AGUIEvent{}, err
	}
	return ev, nil
}

// AGUITokenUsage is one (provider, model)'s token counts of a run.
type AGUITokenUsage struct {
	Provider          string `json:"provider"`
	Model             string `json:"model"`
	InputTokens       int64  `json:"inputTokens"`
	OutputTokens      int64  `json:"outputTokens"`
	TotalTokens       int64  `json:"totalTokens"`
	ReasoningTokens   int64  `json:"reasoningTokens"`
	CachedInputTokens int64  `json:"cachedInputTokens"`
}

// AGUIUsageOf reads a run's usage: a list of entries (a single object is
// read as a list of one); entries that cannot be read are left out.
func AGUIUsageOf(raw json.RawMessage) []AGUITokenUsage {
	if IsNull(raw) {
		return nil
	}
	var list []json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		list = []json.RawMessage{t}
	} else if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []AGUITokenUsage
	for _, e := range list {
		var u AGUITokenUsage
		if json.Unmarshal(e, &u) == nil {
			out = append(out, u)
		}
	}
	return out
}
