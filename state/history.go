package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
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
	Sources []wireSourceGroup `json:"sources"`
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

// LoadHistory replaces the store's content with a history: items built from
// its messages, the pending approval, the sources panel, the agent status and
// the last event id to resume after (PROTOCOL.md section 4).
func (s *Store) LoadHistory(h *History) Changes {
	*s = *New(s.opts)
	s.begin()
	s.status = StatusRunning // settled below, once every tool is in
	s.brandPending = true
	for i := range h.Messages {
		s.loadMessage(&h.Messages[i])
	}
	if p := h.PendingApproval; p != nil && p.ApprovalKey != "" {
		actions := firstNonEmpty(p.ActionRequests, p.ActionRequestsCamel)
		if len(actions) > 0 {
			s.approvalRequest(p.ApprovalKey, actions, firstNonEmpty(p.ReviewConfigs, p.ReviewConfigsCamel), p.TimeoutSeconds, p.CreatedAt)
		}
	}
	status := parseStatus(h.AgentStatus)
	if status != StatusRunning {
		s.closeGroup(nil) // rule 6
	}
	s.setStatus(status)
	if id, ok := ParseEventID(h.LastEventID); ok {
		s.lastID = id
	}
	if h.Workspace != nil {
		s.setWorkspaceSources(h.Workspace.Sources)
	}
	s.changes.List, s.changes.Status, s.changes.Sources, s.changes.Pending = true, true, true, true
	return s.changes
}

func parseStatus(st string) AgentStatus {
	switch AgentStatus(st) {
	case StatusRunning, StatusStopped, StatusError:
		return AgentStatus(st)
	}
	return StatusIdle
}

func (s *Store) loadMessage(m *HistoryMessage) {
	if m.DisplayType == "group_start" {
		s.openGroup(m.Summary)
	}
	switch m.Role {
	case "user":
		text := userText(m.Content, nil)
		if text == "" {
			text = partsText(m.Parts)
		}
		s.addUser(text)
	case "tool":
		if m.ToolCallID != "" {
			text, _ := contentText(m.Content)
			s.toolResult(m.ToolCallID, m.Name, m.Status, text, m.Artifact, m.ToolContentMessage)
		}
	default:
		s.msgType = m.MessageType
		s.loadAssistant(m)
	}
	if m.DisplayType == "group_end" || (m.DisplayType == "group_start" && m.GroupClosed) {
		s.closeGroup(&m.Summary)
	}
}

func (s *Store) loadAssistant(m *HistoryMessage) {
	if text, ok := rawString(m.Content); ok {
		if text != "" {
			it := s.newItem(KindText)
			it.Text = text
			s.standalone(it)
		}
	} else if !isNull(m.Content) {
		var blocks []Block
		if json.Unmarshal(m.Content, &blocks) == nil {
			for i := range blocks {
				s.loadBlock(&blocks[i])
			}
		}
	}
	for _, tc := range m.ToolCalls {
		if tc.ID == "" || tc.Name == "" {
			continue
		}
		input := tc.Args
		if isNull(input) {
			input = tc.Input
		}
		s.toolUse(tc.ID, tc.Name, input, tc.ToolContentMessage, "")
	}
	s.loadParts(m)
}

// loadParts reads the activity dialect: parts are authoritative; without
// activity parts, activity_parts come first, then the text parts.
func (s *Store) loadParts(m *HistoryMessage) {
	s.dialectText = nil
	hasActivity := false
	for i := range m.Parts {
		if m.Parts[i].Type == "activity" {
			hasActivity = true
			break
		}
	}
	if !hasActivity {
		for i := range m.ActivityParts {
			a := m.ActivityParts[i]
			if a.ActivityType == "" {
				a.ActivityType = a.Type
			}
			if a.ActivityType != "" {
				s.applyActivity(&a)
			}
		}
	}
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case "activity":
			if p.ActivityType != "" {
				s.applyActivity(&p.Activity)
			}
		case "text_output", "text", "text_output_stream":
			if p.Text != "" && !strings.HasPrefix(p.Text, ActivityMarker) {
				s.appendDialectText(p.Text)
			}
		}
	}
	s.dialectText = nil
}

// loadBlock adds one content block of a history message.
func (s *Store) loadBlock(b *Block) {
	if b.Type != "approval_request" {
		if b.Type != "" {
			s.startBlock(0, false, b)
		}
		return
	}
	key := b.ApprovalKey
	if key == "" {
		key = "history-" + strconv.Itoa(s.nextKey+1)
	}
	actions := firstNonEmpty(b.ActionRequests, b.ActionRequestsCamel)
	if len(actions) == 0 {
		return
	}
	s.approvalRequest(key, actions, firstNonEmpty(b.ReviewConfigs, b.ReviewConfigsCamel), b.TimeoutSeconds, b.CreatedAt)
	if !b.IsResolved {
		return
	}
	answers := b.SubmittedAnswers
	if isNull(answers) {
		answers = b.Answers
	}
	if isNull(answers) {
		answers = questionArgsAnswers(actions)
	}
	decisions := b.SubmittedDecisions
	if isNull(decisions) {
		decisions = b.Decisions
	}
	s.approvalResult(key, answers, decisions)
}

// questionArgsAnswers finds answers kept in an ask_user_question's args.
func questionArgsAnswers(actions []ActionRequest) json.RawMessage {
	for _, a := range actions {
		var args struct {
			Answers json.RawMessage `json:"answers"`
		}
		if a.Name == QuestionTool && json.Unmarshal(a.Args, &args) == nil && !isNull(args.Answers) {
			return args.Answers
		}
	}
	return nil
}

// userText is a user message's text: a string, or its text blocks joined.
func userText(content json.RawMessage, text *string) string {
	if s, ok := rawString(content); ok {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var parts []string
	if !isNull(content) && json.Unmarshal(content, &blocks) == nil {
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

func partsText(parts []HistoryPart) string {
	var out []string
	for _, p := range parts {
		if p.Type != "activity" && p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}
