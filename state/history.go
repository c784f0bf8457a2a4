package state

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// LoadHistory replaces the store's content with a history: items built from
// its messages, the pending approval, the sources panel, the agent status and
// the last event id to resume after (PROTOCOL.md section 4). Like Apply,
// it may keep parts of h.
func (s *Store) LoadHistory(h *wire.History) Changes {
	return s.LoadHistoryPaced(h, nil)
}

// LoadHistoryPaced is LoadHistory calling tick, when not nil, after each
// message, like wire.DecodeHistoryPaced: tick may pause. The store is not
// to be used by anyone else until it returns; a caller that keeps its page
// going meanwhile loads into a store of its own (state.New) and then puts
// it in the old one's place.
func (s *Store) LoadHistoryPaced(h *wire.History, tick func()) Changes {
	*s = *New(s.opts)
	s.begin()
	s.status = StatusRunning // settled below, once every tool is in
	s.brandPending = true
	s.startTurn()
	for i := range h.Messages {
		s.loadMessage(&h.Messages[i])
		if tick != nil {
			tick()
		}
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
		s.endTurn()
	}
	s.setStatus(status)
	if id, ok := wire.ParseEventID(h.LastEventID); ok {
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

func (s *Store) loadMessage(m *wire.HistoryMessage) {
	s.lastText = nil // text blocks join only within a message
	var n *msgNode   // a message of the tree (branches.go)
	switch {
	case m.Role == "user":
		n = s.historyMessage(m, "user")
	case m.Role != "tool" && m.ID != "" && (len(m.Siblings) > 0 || len(m.ParentID) > 0 || m.Feedback != nil):
		// The first message of an answer.
		if s.historyMessage(m, "assistant") != nil {
			s.brandPending = true
			s.startTurn()
		}
	}
	if m.DisplayType == "group_start" {
		s.openGroup(m.Summary)
	}
	switch m.Role {
	case "user":
		s.addUserMessage(m.UserText(), m.Content, n)
	case "tool":
		if m.ToolCallID != "" {
			text, _ := wire.ContentText(m.Content)
			it := s.toolResult(m.ToolCallID, m.Name, m.Status, text, m.Artifact, m.ToolContentMessage)
			s.setStructuredContent(it, m.StructuredContent)
			s.withImages(it, m.Content)
		}
	default:
		s.msgType = m.MessageType
		s.noticed = false
		if m.Usage != nil {
			s.commitMessageUsage()
			s.messageUsage(m.Usage)
		}
		s.loadAssistant(m)
		s.lastText = nil
		s.stopNotice(m.StopReason, m.StopDetails)
	}
	if m.DisplayType == "group_end" || (m.DisplayType == "group_start" && m.GroupClosed) {
		s.closeGroup(&m.Summary)
	}
}

func (s *Store) loadAssistant(m *wire.HistoryMessage) {
	if text, ok := wire.StringValue(m.Content); ok {
		if text != "" {
			it := s.newItem(KindText)
			setText(it, text)
			s.standalone(it)
		}
	} else if !wire.IsNull(m.Content) {
		var blocks []wire.Block
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
		if wire.IsNull(input) {
			input = tc.Input
		}
		s.setToolApp(s.toolUse(tc.ID, tc.Name, input, tc.ToolContentMessage, ""), tc.UI)
	}
	s.loadParts(m)
}

// loadParts reads the activity dialect: parts are authoritative; without
// activity parts, activity_parts come first, then the text parts.
func (s *Store) loadParts(m *wire.HistoryMessage) {
	s.dialectText = nil
	hasActivity := slices.ContainsFunc(m.Parts, func(p wire.HistoryPart) bool { return p.Type == "activity" })
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
			if p.Text != "" && !strings.HasPrefix(p.Text, wire.ActivityMarker) {
				s.appendDialectText(p.Text)
			}
		}
	}
	s.dialectText = nil
}

// loadBlock adds one content block of a history message.
func (s *Store) loadBlock(b *wire.Block) {
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
	if wire.IsNull(answers) {
		answers = b.Answers
	}
	if wire.IsNull(answers) {
		answers = questionArgsAnswers(actions)
	}
	decisions := b.SubmittedDecisions
	if wire.IsNull(decisions) {
		decisions = b.Decisions
	}
	s.approvalResult(key, answers, decisions)
}

// questionArgsAnswers finds answers kept in an ask_user_question's args.
func questionArgsAnswers(actions []wire.ActionRequest) json.RawMessage {
	for _, a := range actions {
		var args struct {
			Answers json.RawMessage `json:"answers"`
		}
		if a.Name == QuestionTool && json.Unmarshal(a.Args, &args) == nil && !wire.IsNull(args.Answers) {
			return args.Answers
		}
	}
	return nil
}
