package state

import (
	"encoding/json"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// AI SDK chat routes are usually stateless: the client keeps the
// conversation as UIMessages and POSTs all of it each turn (BACKENDS.md
// section 4). The store builds it from the chunks as the SDK's
// processUIMessageStream does, so it can be saved, restored on reload and
// sent with the next POST.

// UIConversation is an AI SDK conversation as the browser keeps it.
type UIConversation struct {
	ID       string           `json:"id"`
	Messages []wire.UIMessage `json:"messages"`
	// Active is the response being streamed when the conversation was
	// saved, nil when none: a reload asks the route for it again.
	Active *UIActive `json:"active,omitempty"`
	// Notes are what the page showed that the messages do not hold (an
	// error chunk, notices, stops): a reload shows them where they were.
	Notes []ShownNote `json:"notes,omitempty"`
	// Branches are the versions not shown (kept_branches.go).
	Branches *KeptBranches `json:"branches,omitempty"`
}

// UIActive is a response being streamed: the assistant message it writes
// ("" until its start arrives) and how many parts that message had before
// (a response after a tool approval continues the message it answers).
type UIActive struct {
	MessageID string `json:"messageId,omitempty"`
	BaseParts int    `json:"baseParts"`
}

// TurnStarts are the indexes of the user messages but a first one: where
// the conversation can be cut so that what is kept starts with a message
// of the user's (a save that leaves the oldest turns out).
func (c UIConversation) TurnStarts() []int {
	var out []int
	for i := 1; i < len(c.Messages); i++ {
		if c.Messages[i].Role == "user" {
			out = append(out, i)
		}
	}
	return out
}

// From is the conversation from message i on (a TurnStarts index). The
// response being streamed, if any, writes the newest message: it stays.
func (c UIConversation) From(i int) UIConversation {
	i = min(max(i, 0), len(c.Messages))
	out := c
	out.Messages = c.Messages[i:len(c.Messages):len(c.Messages)]
	out.Notes = notesFrom(c.Notes, i)
	return out
}

// startMessage begins the assistant message a response writes: the one it
// continues, else a new one (with the id the stream gives, if any).
func (st *uiState) startMessage(s *Store, id string) {
	msgs := st.conv.Messages
	if c := st.continueMsg; c >= 0 && c < len(msgs) && msgs[c].Role == "assistant" {
		st.msg, st.continueMsg = c, -1
		if id != "" {
			msgs[c].ID = id
		}
		st.noteActive()
		return
	}
	st.continueMsg = -1
	if st.msg >= 0 && st.msg < len(msgs) && (id == "" || msgs[st.msg].ID == id) {
		return // the same response starting again
	}
	if id == "" {
		// The route left the id to the client; Apply stays deterministic.
		id = "assistant-" + strconv.Itoa(len(msgs)+1)
	}
	st.conv.Messages = append(st.conv.Messages, wire.UIMessage{ID: id, Role: "assistant", Parts: []wire.UIPart{}})
	st.msg = len(st.conv.Messages) - 1
	st.noteActive()
}

func (st *uiState) noteActive() {
	if st.conv.Active != nil && st.msg >= 0 {
		st.conv.Active.MessageID = st.conv.Messages[st.msg].ID
	}
}

// current is the message the stream writes; a chunk that comes before any
// start begins one.
func (st *uiState) current(s *Store) *wire.UIMessage {
	if st.msg < 0 || st.msg >= len(st.conv.Messages) {
		if s.status != StatusRunning {
			s.beginRun()
		}
		st.startMessage(s, "")
	}
	return &st.conv.Messages[st.msg]
}

// mergeMetadata merges message metadata into the current message, objects
// deeply, as the SDK does.
func (st *uiState) mergeMetadata(raw json.RawMessage) {
	if wire.IsNull(raw) || st.msg < 0 || st.msg >= len(st.conv.Messages) {
		return
	}
	m := &st.conv.Messages[st.msg]
	if wire.IsNull(m.Metadata) {
		m.Metadata = append(json.RawMessage(nil), raw...)
		return
	}
	base, err1 := decodeJSON(m.Metadata)
	add, err2 := decodeJSON(raw)
	if err1 != nil || err2 != nil {
		m.Metadata = append(json.RawMessage(nil), raw...)
		return
	}
	m.Metadata, _ = json.Marshal(mergeValues(base, add))
}

func mergeValues(base, add any) any {
	bm, ok1 := base.(map[string]any)
	am, ok2 := add.(map[string]any)
	if !ok1 || !ok2 {
		return add
	}
	for k, v := range am {
		bm[k] = mergeValues(bm[k], v)
	}
	return bm
}

// flushText writes a streamed part's text into its part.
func (st *uiState) flushText(t *uiText, state string, providerMetadata json.RawMessage) {
	if t.msg >= len(st.conv.Messages) || t.part >= len(st.conv.Messages[t.msg].Parts) {
		return
	}
	p := &st.conv.Messages[t.msg].Parts[t.part]
	text := t.buf.String()
	p.Text = &text
	if state != "" {
		p.State = state
	}
	if providerMetadata != nil {
		p.ProviderMetadata = providerMetadata
	}
}

// flushAll writes every part being streamed, which goes on streaming.
func (st *uiState) flushAll() {
	for _, t := range st.texts {
		st.flushText(t, "", nil)
	}
	for _, t := range st.reasoning {
		st.flushText(t, "", nil)
	}
}

// closeTexts ends the parts being streamed (finish-step, finish).
func (st *uiState) closeTexts() {
	st.flushAll()
	clear(st.texts)
	clear(st.reasoning)
}

// findToolPart finds the part of a tool call: in the message being
// written, else (unless currentOnly) in the newest message that has it.
func (st *uiState) findToolPart(callID string, currentOnly ...bool) *wire.UIPart {
	search := func(m *wire.UIMessage) *wire.UIPart {
		for j := len(m.Parts) - 1; j >= 0; j-- {
			p := &m.Parts[j]
			if p.ToolCallID == callID && (p.Type == "dynamic-tool" || strings.HasPrefix(p.Type, "tool-")) {
				return p
			}
		}
		return nil
	}
	if st.msg >= 0 && st.msg < len(st.conv.Messages) {
		if p := search(&st.conv.Messages[st.msg]); p != nil {
			return p
		}
	}
	if len(currentOnly) > 0 && currentOnly[0] {
		return nil
	}
	for i := len(st.conv.Messages) - 1; i >= 0; i-- {
		if p := search(&st.conv.Messages[i]); p != nil {
			return p
		}
	}
	return nil
}

// setToolPart updates the part of a tool call, adding it to the current
// message when there is none and name is known. A chunk that names the
// tool (one that may start a call) looks in the current message only, as
// the SDK does; results look everywhere.
func (st *uiState) setToolPart(callID, name string, dynamic bool, update func(p *wire.UIPart)) {
	p := st.findToolPart(callID, name != "")
	if p == nil {
		if name == "" || st.msg < 0 || st.msg >= len(st.conv.Messages) {
			return
		}
		m := &st.conv.Messages[st.msg]
		np := wire.UIPart{ToolCallID: callID, Type: "tool-" + name}
		if dynamic {
			np.Type, np.ToolName = "dynamic-tool", name
		}
		m.Parts = append(m.Parts, np)
		p = &m.Parts[len(m.Parts)-1]
	} else if name != "" {
		if p.Type == "dynamic-tool" {
			p.ToolName = name
		} else {
			p.Type = "tool-" + name
		}
	}
	update(p)
}

// addData keeps a data part; one with the id of an earlier part of its
// type replaces that part's data.
func (st *uiState) addData(c *wire.UIChunk) {
	m := &st.conv.Messages[st.msg]
	if c.ID != "" {
		for i := range m.Parts {
			if m.Parts[i].Type == c.Type && m.Parts[i].ID == c.ID {
				m.Parts[i].Data = c.Data
				return
			}
		}
	}
	data := c.Data
	if data == nil {
		data = json.RawMessage("null")
	}
	m.Parts = append(m.Parts, wire.UIPart{Type: c.Type, ID: c.ID, Data: data})
}

// UIConversation returns the conversation as the store has built it: a
// copy, safe to keep and to marshal.
func (s *Store) UIConversation() UIConversation {
	st := &s.dialectState().ui
	st.flushAll()
	return cloneUI(st.conv)
}

func cloneUI(c UIConversation) UIConversation {
	raw, _ := json.Marshal(c)
	var out UIConversation
	_ = json.Unmarshal(raw, &out)
	if out.Messages == nil {
		out.Messages = []wire.UIMessage{}
	}
	for i := range out.Messages {
		if out.Messages[i].Parts == nil {
			out.Messages[i].Parts = []wire.UIPart{}
		}
	}
	return out
}

// restoreUI replaces the store's content with a saved conversation, as a
// reload shows it: every group closed as history (but the one holding an
// approval still waiting), the agent idle. When c.Active is set, the
// caller asks the route for the stream (GET {route}/{id}/stream) and calls
// beginUIResume or endUIResume with the outcome.
func (s *Store) restoreUI(c UIConversation) Changes {
	c = cloneUI(c)
	s.resetKeepingCounters()
	s.replayUIMessages(c.Messages, c.Notes)
	s.endDialectRun(StatusIdle)
	st := &s.dialectState().ui
	st.init()
	st.conv = c
	s.changes.List, s.changes.Status, s.changes.Sources, s.changes.Pending = true, true, true, true
	return s.changes
}

// resetKeepingCounters empties the store but keeps its item keys and
// revisions growing, so a renderer never mistakes a new item for one it
// has drawn.
func (s *Store) resetKeepingCounters() {
	old := *s
	*s = *New(s.opts)
	s.nextKey, s.rev, s.epoch = old.nextKey, old.rev, old.epoch+1
	s.changes = Changes{Items: old.changes.Items[:0]}
}

// beginUIResume is called when the route answers GET {route}/{id}/stream
// with a stream: it replays the active response from its start, so the
// part of it the saved conversation holds is taken back first; the agent
// is running again.
func (s *Store) beginUIResume() Changes {
	st := &s.dialectState().ui
	st.flushAll()
	c := cloneUI(st.conv)
	cont := -1
	if a := c.Active; a != nil {
		for i := range c.Messages {
			if a.MessageID == "" || c.Messages[i].ID != a.MessageID {
				continue
			}
			if a.BaseParts <= 0 {
				c.Messages = append(c.Messages[:i], c.Messages[i+1:]...)
			} else {
				if a.BaseParts < len(c.Messages[i].Parts) {
					c.Messages[i].Parts = c.Messages[i].Parts[:a.BaseParts]
				}
				cont = i
			}
			break
		}
	}
	active := c.Active
	s.restoreUI(c)
	st = &s.dialectState().ui
	st.conv.Active = active
	if active == nil {
		st.conv.Active = &UIActive{}
	}
	st.continueMsg = cont
	s.beginRun()
	return s.changes
}

// endUIResume is called when there was nothing to resume (204, or the
// request failed): what was saved stays as it is shown.
func (s *Store) endUIResume() {
	s.dialectState().ui.conv.Active = nil
}

// replayUIMessages shows messages by applying the chunks that would have
// made them, with the notes shown between them.
func (s *Store) replayUIMessages(msgs []wire.UIMessage, notes []ShownNote) {
	str := func(v string) string { return v }
	next := 0
	showNotes := func(upTo int) {
		for ; next < len(notes) && notes[next].At <= upTo; next++ {
			s.showNote(notes[next])
		}
	}
	defer func() {
		for _, n := range notes[next:] {
			s.showNote(n)
		}
	}()
	for i := range msgs {
		showNotes(i)
		m := &msgs[i]
		switch m.Role {
		case "user":
			var parts []string
			for _, p := range m.Parts {
				if p.Type == "text" && p.Text != nil && *p.Text != "" {
					parts = append(parts, *p.Text)
				}
			}
			s.addKeptUser(strings.Join(parts, "\n"), uiFiles(m.Parts))
		case "assistant":
			s.applyUIChunkDecoded(&wire.UIChunk{Type: "start", MessageID: m.ID}, false)
			for j := range m.Parts {
				s.replayUIPart(&m.Parts[j], j, str)
			}
			st := &s.dialectState().ui
			st.closeTexts()
			st.msg = -1
		}
	}
}

func (s *Store) replayUIPart(p *wire.UIPart, j int, _ func(string) string) {
	apply := func(c wire.UIChunk) { s.applyUIChunkDecoded(&c, false) }
	id := "restored-" + string(rune('a'+j%26)) + strings.Repeat("z", j/26)
	text := ""
	if p.Text != nil {
		text = *p.Text
	}
	switch {
	case p.Type == "text":
		apply(wire.UIChunk{Type: "text-start", ID: id})
		apply(wire.UIChunk{Type: "text-delta", ID: id, Delta: text})
		apply(wire.UIChunk{Type: "text-end", ID: id})
	case p.Type == "reasoning":
		apply(wire.UIChunk{Type: "reasoning-start", ID: id, ProviderMetadata: p.ProviderMetadata})
		apply(wire.UIChunk{Type: "reasoning-delta", ID: id, Delta: text})
		apply(wire.UIChunk{Type: "reasoning-end", ID: id})
	case p.Type == "step-start":
		apply(wire.UIChunk{Type: "start-step"})
	case p.Type == "source-url", p.Type == "source-document", p.Type == "file", p.Type == "reasoning-file":
		apply(wire.UIChunk{Type: p.Type, SourceID: p.SourceID, URL: p.URL, Title: p.Title, MediaType: p.MediaType, Filename: p.Filename})
	case p.Type == "dynamic-tool" || strings.HasPrefix(p.Type, "tool-"):
		name := strings.TrimPrefix(p.Type, "tool-")
		dynamic := p.Type == "dynamic-tool"
		if dynamic {
			name = p.ToolName
		}
		if p.ToolCallID == "" || name == "" {
			return
		}
		if clientToolKind(name) != "" && (p.ProviderExecuted == nil || !*p.ProviderExecuted) {
			s.hidden[p.ToolCallID] = true
			s.replayClientToolPart(p)
			return
		}
		apply(wire.UIChunk{Type: "tool-input-available", ToolCallID: p.ToolCallID, ToolName: name, Input: p.Input, Title: p.Title, Dynamic: dynamic, ProviderMetadata: p.CallProviderMetadata})
		if p.Approval != nil && p.Approval.ID != "" {
			apply(wire.UIChunk{Type: "tool-approval-request", ToolCallID: p.ToolCallID, ApprovalID: p.Approval.ID})
			if p.State != "approval-requested" {
				approved := p.State == "output-available" || p.State == "output-error" || (p.Approval.Approved != nil && *p.Approval.Approved)
				s.decideUIApproval(p.Approval.ID, approved, p.Approval.Reason)
			}
		}
		switch p.State {
		case "output-available":
			apply(wire.UIChunk{Type: "tool-output-available", ToolCallID: p.ToolCallID, Output: p.Output, Preliminary: p.Preliminary != nil && *p.Preliminary})
		case "output-error":
			apply(wire.UIChunk{Type: "tool-output-error", ToolCallID: p.ToolCallID, ErrorText: p.ErrorText})
		case "output-denied":
			apply(wire.UIChunk{Type: "tool-output-denied", ToolCallID: p.ToolCallID})
		}
	}
}

// decideUIApproval marks an approval card answered in the items only.
func (s *Store) decideUIApproval(key string, approved bool, reason string) {
	d := wire.Decision{Type: "approve"}
	if !approved {
		d = wire.Decision{Type: "reject", Message: reason}
	}
	raw, _ := json.Marshal([]wire.Decision{d})
	if it := s.approvals[key]; it != nil && it.Approval != nil && it.Approval.State == ApprovalPending {
		s.approvalResult(key, nil, raw)
	}
}

// uiChatRequest starts the next request to the chat route and returns its
// body: the conversation so far plus a new user message when userText is
// not empty (approvals still waiting are then refused: the user moved on),
// else the approval answers given since (answerCard), continuing the last
// assistant message as the SDK's addToolApprovalResponse does. The agent
// is running from here; the user's message shows at once.
func (s *Store) uiChatRequest(userText string, files ...keptFile) wire.UIChatRequest {
	s.begin()
	st := &s.dialectState().ui
	st.closeTexts()
	st.msg = -1
	if st.conv.ID == "" {
		st.conv.ID = s.newID()
	}
	req := wire.UIChatRequest{ID: st.conv.ID, Trigger: "submit-message"}
	if userText != "" || len(files) > 0 {
		s.refuseWaitingApprovals(st)
		s.uiCancelClientCalls(st)
		// Files first, then the text, as useChat's sendMessage does.
		parts := make([]wire.UIPart, 0, len(files)+1)
		for _, f := range files {
			parts = append(parts, f.uiPart())
		}
		if userText != "" {
			text := userText
			parts = append(parts, wire.UIPart{Type: "text", Text: &text})
		}
		st.conv.Messages = append(st.conv.Messages, wire.UIMessage{ID: s.newID(), Role: "user", Parts: parts})
		s.addKeptUser(userText, files)
		st.continueMsg = -1
		st.conv.Active = &UIActive{}
	} else {
		st.continueMsg = -1
		st.conv.Active = &UIActive{}
		if n := len(st.conv.Messages); n > 0 && st.conv.Messages[n-1].Role == "assistant" {
			last := &st.conv.Messages[n-1]
			st.continueMsg = n - 1
			req.MessageID = last.ID
			st.conv.Active = &UIActive{MessageID: last.ID, BaseParts: len(last.Parts)}
		}
		s.setStatus(StatusRunning) // the paused turn goes on: no new brand
	}
	req.Messages = cloneUI(st.conv).Messages
	return req
}

// refuseWaitingApprovals denies every tool still waiting for approval: its
// part becomes output-denied, which the route reads as a denied call.
func (s *Store) refuseWaitingApprovals(st *uiState) {
	for i := range st.conv.Messages {
		for j := range st.conv.Messages[i].Parts {
			p := &st.conv.Messages[i].Parts[j]
			if p.State != "approval-requested" || p.Approval == nil {
				continue
			}
			no := false
			p.State = "output-denied"
			p.Approval.Approved = &no
			s.decideUIApproval(p.Approval.ID, false, "")
			s.uiToolDenied(p.ToolCallID)
		}
	}
}
