package state

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// AG-UI agents are usually stateless: the client keeps the conversation and
// sends all of it with every run (BACKENDS.md section 4). The store builds
// it from the events as they arrive, in AG-UI's own Message format, so it
// can be saved as is, restored on reload and sent with the next run.

// AGUIConversation is an AG-UI conversation as the browser keeps it.
type AGUIConversation struct {
	ThreadID string             `json:"threadId"`
	Messages []wire.AGUIMessage `json:"messages"`
	// State is the agent's state (STATE_SNAPSHOT, STATE_DELTA), sent back
	// with the next run.
	State json.RawMessage `json:"state,omitempty"`
	// Interrupts are the ones the agent waits on: shown, and answered (or
	// cancelled) all together with the next run.
	Interrupts []OpenInterrupt `json:"interrupts,omitempty"`
	// Answered are the interrupts of earlier runs with their answers (or
	// cancelled): the messages do not hold them, so a reload shows their
	// cards from here.
	Answered []OpenInterrupt `json:"answered,omitempty"`
	// Notes are what the page showed that the messages do not hold (a
	// run's error, notices, stops): a reload shows them where they were.
	Notes []ShownNote `json:"notes,omitempty"`
	// Branches are the versions not shown (kept_branches.go).
	Branches *KeptBranches `json:"branches,omitempty"`

	// subagent is the sub-agent invocation whose event is being applied:
	// the messages it adds carry it (agui_subagents.go).
	subagent string
}

// ShownNote is something the page showed of a run that the protocol's
// messages do not hold: the run's error (AG-UI's RUN_ERROR, the AI SDK's
// error chunk), a notice (the stream ended early, the backend or the proxy
// refused the request, a length limit), a stop. The AG-UI and AI SDK
// conversations keep them beside their messages, so that a reload shows
// them where they were; conversations saved without them still load.
type ShownNote struct {
	// At is how many messages the conversation had when it was shown: it
	// shows before message At.
	At     int    `json:"at"`
	Kind   string `json:"kind"`             // "error", "notice" or "stopped"
	Text   string `json:"text,omitempty"`   // an error's message
	Code   string `json:"code,omitempty"`   // an error's type
	Reason string `json:"reason,omitempty"` // a notice's reason
	Detail string `json:"detail,omitempty"` // a notice's detail
}

// shownNote is the note of an error, notice or stopped item.
func shownNote(it *Item) (ShownNote, bool) {
	switch it.Kind {
	case KindError:
		return ShownNote{Kind: "error", Text: it.Text, Code: it.ErrorType}, true
	case KindNotice:
		if it.Notice == nil || it.Notice.Reason == NoticeUnsupportedInterrupt {
			return ShownNote{}, false // shown again from its interrupt
		}
		return ShownNote{Kind: "notice", Reason: it.Notice.Reason, Detail: it.Notice.Detail}, true
	case KindStopped:
		return ShownNote{Kind: "stopped"}, true
	}
	return ShownNote{}, false
}

// keepShown keeps an error, notice or stopped item just shown with the
// AG-UI and AI SDK conversations (a store that has neither does nothing).
// A restore rebuilds the items from a conversation and then puts the
// conversation back whole, so what it shows is not kept twice.
func (s *Store) keepShown(it *Item) {
	if s.dialect == nil {
		return
	}
	n, ok := shownNote(it)
	if !ok {
		return
	}
	a, u := &s.dialect.agui.conv, &s.dialect.ui.conv
	n.At = len(a.Messages)
	a.Notes = append(a.Notes, n)
	n.At = len(u.Messages)
	u.Notes = append(u.Notes, n)
}

// showNote shows a kept note again, as it was shown: after the group
// before it.
func (s *Store) showNote(n ShownNote) {
	var it *Item
	switch n.Kind {
	case "error":
		it = s.newItem(KindError)
		it.Text, it.ErrorType = n.Text, n.Code
	case "notice":
		it = s.newItem(KindNotice)
		it.Notice = &Notice{Reason: n.Reason, Detail: n.Detail}
	case "stopped":
		it = s.newItem(KindStopped)
	default:
		return // a kind this version does not know
	}
	s.standalone(it)
}

// notesFrom is notes for a conversation cut at message i: the notes of
// the turns left out go with them.
func notesFrom(notes []ShownNote, i int) []ShownNote {
	var out []ShownNote
	for _, n := range notes {
		if i > 0 && n.At <= i {
			continue
		}
		n.At -= i
		out = append(out, n)
	}
	return out
}

// OpenInterrupt is an interrupt the agent waits on, with its answer once
// the user has given one.
type OpenInterrupt struct {
	wire.AGUIInterrupt
	// Legacy is the value of a LangGraph CUSTOM on_interrupt event; its ID
	// is the run's id. It is answered through forwardedProps.command.resume.
	Legacy json.RawMessage `json:"legacy,omitempty"`
	// ResumeID is the id the same interrupt had in RUN_FINISHED's outcome
	// (a LangGraph agent sending both): answered in resume under it too.
	ResumeID string `json:"resumeId,omitempty"`
	// Status is "resolved" once answered (Payload is the answer), "" while
	// the agent waits.
	Status  string          `json:"status,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
	// Unsupported: no form could be made of it; the next run cancels it.
	Unsupported bool `json:"unsupported,omitempty"`
	// At is how many messages the conversation had when it came: where
	// its card goes when the conversation is shown again.
	At int `json:"at"`
	// ClientTool is set when this stands for a call to a client tool
	// (client_tools.go): it is answered by a tool message, not in resume.
	ClientTool *ClientToolCall `json:"clientTool,omitempty"`
}

// TurnStarts are the indexes of the user messages but a first one: where
// the conversation can be cut so that what is kept starts with a message
// of the user's (a save that leaves the oldest turns out).
func (c AGUIConversation) TurnStarts() []int {
	var out []int
	for i := 1; i < len(c.Messages); i++ {
		if c.Messages[i].Role == "user" {
			out = append(out, i)
		}
	}
	return out
}

// From is the conversation from message i on (a TurnStarts index): the
// cards of the interrupts answered before it go with the messages left
// out, the others move with their messages. The thread and the agent's
// state stay.
func (c AGUIConversation) From(i int) AGUIConversation {
	i = min(max(i, 0), len(c.Messages))
	out := c
	out.Messages = c.Messages[i:len(c.Messages):len(c.Messages)]
	out.Answered = nil
	for _, oi := range c.Answered {
		if i > 0 && oi.At <= i {
			continue // answered in a turn left out
		}
		oi.At -= i
		out.Answered = append(out.Answered, oi)
	}
	out.Interrupts = nil
	for _, oi := range c.Interrupts {
		oi.At = max(oi.At-i, 0)
		out.Interrupts = append(out.Interrupts, oi)
	}
	out.Notes = notesFrom(c.Notes, i)
	return out
}

// find returns the message with that id, the newest if several, or nil.
func (c *AGUIConversation) find(id string) *wire.AGUIMessage {
	if id == "" {
		return nil
	}
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].ID == id {
			return &c.Messages[i]
		}
	}
	return nil
}

// newThinkingID names the reasoning message of a deprecated
// THINKING_TEXT_MESSAGE_START: by its place, so that applying a stream
// stays deterministic, and unlike any message's id.
func (c *AGUIConversation) newThinkingID() string {
	id := "thinking-" + strconv.Itoa(len(c.Messages)+1)
	for c.find(id) != nil {
		id += "'"
	}
	return id
}

func (c *AGUIConversation) add(m wire.AGUIMessage) {
	if m.SubagentRunID == "" {
		m.SubagentRunID = c.subagent
	}
	c.Messages = append(c.Messages, m)
}

// addToolCall adds a call to its parent assistant message, or to a new
// assistant message named by the parent id (else the call's id), as
// @ag-ui/client does.
func (c *AGUIConversation) addToolCall(parentID string, call wire.AGUIToolCall) {
	if m := c.find(parentID); m != nil && m.Role == "assistant" {
		m.ToolCalls = append(m.ToolCalls, call)
		return
	}
	id := parentID
	if id == "" {
		id = call.ID
	}
	c.add(wire.AGUIMessage{ID: id, Role: "assistant", ToolCalls: []wire.AGUIToolCall{call}})
}

func (c *AGUIConversation) setCallEncrypted(callID, value string) {
	for i := range c.Messages {
		for j := range c.Messages[i].ToolCalls {
			if c.Messages[i].ToolCalls[j].ID == callID {
				c.Messages[i].ToolCalls[j].EncryptedValue = value
			}
		}
	}
}

// flush writes the text and arguments streamed so far into the messages.
func (st *aguiState) flush() {
	for id, b := range st.content {
		if m := st.conv.find(id); m != nil {
			m.Content, _ = json.Marshal(b.String())
		}
	}
	for i := range st.conv.Messages {
		m := &st.conv.Messages[i]
		for j := range m.ToolCalls {
			if a := st.args[m.ToolCalls[j].ID]; a != nil {
				m.ToolCalls[j].Function.Arguments = string(*a)
			}
		}
	}
}

// builderFor returns the content builder of a message, seeded with the
// content it already has (a message id can come back in a later run).
func (st *aguiState) builderFor(id string) *strings.Builder {
	if b := st.content[id]; b != nil {
		return b
	}
	b := &strings.Builder{}
	if m := st.conv.find(id); m != nil {
		if text, ok := wire.StringValue(m.Content); ok {
			b.WriteString(text)
		}
	}
	st.content[id] = b
	return b
}

// AGUIConversation returns the conversation as the store has built it: a
// copy, safe to keep and to marshal.
func (s *Store) AGUIConversation() AGUIConversation {
	st := &s.dialectState().agui
	st.flush()
	return cloneAGUI(st.conv)
}

func cloneAGUI(c AGUIConversation) AGUIConversation {
	raw, _ := json.Marshal(c)
	var out AGUIConversation
	_ = json.Unmarshal(raw, &out)
	if out.Messages == nil {
		out.Messages = []wire.AGUIMessage{}
	}
	return out
}

// restoreAGUI replaces the store's content with a saved conversation, as a
// reload shows it: every group closed as history (but the one holding a
// card still waiting for the user), the agent idle, open interrupts shown
// again.
func (s *Store) restoreAGUI(c AGUIConversation) Changes {
	s.rebuildAGUI(cloneAGUI(c), false)
	s.changes.List, s.changes.Status, s.changes.Sources, s.changes.Pending = true, true, true, true
	return s.changes
}

// rebuildAGUI rebuilds the items from a conversation. With running, the
// agent stays running and the last group open (a MESSAGES_SNAPSHOT in the
// middle of a run).
func (s *Store) rebuildAGUI(c AGUIConversation, running bool) {
	old := *s
	*s = *New(s.opts)
	s.nextKey, s.rev, s.epoch = old.nextKey, old.rev, old.epoch+1
	s.lastID, s.skipped = old.lastID, old.skipped
	s.changes = Changes{Items: old.changes.Items[:0]}
	if running {
		s.sources, s.sourcesByTool = old.sources, old.sourcesByTool
	}
	if old.dialect != nil {
		st := &s.dialectState().agui
		st.runID, st.runInterrupts = old.dialect.agui.runID, old.dialect.agui.runInterrupts
		s.dialect.ui = old.dialect.ui
	}
	s.replayAGUIMessages(c.Messages, c.Answered, c.Notes)
	st := &s.dialectState().agui
	for i := range c.Interrupts {
		if c.Interrupts[i].Status == "" {
			s.showInterrupt(&c.Interrupts[i])
		}
	}
	if running {
		s.beginRun()
	} else {
		s.endDialectRun(StatusIdle)
	}
	st.conv = c
	clear(st.content)
	clear(st.args)
	clear(st.texts)
	clear(st.reasoning)
	s.changes.List, s.changes.Status, s.changes.Pending = true, true, true
	s.changes.Sources = true
}

// replayAGUIMessages shows messages by applying the events that would have
// made them, with the cards of the interrupts answered between them and
// the notes shown between them (those after the last message, or beyond
// it after a MESSAGES_SNAPSHOT shortened the messages, at the end).
func (s *Store) replayAGUIMessages(msgs []wire.AGUIMessage, answered []OpenInterrupt, notes []ShownNote) {
	str := func(v string) json.RawMessage { raw, _ := json.Marshal(v); return raw }
	next, nextNote := 0, 0
	showAnswered := func(upTo int) {
		for ; next < len(answered) && answered[next].At <= upTo; next++ {
			s.showAnswered(answered[next])
		}
		for ; nextNote < len(notes) && notes[nextNote].At <= upTo; nextNote++ {
			s.showNote(notes[nextNote])
		}
	}
	defer func() {
		showAnswered(len(msgs))
		for _, n := range notes[nextNote:] {
			s.showNote(n)
		}
	}()
	for i := range msgs {
		showAnswered(i)
		m := &msgs[i]
		sub := m.SubagentRunID // a sub-agent's messages go back in its group
		switch m.Role {
		case "user":
			if sub != "" {
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_START", MessageID: m.ID, Role: "user"})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_CONTENT", MessageID: m.ID, Delta: str(userContentText(m.Content))})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_END", MessageID: m.ID})
				continue
			}
			s.addKeptUser(userContentText(m.Content), aguiFiles(m.Content))
		case "assistant":
			if text, _ := wire.ContentText(m.Content); text != "" {
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_START", MessageID: m.ID, Role: "assistant"})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_CONTENT", MessageID: m.ID, Delta: str(text)})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TEXT_MESSAGE_END", MessageID: m.ID})
			}
			for _, tc := range m.ToolCalls {
				if tc.ID == "" || tc.Function.Name == "" {
					continue
				}
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TOOL_CALL_START", ToolCallID: tc.ID, ToolCallName: tc.Function.Name, ParentMessageID: m.ID})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TOOL_CALL_ARGS", ToolCallID: tc.ID, Delta: str(tc.Function.Arguments)})
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "TOOL_CALL_END", ToolCallID: tc.ID})
			}
		case "tool":
			ev := wire.AGUIEvent{SubagentRunID: sub, Type: "TOOL_CALL_RESULT", MessageID: m.ID, ToolCallID: m.ToolCallID, Content: m.Content}
			if m.Error != "" {
				ev.Error = str(m.Error)
			}
			s.applyAGUIEvent(&ev)
		case "reasoning":
			text, _ := wire.StringValue(m.Content)
			s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "REASONING_MESSAGE_START", MessageID: m.ID})
			s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "REASONING_MESSAGE_CONTENT", MessageID: m.ID, Delta: str(text)})
			if m.EncryptedValue != "" {
				s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "REASONING_ENCRYPTED_VALUE", Subtype: "message", EntityID: m.ID, EncryptedValue: m.EncryptedValue})
			}
			s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "REASONING_MESSAGE_END", MessageID: m.ID})
		case "activity":
			s.applyAGUIEvent(&wire.AGUIEvent{SubagentRunID: sub, Type: "ACTIVITY_SNAPSHOT", MessageID: m.ID, ActivityType: m.ActivityType, Content: m.Content})
		}
	}
}

// userContentText is a user message's text: a string, or its text parts.
func userContentText(raw json.RawMessage) string {
	if text, ok := wire.StringValue(raw); ok {
		return text
	}
	text, _ := wire.ContentText(raw)
	return text
}

// aguiRunInput starts the next run and returns the RunAgentInput to POST:
// the conversation so far, plus a new user message when userText is not
// empty; the answers to the open interrupts as its resume (the ones not
// answered are cancelled: the user moved on), and a LangGraph
// on_interrupt's answer as forwardedProps.command.resume. The agent is
// running from here; the user's message shows at once.
func (s *Store) aguiRunInput(userText string, files ...keptFile) wire.RunAgentInput {
	s.begin()
	st := &s.dialectState().agui
	st.flush()
	if st.conv.ThreadID == "" {
		st.conv.ThreadID = s.newID()
	}
	in := wire.RunAgentInput{
		ThreadID:       st.conv.ThreadID,
		RunID:          s.newID(),
		Tools:          slices.Clone(AGUIClientTools),
		Context:        []json.RawMessage{},
		ForwardedProps: json.RawMessage("{}"),
	}
	var legacy json.RawMessage
	for _, oi := range st.conv.Interrupts {
		if oi.ClientTool != nil {
			st.conv.addToolResult(clientToolMessage(s.newID(), oi))
		} else if oi.Legacy != nil {
			payload := oi.Payload
			if oi.Status == "" {
				payload = s.cancelLegacy(oi.ID)
			}
			if legacy == nil && payload != nil {
				legacy = payload
			}
			if oi.ResumeID != "" {
				e := wire.AGUIResumeEntry{InterruptID: oi.ResumeID, Status: "cancelled"}
				if payload != nil {
					e.Status, e.Payload = "resolved", payload
				}
				in.Resume = append(in.Resume, e)
			}
		} else {
			e := wire.AGUIResumeEntry{InterruptID: oi.ID, Status: "cancelled"}
			if oi.Status == "resolved" {
				e.Status, e.Payload = "resolved", oi.Payload
			}
			in.Resume = append(in.Resume, e)
		}
		if it := s.approvals[oi.ID]; it != nil && oi.Status == "" {
			s.expire(it, ToolError)
		}
	}
	for _, oi := range st.conv.Interrupts {
		if oi.Status == "" {
			oi.Status = "cancelled"
		}
		st.conv.Answered = append(st.conv.Answered, oi)
	}
	st.conv.Interrupts = nil
	if legacy != nil {
		in.ForwardedProps, _ = json.Marshal(map[string]any{"command": map[string]json.RawMessage{"resume": legacy}})
	}
	if userText != "" || len(files) > 0 {
		st.conv.add(wire.AGUIMessage{ID: s.newID(), Role: "user", Content: aguiUserContent(userText, files)})
		s.addKeptUser(userText, files)
	} else {
		s.setStatus(StatusRunning) // the paused run goes on: no new turn
	}
	st.runID = in.RunID
	conv := cloneAGUI(st.conv)
	in.Messages = conv.Messages
	if len(conv.State) > 0 {
		in.State = conv.State
	}
	return in
}

// cancelLegacy is what tells a LangGraph graph that the user moved on from
// its human-in-the-loop request: every action rejected. A plain question
// has no such answer (nil): the graph asks it again.
func (s *Store) cancelLegacy(key string) json.RawMessage {
	it := s.approvals[key]
	if it == nil || it.Approval == nil {
		return nil
	}
	decisions := make([]wire.Decision, len(it.Approval.Actions))
	for i := range decisions {
		decisions[i] = wire.Decision{Type: "reject"}
	}
	raw, _ := json.Marshal(map[string]any{"decisions": decisions})
	return raw
}

// showAnswered shows the card of an interrupt answered in an earlier run,
// with its answer.
func (s *Store) showAnswered(oi OpenInterrupt) {
	if s.approvals[oi.ID] != nil {
		return
	}
	s.showInterrupt(&oi)
	if oi.ClientTool != nil {
		s.showClientToolAnswer(oi.ID, oi.ClientTool.Name, oi.Payload)
		return
	}
	it := s.approvals[oi.ID]
	if it == nil {
		return // a notice: it could not be answered
	}
	if oi.Status != "resolved" {
		s.expire(it, ToolError)
		return
	}
	switch {
	case it.Form != nil:
		s.answerForm(it, oi.Payload)
	case oi.Legacy != nil:
		var p struct {
			Decisions json.RawMessage `json:"decisions"`
			Answers   json.RawMessage `json:"answers"`
		}
		_ = json.Unmarshal(oi.Payload, &p)
		s.approvalResult(oi.ID, p.Answers, p.Decisions)
	case it.Approval != nil:
		var p struct {
			Approved   bool            `json:"approved"`
			EditedArgs json.RawMessage `json:"editedArgs"`
		}
		_ = json.Unmarshal(oi.Payload, &p)
		d := wire.Decision{Type: "reject"}
		if p.Approved {
			d.Type = "approve"
			if !wire.IsNull(p.EditedArgs) {
				d = wire.Decision{Type: "edit", EditedAction: &wire.EditedAction{Name: it.Approval.Actions[0].Name, Args: p.EditedArgs}}
			}
		}
		raw, _ := json.Marshal([]wire.Decision{d})
		s.approvalResult(oi.ID, nil, raw)
	}
}
