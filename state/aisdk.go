package state

import (
	"encoding/json"
	"net/url"
	"strings"

	"stepwise/state/wire"
)

// AI SDK UI message stream chunks as items (BACKENDS.md section 3). While
// it applies them the store also keeps the conversation as UIMessages with
// parts (aisdk_conversation.go), exactly as the SDK's own
// processUIMessageStream builds them, so the next POST carries what the
// route expects.

// SourcesQuery is the sources panel's heading for an AI SDK message's
// source-url parts (one group per message).
const SourcesQuery = "Sources"

// uiState is what the AI SDK dialect keeps between chunks.
type uiState struct {
	conv UIConversation
	// msg is the index of the assistant message the stream writes, -1
	// before its start; continueMsg, set by uiChatRequest, is the one the
	// next response continues (after a tool approval), -1 for a new one.
	msg, continueMsg int

	// finished is the id of the message the last finish ended: the
	// response's own chunks that come after it (message metadata, data
	// parts) still belong to it.
	finished string

	texts     map[string]*uiText // by chunk id
	reasoning map[string]*uiText
	partial   map[string]*uiPartial // tool input being streamed, by call id
}

// uiText is a text or reasoning part being streamed: its item and its part.
type uiText struct {
	stream    *streamText
	msg, part int
	buf       strings.Builder
	redacted  bool // its providerMetadata carries redactedData
}

type uiPartial struct {
	text     []byte
	encoding string
}

func (st *uiState) init() {
	st.msg, st.continueMsg = -1, -1
	st.texts = map[string]*uiText{}
	st.reasoning = map[string]*uiText{}
	st.partial = map[string]*uiPartial{}
}

func (s *Store) applyUIChunk(frame []byte) bool {
	c, err := wire.DecodeUIChunk(frame)
	if err != nil {
		return false
	}
	return s.applyUIChunkDecoded(&c, true)
}

// applyUIChunkDecoded applies one chunk; false when it is not valid.
func (s *Store) applyUIChunkDecoded(c *wire.UIChunk, _ bool) bool {
	st := &s.dialectState().ui
	switch c.Type {
	case "start":
		st.finished = ""
		s.beginRun()
		st.startMessage(s, c.MessageID)
		st.mergeMetadata(c.MessageMetadata)
		return true
	case "start-step":
		st.current(s).Parts = append(st.current(s).Parts, wire.UIPart{Type: "step-start"})
		return true
	case "finish-step":
		st.flushAll() // v5 and v6 end the step's parts here; v7 lets them go on
		return true
	case "reset-step":
		s.uiResetStep(st)
		return true
	case "custom":
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "custom", Kind: c.Kind, ProviderMetadata: c.ProviderMetadata})
		return true
	case "reasoning-file":
		if c.URL == "" {
			return false
		}
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "reasoning-file", URL: c.URL, MediaType: c.MediaType, ProviderMetadata: c.ProviderMetadata})
		// A file the model made while reasoning (v7): a step with its
		// reasoning, shown as a file is (an image, else a link).
		it := s.newItem(KindActivity)
		it.Activity = &ActivityInfo{Type: "file", Name: c.MediaType, Icon: "📎"}
		it.Text = c.URL
		s.placeStep(it)
		return true
	case "steering-message":
		// A message the user added while the agent ran (v7, experimental).
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "steering-message", ID: c.ID, Parts: c.Parts})
		var texts []string
		for _, p := range c.Parts {
			if p.Type == "text" && p.Text != nil && *p.Text != "" {
				texts = append(texts, *p.Text)
			}
		}
		it := s.newItem(KindUser)
		it.Text = strings.Join(texts, "\n")
		s.standalone(it)
		return true
	case "tool-approval-response":
		p := st.approvalPart(c.ApprovalID)
		if p == nil || c.Approved == nil {
			return false
		}
		p.State = "approval-responded"
		p.Approval.Approved = c.Approved
		p.Approval.Reason = c.Reason
		if c.ProviderExecuted != nil {
			p.ProviderExecuted = c.ProviderExecuted
		}
		s.decideUIApproval(c.ApprovalID, *c.Approved, c.Reason)
		return true
	case "message-metadata":
		if !st.afterFinish(s) {
			st.current(s)
		}
		st.mergeMetadata(c.MessageMetadata)
		st.msg = st.keepAfterFinish(s)
		return true

	case "text-start":
		m := st.current(s)
		empty := ""
		m.Parts = append(m.Parts, wire.UIPart{Type: "text", Text: &empty, State: "streaming", ProviderMetadata: c.ProviderMetadata})
		st.texts[c.ID] = &uiText{stream: s.newStreamText(), msg: st.msg, part: len(m.Parts) - 1}
		return true
	case "text-delta":
		t := st.texts[c.ID]
		if t == nil {
			return false
		}
		if !s.isLastTop(t.stream.item) {
			t.stream = s.newStreamText()
		}
		t.stream.append(s, c.Delta)
		growText(&t.buf, c.Delta) // the conversation keeps what the page shows
		return true
	case "text-end":
		t := st.texts[c.ID]
		if t == nil {
			return false
		}
		st.flushText(t, "done", c.ProviderMetadata)
		delete(st.texts, c.ID)
		return true

	case "reasoning-start":
		m := st.current(s)
		empty := ""
		m.Parts = append(m.Parts, wire.UIPart{Type: "reasoning", ID: c.ID, Text: &empty, State: "streaming", ProviderMetadata: c.ProviderMetadata})
		st.reasoning[c.ID] = &uiText{stream: s.newStreamThinking(), msg: st.msg, part: len(m.Parts) - 1, redacted: hasRedactedData(c.ProviderMetadata)}
		return true
	case "reasoning-delta":
		t := st.reasoning[c.ID]
		if t == nil {
			return false
		}
		t.stream.append(s, c.Delta)
		growText(&t.buf, c.Delta)
		return true
	case "reasoning-end":
		t := st.reasoning[c.ID]
		if t == nil {
			return false
		}
		if t.buf.Len() == 0 && (t.redacted || hasRedactedData(c.ProviderMetadata)) {
			t.stream.item.Redacted = true
			s.touch(t.stream.item)
		}
		st.flushText(t, "done", c.ProviderMetadata)
		delete(st.reasoning, c.ID)
		return true

	case "tool-input-start":
		if c.ToolCallID == "" || c.ToolName == "" {
			return false
		}
		st.current(s)
		st.partial[c.ToolCallID] = &uiPartial{encoding: c.InputEncoding}
		s.uiTool(c.ToolCallID, c.ToolName, nil, c.Title)
		s.uiToolApp(c.ToolCallID, c.ProviderMetadata)
		if it := s.tools[c.ToolCallID]; it != nil {
			it.Tool.InputStreaming = true
		}
		st.setToolPart(c.ToolCallID, c.ToolName, c.Dynamic, func(p *wire.UIPart) {
			p.State = "input-streaming"
			p.Input, p.Output, p.ErrorText, p.RawInput, p.Preliminary = nil, nil, "", nil, nil
			p.InputEncoding = c.InputEncoding
			setToolPartCommon(p, c)
			if c.ProviderMetadata != nil {
				p.CallProviderMetadata = c.ProviderMetadata
			}
		})
		return true
	case "tool-input-delta":
		pt := st.partial[c.ToolCallID]
		if pt == nil {
			return false
		}
		pt.text = append(pt.text, c.InputTextDelta...)
		var input json.RawMessage
		if pt.encoding == "text" {
			input, _ = json.Marshal(string(pt.text))
		} else {
			input = toolInput(pt.text)
		}
		if it := s.tools[c.ToolCallID]; it != nil && input != nil {
			it.Tool.Input = input
			s.touch(it)
		}
		raw, _ := json.Marshal(string(pt.text))
		st.setToolPart(c.ToolCallID, "", false, func(p *wire.UIPart) {
			p.State = "input-streaming"
			p.Input, p.RawInput = input, raw
		})
		return true
	case "tool-input-available":
		if c.ToolCallID == "" || c.ToolName == "" {
			return false
		}
		st.current(s)
		delete(st.partial, c.ToolCallID)
		s.uiTool(c.ToolCallID, c.ToolName, c.Input, c.Title)
		s.uiToolApp(c.ToolCallID, c.ProviderMetadata)
		if it := s.tools[c.ToolCallID]; it != nil {
			it.Tool.InputStreaming = false
		}
		st.setToolPart(c.ToolCallID, c.ToolName, c.Dynamic, func(p *wire.UIPart) {
			p.State = "input-available"
			p.Input, p.Output, p.ErrorText, p.RawInput, p.Preliminary, p.InputEncoding = rawOrNull(c.Input), nil, "", nil, nil, ""
			setToolPartCommon(p, c)
			if c.ProviderMetadata != nil {
				p.CallProviderMetadata = c.ProviderMetadata
			}
		})
		return true
	case "tool-input-error":
		if c.ToolCallID == "" {
			return false
		}
		st.current(s)
		delete(st.partial, c.ToolCallID)
		name := c.ToolName
		if it := s.tools[c.ToolCallID]; it != nil && name == "" {
			name = it.Tool.Name
		}
		s.uiTool(c.ToolCallID, name, nil, c.Title)
		s.toolResult(c.ToolCallID, name, "error", c.ErrorText, nil, "")
		st.setToolPart(c.ToolCallID, name, c.Dynamic, func(p *wire.UIPart) {
			p.State = "output-error"
			if p.Type == "dynamic-tool" {
				p.Input, p.RawInput = rawOrNull(c.Input), nil
			} else {
				p.Input, p.RawInput = nil, c.Input
			}
			p.ErrorText, p.Output = c.ErrorText, nil
			setToolPartCommon(p, c)
		})
		return true
	case "tool-approval-request":
		it := s.tools[c.ToolCallID]
		if c.ApprovalID == "" || it == nil || st.findToolPart(c.ToolCallID) == nil {
			return false
		}
		s.uiApprovalCard(c.ApprovalID, it, c.IsAutomatic)
		st.setToolPart(c.ToolCallID, "", false, func(p *wire.UIPart) {
			p.State = "approval-requested"
			p.Approval = &wire.UIApproval{ID: c.ApprovalID, Descriptor: c.ApprovalDescriptor, Signature: c.Signature, InputSchemaInput: c.InputSchemaInput, IsAutomatic: c.IsAutomatic}
		})
		return true
	case "tool-output-available":
		if c.ToolCallID == "" {
			return false
		}
		s.uiToolOutput(c.ToolCallID, uiResultText(c.Output), c.Output, c.Preliminary)
		st.setToolPart(c.ToolCallID, "", false, func(p *wire.UIPart) {
			p.State = "output-available"
			p.Output, p.ErrorText, p.RawInput = rawOrNull(c.Output), "", nil
			p.Preliminary = nil
			if c.Preliminary {
				t := true
				p.Preliminary = &t
			}
			setToolPartCommon(p, c)
			if c.ProviderMetadata != nil {
				p.ResultProviderMetadata = c.ProviderMetadata
			}
		})
		return true
	case "tool-output-error":
		if c.ToolCallID == "" {
			return false
		}
		s.toolResult(c.ToolCallID, "", "error", c.ErrorText, nil, "")
		st.setToolPart(c.ToolCallID, "", false, func(p *wire.UIPart) {
			p.State = "output-error"
			p.ErrorText, p.Output = c.ErrorText, nil
			setToolPartCommon(p, c)
			if c.ProviderMetadata != nil {
				p.ResultProviderMetadata = c.ProviderMetadata
			}
		})
		return true
	case "tool-output-denied":
		if c.ToolCallID == "" {
			return false
		}
		s.uiToolDenied(c.ToolCallID)
		st.setToolPart(c.ToolCallID, "", false, func(p *wire.UIPart) { p.State = "output-denied" })
		return true

	case "source-url":
		if c.URL == "" {
			return false
		}
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "source-url", SourceID: c.SourceID, URL: c.URL, Title: c.Title, ProviderMetadata: c.ProviderMetadata})
		s.addMessageSource(m.ID, c.URL, c.Title)
		return true
	case "source-document":
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "source-document", SourceID: c.SourceID, MediaType: c.MediaType, Title: c.Title, Filename: c.Filename, ProviderMetadata: c.ProviderMetadata})
		it := s.newItem(KindActivity)
		it.Activity = &ActivityInfo{Type: "source-document", Name: firstNonEmptyString(c.Title, c.Filename), Icon: "📄"}
		it.Text = c.Filename
		s.place(it)
		return true
	case "file":
		if c.URL == "" {
			return false
		}
		m := st.current(s)
		m.Parts = append(m.Parts, wire.UIPart{Type: "file", URL: c.URL, MediaType: c.MediaType, ProviderMetadata: c.ProviderMetadata})
		it := s.newItem(KindActivity)
		it.Activity = &ActivityInfo{Type: "file", Name: c.MediaType, Icon: "📎"}
		it.Text = c.URL
		s.standalone(it)
		return true

	case "error":
		s.addError(c.ErrorText, "")
		return true
	case "finish":
		if st.msg >= 0 {
			st.mergeMetadata(c.MessageMetadata)
			st.finished = st.conv.Messages[st.msg].ID
			st.flushAll()
			s.uiOpenClientCalls(st) // they wait for the user's answer
		}
		st.closeTexts()
		st.msg = -1
		st.conv.Active = nil
		switch c.FinishReason {
		case "length":
			s.addNotice(NoticeMaxTokens, "")
		case "content-filter":
			s.addNotice(NoticeRefusal, "")
		}
		if c.FinishReason == "error" {
			s.endDialectRun(StatusError)
		} else {
			s.endDialectRun(StatusIdle)
		}
		if len(s.pending) == 0 {
			s.endTurn() // as AG-UI's RUN_FINISHED: the answer is whole (its copy button)
		}
		return true
	case "abort":
		st.closeTexts()
		st.msg = -1
		st.conv.Active = nil
		s.terminal(s.newItem(KindStopped), StatusStopped)
		return true
	}
	if strings.HasPrefix(c.Type, "data-") {
		if !c.Transient {
			if !st.afterFinish(s) {
				st.current(s)
			}
			st.addData(c)
			st.msg = st.keepAfterFinish(s)
		}
		return true
	}
	return false
}

// uiResetStep takes back what the current step added (v7's reset-step):
// its parts leave the message, and the items are rebuilt from the
// conversation so that what they showed goes too. The agent keeps running.
func (s *Store) uiResetStep(st *uiState) {
	st.flushAll()
	if st.msg < 0 || st.msg >= len(st.conv.Messages) {
		return
	}
	m := &st.conv.Messages[st.msg]
	start := 0
	for i := len(m.Parts) - 1; i >= 0; i-- {
		if m.Parts[i].Type == "step-start" {
			start = i + 1
			break
		}
	}
	if start == len(m.Parts) {
		return
	}
	m.Parts = m.Parts[:start]
	conv, msg := st.conv, st.msg
	s.restoreUI(conv) // the sources panel too comes from the parts
	st = &s.dialectState().ui
	st.msg = msg
	s.setStatus(StatusRunning)
	if g := s.lastGroup(); g != nil && s.group == nil && g == s.items[len(s.items)-1] {
		g.Group.Open = true // the step goes on in its group
		s.group = g
	}
}

// lastGroup is the last top-level group, or nil.
func (s *Store) lastGroup() *Item {
	for i := len(s.items) - 1; i >= 0; i-- {
		if s.items[i].Kind == KindGroup {
			return s.items[i]
		}
	}
	return nil
}

// uiTool shows a tool call (a step of the group), or updates the one with
// that id.
func (s *Store) uiTool(id, name string, input json.RawMessage, title string) {
	if s.status != StatusRunning {
		s.beginRun()
	}
	if clientToolKind(name) != "" || s.hidden[id] {
		// A client tool's card stands for it (client_tools.go).
		s.hidden[id] = true
		return
	}
	if s.tools[id] == nil && !displayAsContent[name] && s.group == nil {
		s.openGroup("")
	}
	s.toolUse(id, name, input, title, "")
}

// uiToolOutput merges a tool's output; a preliminary one updates the
// result and keeps the tool running.
func (s *Store) uiToolOutput(id, text string, output json.RawMessage, preliminary bool) {
	if !preliminary {
		if s.tools[id] == nil && !s.hidden[id] && s.group == nil {
			s.openGroup("")
		}
		if it := s.tools[id]; it != nil {
			it.Tool.Progress = "" // the final output replaces the progress
		}
		s.withImages(s.toolResult(id, "", "success", text, nil, ""), output)
		return
	}
	it := s.tools[id]
	if it == nil {
		s.uiTool(id, "", nil, "")
		it = s.tools[id]
		if it == nil {
			return
		}
	}
	it.Tool.Result = &text
	it.Tool.Progress = progressLine(output)
	s.touch(it)
}

// progressLine is what a preliminary output says, as one line: a string,
// or an object's text, message, status or title; "" when it says nothing
// readable (its JSON still shows as the response).
func progressLine(raw json.RawMessage) string {
	text, ok := wire.StringValue(raw)
	if !ok {
		var o map[string]json.RawMessage
		if json.Unmarshal(raw, &o) != nil {
			return ""
		}
		for _, k := range []string{"text", "message", "status", "title"} {
			if v, ok := wire.StringValue(o[k]); ok && strings.TrimSpace(v) != "" {
				text = v
				break
			}
		}
	}
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > 200 {
		text = string(r[:199]) + "…"
	}
	return text
}

// uiToolDenied ends a tool the user refused to run.
func (s *Store) uiToolDenied(id string) {
	it := s.tools[id]
	if it == nil {
		if s.hidden[id] {
			return
		}
		s.uiTool(id, "", nil, "")
		it = s.tools[id]
	}
	t := it.Tool
	t.Denied, t.hasResult, t.awaitingKey = true, true, ""
	denied := "Denied"
	t.Result = &denied
	s.setToolStatus(it, ToolError)
}

// uiApprovalCard shows an approval under its tool: approve, or reject with
// an optional reason.
func (s *Store) uiApprovalCard(key string, tool *Item, automatic bool) {
	if s.approvals[key] != nil {
		return
	}
	it := s.newItem(KindApproval)
	card := &ApprovalCard{ApprovalKey: key, State: ApprovalPending, TimeoutSeconds: DefaultTimeoutSeconds, Automatic: automatic}
	card.Actions = []ApprovalAction{{Name: tool.Tool.Name, Args: tool.Tool.Input, Allowed: []string{"approve", "reject"}}}
	card.tools = []*Item{tool}
	it.Approval = card
	s.approvals[key] = it
	if !automatic {
		// An automatic one is the route's policy deciding: its
		// tool-approval-response follows, the user has nothing to answer.
		if !tool.Tool.hasResult {
			tool.Tool.awaitingKey = key
			s.setToolStatus(tool, ToolAwaiting)
		}
		s.pending = append(s.pending, it)
		s.changes.Pending = true
	}
	s.placeApproval(it)
}

// addMessageSource adds a cited URL to its message's group of the sources
// panel.
func (s *Store) addMessageSource(msgID, rawURL, title string) {
	key := "message:" + msgID
	src := Source{URL: rawURL, Title: title}
	if u, err := url.Parse(rawURL); err == nil {
		src.Domain = u.Hostname()
	}
	if src.Title == "" {
		src.Title = src.Domain
	}
	if s.opts.FaviconService != "" && src.Domain != "" {
		src.Favicon = strings.ReplaceAll(s.opts.FaviconService, "{domain}", url.QueryEscape(src.Domain))
	}
	i, ok := s.sourcesByTool[key]
	if !ok {
		i = len(s.sources)
		s.sourcesByTool[key] = i
		s.sources = append(s.sources, SourceGroup{Query: SourcesQuery, Sources: []Source{}})
	}
	for _, have := range s.sources[i].Sources {
		if have.URL == rawURL {
			return
		}
	}
	s.sources[i].Sources = append(s.sources[i].Sources, src)
	s.changes.Sources = true
}

// hasRedactedData reports providerMetadata.*.redactedData: reasoning the
// provider encrypted.
func hasRedactedData(meta json.RawMessage) bool {
	if wire.IsNull(meta) {
		return false
	}
	var m map[string]map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return false
	}
	for _, inner := range m {
		if !wire.IsNull(inner["redactedData"]) {
			return true
		}
	}
	return false
}

func rawOrNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// setToolPartCommon copies what every tool chunk may update on its part.
func setToolPartCommon(p *wire.UIPart, c *wire.UIChunk) {
	if c.Title != "" {
		p.Title = c.Title
	}
	if c.ToolMetadata != nil {
		p.ToolMetadata = c.ToolMetadata
	}
	if c.ProviderExecuted != nil {
		p.ProviderExecuted = c.ProviderExecuted
	}
}

// afterFinish points the stream back at the message the response's finish
// ended, for a chunk that adds nothing to show (message metadata, a data
// part) arriving after it: the SDK's processUIMessageStream keeps writing
// that message, and the run stays over. It reports whether it did; the
// caller then restores st.msg with keepAfterFinish.
func (st *uiState) afterFinish(s *Store) bool {
	if st.msg >= 0 || st.finished == "" || s.status == StatusRunning {
		return false
	}
	for i := len(st.conv.Messages) - 1; i >= 0; i-- {
		if st.conv.Messages[i].ID == st.finished {
			st.msg = i
			return true
		}
	}
	return false
}

// keepAfterFinish is st.msg once a chunk is applied: -1 again when the
// response had finished (the next chunk of content starts a new message).
func (st *uiState) keepAfterFinish(s *Store) int {
	if st.finished != "" && s.status != StatusRunning {
		return -1
	}
	return st.msg
}
