package state

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// AG-UI events as items (BACKENDS.md section 2). While it applies them the
// store also keeps the conversation in AG-UI's own message format
// (agui_conversation.go), as @ag-ui/client builds it from the same events.

// aguiState is what the AG-UI dialect keeps between events.
type aguiState struct {
	conv AGUIConversation
	// content of the messages being streamed, by message id: kept apart
	// from the messages so a delta costs its own length, not the text's.
	content map[string]*strings.Builder
	args    map[string]*[]byte // arguments of each tool call, by call id

	texts     map[string]*streamText // text items being streamed, by message id
	reasoning map[string]*streamText
	// reasoningEnded are this run's reasoning items whose message ended: a
	// message that starts again (the reference client appends to it)
	// continues its item while that is still in the open group.
	reasoningEnded map[string]*streamText
	// thinkingID is the reasoning message the deprecated
	// THINKING_TEXT_MESSAGE_* events write ("" outside one).
	thinkingID string

	// The *_CHUNK shorthands continue the message or call they last named
	// until another event type arrives.
	chunkText, chunkReasoning, chunkTool string

	runID         string
	runInterrupts int      // on_interrupt events of this run
	runLegacy     []string // the keys of this run's on_interrupt cards
	runFailed     bool     // RUN_ERROR ended this run: nothing after it changes how
	// clientCalls are this run's calls to client tools (client_tools.go).
	clientCalls []string

	// Sub-agents (agui_subagents.go): the invocations by id; nesting > 0
	// while an event of one applies; childRun is the run under
	// parentRunId being streamed, reopened the parent group it reopened;
	// runGroups the last group of each run, runStartKey the item key a
	// run started at.
	subagents   map[string]*aguiSubagent
	nesting     int
	childRun    string
	reopened    *Item
	runGroups   map[string]*Item
	runStartKey int
}

func (st *aguiState) init() {
	st.content = map[string]*strings.Builder{}
	st.args = map[string]*[]byte{}
	st.texts = map[string]*streamText{}
	st.reasoning = map[string]*streamText{}
	st.reasoningEnded = map[string]*streamText{}
	st.subagents = map[string]*aguiSubagent{}
	st.runGroups = map[string]*Item{}
}

// applyAGUI applies one AG-UI event frame; false when it is not valid.
func (s *Store) applyAGUI(frame []byte) bool {
	ev, err := wire.DecodeAGUIEvent(frame)
	if err != nil {
		return false
	}
	return s.applyAGUIEvent(&ev)
}

// deltaText reads a string delta; ok is false when there is none.
func deltaText(raw json.RawMessage) (string, bool) {
	return wire.StringValue(raw)
}

func (s *Store) applyAGUIEvent(ev *wire.AGUIEvent) bool {
	st := &s.dialectState().agui
	if sub := s.aguiSubagentFor(st, ev); sub != nil {
		return s.inSubagent(st, sub, ev, func() bool { return s.applyAGUIOwn(st, ev) })
	}
	return s.applyAGUIOwn(st, ev)
}

func (s *Store) applyAGUIOwn(st *aguiState, ev *wire.AGUIEvent) bool {
	// A message streamed as chunks ends where the reference client's
	// transformChunks closes it: at the next event of another kind (RAW,
	// activities and encrypted values pass it by).
	switch ev.Type {
	case "RAW", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE":
	default:
		if ev.Type != "TEXT_MESSAGE_CHUNK" && st.chunkText != "" {
			delete(st.texts, st.chunkText)
			st.chunkText = ""
		}
		if ev.Type != "REASONING_MESSAGE_CHUNK" && st.chunkReasoning != "" {
			if t := st.reasoning[st.chunkReasoning]; t != nil {
				st.reasoningEnded[st.chunkReasoning] = t
				delete(st.reasoning, st.chunkReasoning)
			}
			st.chunkReasoning = ""
		}
	}
	if ev.Type != "TOOL_CALL_CHUNK" {
		if st.chunkTool != "" {
			s.aguiToolEnd(st, st.chunkTool)
		}
		st.chunkTool = ""
	}
	switch ev.Type {
	case "RUN_STARTED":
		s.beginRun()
		if s.turn == nil {
			s.startTurn() // its usage shows at its end
		}
		child := ev.ParentRunID != "" && ev.RunID != "" && (ev.ParentRunID == st.runID || st.runGroups[ev.ParentRunID] != nil)
		if ev.RunID != "" {
			st.runID = ev.RunID
		}
		st.runStartKey = s.nextKey
		if child {
			s.aguiChildRun(st, ev)
		}
		st.runInterrupts = 0
		st.runLegacy = st.runLegacy[:0]
		st.runFailed = false
		st.clientCalls = nil
		if st.conv.ThreadID == "" {
			st.conv.ThreadID = ev.ThreadID
		}
		return true
	case "RUN_FINISHED":
		if st.runFailed {
			// RUN_ERROR already ended the run (the reference client
			// rejects anything after it): it stays failed.
			return true
		}
		s.aguiCloseStreams(st)
		s.runUsage(wire.AGUIUsageOf(ev.Usage))
		s.noteRunGroup(st)
		s.aguiEndChildRun(st)
		if ev.Outcome == nil || ev.Outcome.Type != "cancelled" {
			s.aguiOpenClientCalls(st) // they wait for the user's answer
		}
		if ev.Outcome != nil {
			switch ev.Outcome.Type {
			case "interrupt":
				shown := make([]bool, len(ev.Outcome.Interrupts))
				for i, in := range ev.Outcome.Interrupts {
					shown[i] = s.aguiSameAsLegacy(st, in) // already shown from on_interrupt
				}
				// Tool approvals first: their group stays open for them, and
				// the forms that stand alone then follow it.
				for _, toolFirst := range []bool{true, false} {
					for i, in := range ev.Outcome.Interrupts {
						if !shown[i] && (in.Reason == "tool_call" && in.ToolCallID != "") == toolFirst {
							s.aguiOpenInterrupt(st, OpenInterrupt{AGUIInterrupt: in})
						}
					}
				}
			case "cancelled":
				s.terminal(s.newItem(KindStopped), StatusStopped)
				return true
			}
		}
		s.endDialectRun(StatusIdle)
		if len(s.pending) == 0 {
			s.endTurn() // else the turn goes on when the cards are answered
		}
		return true
	case "RUN_ERROR":
		st.runFailed = true
		s.aguiCloseStreams(st)
		s.aguiEndChildRun(st)
		s.runUsage(wire.AGUIUsageOf(ev.Usage))
		text, _ := wire.StringValue(ev.Message)
		if text == "" {
			text, _ = wire.StringValue(ev.Code)
		}
		s.failRun(text)
		return true

	case "TEXT_MESSAGE_START":
		if ev.MessageID == "" {
			return false
		}
		s.aguiTextStart(st, ev.MessageID, ev.Role)
		return true
	case "TEXT_MESSAGE_CONTENT":
		delta, ok := deltaText(ev.Delta)
		if !ok || st.texts[ev.MessageID] == nil && st.content[ev.MessageID] == nil {
			return false
		}
		s.aguiTextAppend(st, ev.MessageID, delta)
		return true
	case "TEXT_MESSAGE_END":
		if st.texts[ev.MessageID] == nil && st.content[ev.MessageID] == nil {
			return false
		}
		delete(st.texts, ev.MessageID)
		return true
	case "TEXT_MESSAGE_CHUNK":
		id := ev.MessageID
		if id == "" {
			id = st.chunkText
		}
		if id == "" {
			return false
		}
		if id != st.chunkText {
			if st.chunkText != "" {
				delete(st.texts, st.chunkText) // another message's chunk ends it
			}
			s.aguiTextStart(st, id, ev.Role)
			st.chunkText = id
		}
		if delta, ok := deltaText(ev.Delta); ok {
			s.aguiTextAppend(st, id, delta)
		}
		return true

	case "REASONING_START", "REASONING_END", "THINKING_START", "THINKING_END":
		return true
	case "REASONING_MESSAGE_START":
		if ev.MessageID == "" {
			return false
		}
		s.aguiReasoningStart(st, ev.MessageID)
		return true
	case "REASONING_MESSAGE_CONTENT":
		delta, ok := deltaText(ev.Delta)
		if !ok || st.reasoning[ev.MessageID] == nil {
			return false
		}
		s.aguiReasoningAppend(st, ev.MessageID, delta)
		return true
	case "REASONING_MESSAGE_END":
		t := st.reasoning[ev.MessageID]
		if t == nil {
			return st.reasoningEnded[ev.MessageID] != nil // already closed by its chunks
		}
		delete(st.reasoning, ev.MessageID)
		st.reasoningEnded[ev.MessageID] = t
		return true
	case "REASONING_MESSAGE_CHUNK":
		id := ev.MessageID
		if id == "" {
			id = st.chunkReasoning
		}
		if id == "" {
			return false
		}
		if id != st.chunkReasoning {
			if t := st.reasoning[st.chunkReasoning]; t != nil {
				st.reasoningEnded[st.chunkReasoning] = t // another message's chunk ends it
				delete(st.reasoning, st.chunkReasoning)
			}
			s.aguiReasoningStart(st, id)
			st.chunkReasoning = id
		}
		if delta, ok := deltaText(ev.Delta); ok {
			s.aguiReasoningAppend(st, id, delta)
		}
		return true
	case "REASONING_ENCRYPTED_VALUE":
		if ev.EntityID == "" {
			return false
		}
		s.aguiEncrypted(st, ev)
		return true
	case "THINKING_TEXT_MESSAGE_START":
		// As @ag-ui/client's compatibility layer does: a reasoning
		// message (of an id made here), kept with the conversation and
		// sent back with it.
		st.thinkingID = st.conv.newThinkingID()
		s.aguiReasoningStart(st, st.thinkingID)
		return true
	case "THINKING_TEXT_MESSAGE_CONTENT":
		delta, ok := deltaText(ev.Delta)
		if !ok || st.thinkingID == "" || st.reasoning[st.thinkingID] == nil {
			return false
		}
		s.aguiReasoningAppend(st, st.thinkingID, delta)
		return true
	case "THINKING_TEXT_MESSAGE_END":
		if st.thinkingID == "" {
			return false
		}
		delete(st.reasoning, st.thinkingID)
		st.thinkingID = ""
		return true

	case "TOOL_CALL_START":
		if ev.ToolCallID == "" || ev.ToolCallName == "" {
			return false
		}
		s.aguiToolStart(st, ev.ToolCallID, ev.ToolCallName, ev.ParentMessageID)
		return true
	case "TOOL_CALL_ARGS":
		delta, ok := deltaText(ev.Delta)
		if !ok || st.args[ev.ToolCallID] == nil {
			return false
		}
		*st.args[ev.ToolCallID] = append(*st.args[ev.ToolCallID], delta...)
		return true
	case "TOOL_CALL_END":
		if st.args[ev.ToolCallID] == nil {
			return false
		}
		s.aguiToolEnd(st, ev.ToolCallID)
		return true
	case "TOOL_CALL_CHUNK":
		id := ev.ToolCallID
		if id == "" {
			id = st.chunkTool
		}
		if id == "" {
			return false
		}
		if st.args[id] == nil {
			if ev.ToolCallName == "" {
				return false
			}
			s.aguiToolStart(st, id, ev.ToolCallName, ev.ParentMessageID)
		}
		st.chunkTool = id
		if delta, ok := deltaText(ev.Delta); ok {
			*st.args[id] = append(*st.args[id], delta...)
			// No END comes for chunks: show the request as it grows.
			if it := s.tools[id]; it != nil {
				if in := toolInput(*st.args[id]); in != nil {
					it.Tool.Input = in
					s.touch(it)
				}
			}
		}
		return true
	case "TOOL_CALL_RESULT":
		if ev.ToolCallID == "" {
			return false
		}
		s.aguiToolResult(st, ev)
		return true

	case "STEP_STARTED", "STEP_FINISHED", "RAW":
		return true
	case "SUBAGENT_STARTED":
		if ev.SubagentRunID == "" {
			return false
		}
		s.aguiStartSubagent(st, ev.SubagentRunID, Subagent{Name: ev.Name, Description: ev.Description}, ev.ParentToolCallID, ev.ParentSubagentRunID)
		return true
	case "SUBAGENT_FINISHED":
		s.aguiEndSubagent(st, ev.SubagentRunID, false)
		return true
	case "SUBAGENT_ERROR":
		text, _ := wire.StringValue(ev.Message)
		if sub := st.subagents[ev.SubagentRunID]; sub != nil {
			// The sub-agent failed; the run may go on: the error is its.
			saved := s.group
			s.group = sub.group
			it := s.newItem(KindError)
			it.Text = text
			s.place(it)
			s.group = saved
			s.aguiEndSubagent(st, ev.SubagentRunID, true)
			return true
		}
		s.addError(text, "")
		return true
	case "STATE_SNAPSHOT":
		if ev.Snapshot != nil {
			st.conv.State = append(json.RawMessage(nil), ev.Snapshot...)
		}
		return true
	case "STATE_DELTA":
		if len(st.conv.State) > 0 && !wire.IsNull(ev.Delta) {
			if doc, err := applyJSONPatch(st.conv.State, ev.Delta); err == nil {
				st.conv.State = doc
			}
		}
		return true
	case "MESSAGES_SNAPSHOT":
		var msgs []wire.AGUIMessage
		if wire.IsNull(ev.Messages) || json.Unmarshal(ev.Messages, &msgs) != nil {
			return false
		}
		s.aguiSnapshot(st, msgs)
		return true
	case "ACTIVITY_SNAPSHOT":
		if ev.MessageID == "" || wire.IsNull(ev.Content) {
			return false
		}
		s.aguiActivity(st, ev.MessageID, ev.ActivityType, ev.Content, ev.Replace == nil || *ev.Replace)
		return true
	case "ACTIVITY_DELTA":
		m := st.conv.find(ev.MessageID)
		if m == nil || m.Role != "activity" || wire.IsNull(ev.Patch) {
			return false
		}
		doc, err := applyJSONPatch(m.Content, ev.Patch)
		if err != nil {
			return true // a patch that does not apply changes nothing
		}
		s.aguiActivity(st, ev.MessageID, m.ActivityType, doc, true)
		return true
	case "CUSTOM":
		if ev.Name == "on_interrupt" {
			s.aguiLegacyInterrupt(st, ev.Value)
		}
		return true
	}
	return false
}

// aguiTextStart starts (or continues) the assistant text of a message. A
// message that comes back after tool calls (LangGraph keeps one message id
// per node) starts a new text item, so the answer reads in order.
func (s *Store) aguiTextStart(st *aguiState, id, role string) {
	if role == "user" && st.texts[id] == nil {
		if m := st.conv.find(id); m == nil || m.Role != "user" {
			// A user message the agent relays (one the user sent from
			// elsewhere, say): shown as the user's, where it came. One
			// this page sent, echoed back, is not shown twice.
			st.conv.add(wire.AGUIMessage{ID: id, Role: "user"})
			it := s.newItem(KindUser)
			s.standalone(it)
			st.texts[id] = &streamText{item: it}
		}
		st.builderFor(id)
		return
	}
	if role != "" && role != "assistant" {
		// Another role's text is part of the conversation, not the answer.
		if st.conv.find(id) == nil {
			st.conv.add(wire.AGUIMessage{ID: id, Role: role})
		}
		st.builderFor(id)
		return
	}
	if s.status != StatusRunning {
		s.beginRun()
	}
	if st.texts[id] == nil {
		// A message that starts (again) after its end starts a new item
		// where it is now: an answer that comes back after tool calls
		// reads below them. One still open continues its own item.
		st.texts[id] = s.newStreamText()
	}
	if st.conv.find(id) == nil {
		st.conv.add(wire.AGUIMessage{ID: id, Role: "assistant"})
	}
	st.builderFor(id)
}

func (s *Store) aguiTextAppend(st *aguiState, id, delta string) {
	if b := st.content[id]; b != nil {
		growText(b, delta) // the conversation keeps what the page shows
	}
	t := st.texts[id]
	if t == nil {
		return // a non-assistant role
	}
	// Content belongs to its message, wherever its item is (messages
	// stream side by side), as the reference client applies it.
	t.append(s, delta)
}

func (s *Store) aguiReasoningStart(st *aguiState, id string) {
	if s.status != StatusRunning {
		s.beginRun()
	}
	if st.reasoning[id] != nil {
		return // still open: a chunk or a second start continues it
	}
	if t := st.reasoningEnded[id]; t != nil && s.group != nil && t.item.parent == s.group {
		delete(st.reasoningEnded, id)
		st.reasoning[id] = t
		return
	}
	st.reasoning[id] = s.newStreamThinking()
	if st.conv.find(id) == nil {
		st.conv.add(wire.AGUIMessage{ID: id, Role: "reasoning"})
	}
	st.builderFor(id)
}

func (s *Store) aguiReasoningAppend(st *aguiState, id, delta string) {
	st.reasoning[id].append(s, delta)
	if b := st.content[id]; b != nil {
		growText(b, delta)
	}
}

// aguiEncrypted keeps an encrypted reasoning value with its message or
// call; reasoning that is only encrypted shows as hidden.
func (s *Store) aguiEncrypted(st *aguiState, ev *wire.AGUIEvent) {
	value := ev.EncryptedValue
	if ev.Subtype == "tool-call" {
		st.conv.setCallEncrypted(ev.EntityID, value)
		return
	}
	m := st.conv.find(ev.EntityID)
	if m == nil {
		st.conv.add(wire.AGUIMessage{ID: ev.EntityID, Role: "reasoning", Content: json.RawMessage(`""`)})
		m = st.conv.find(ev.EntityID)
		t := s.newStreamThinking()
		st.reasoning[ev.EntityID] = t
	}
	m.EncryptedValue = value
	if t := st.reasoning[ev.EntityID]; t != nil && t.item.Text == "" {
		t.item.Redacted = true
		s.touch(t.item)
	}
}

func (s *Store) aguiToolStart(st *aguiState, id, name, parentID string) {
	if s.status != StatusRunning {
		s.beginRun()
	}
	empty := []byte(nil)
	st.args[id] = &empty
	st.conv.addToolCall(parentID, wire.AGUIToolCall{ID: id, Type: "function", Function: wire.AGUIFunctionCall{Name: name}})
	if clientToolKind(name) != "" {
		// Its card stands for it once the run ends without a result.
		s.hidden[id] = true
		st.noteClientCall(id)
		return
	}
	if displayAsContent[name] {
		s.hidden[id] = true
		return
	}
	if s.tools[id] == nil && s.group == nil {
		s.openGroup("")
	}
	if it := s.toolUse(id, name, nil, "", ""); it != nil {
		it.Tool.InputStreaming = true
	}
}

// aguiToolEnd parses a call's arguments into its request.
func (s *Store) aguiToolEnd(st *aguiState, id string) {
	args := st.args[id]
	if args == nil {
		return
	}
	if it := s.tools[id]; it != nil {
		it.Tool.InputStreaming = false
		s.touch(it)
	}
	if it := s.tools[id]; it != nil && len(*args) > 0 {
		if in := toolInput(*args); in != nil {
			it.Tool.Input = in
			s.touch(it)
		}
	}
}

func (s *Store) aguiToolResult(st *aguiState, ev *wire.AGUIEvent) {
	text, _ := wire.ContentText(ev.Content)
	status := "success"
	errText, isErrString := wire.StringValue(ev.Error)
	if (isErrString && errText != "") || (!isErrString && !wire.IsNull(ev.Error) && string(ev.Error) != "false") {
		status = "error"
		if text == "" {
			text = errText
		}
	}
	if s.tools[ev.ToolCallID] == nil && !s.hidden[ev.ToolCallID] && s.group == nil {
		// A result for a call never shown: a step where it arrived.
		s.openGroup("")
	}
	s.withImages(s.toolResult(ev.ToolCallID, "", status, text, nil, ""), ev.Content)
	id := ev.MessageID
	if id == "" {
		id = "result-" + ev.ToolCallID // Apply stays deterministic
	}
	content := ev.Content
	if wire.IsNull(content) {
		content = json.RawMessage(`""`)
	}
	msg := wire.AGUIMessage{ID: id, Role: "tool", ToolCallID: ev.ToolCallID, Content: append(json.RawMessage(nil), content...)}
	if status == "error" {
		msg.Error = errText
		if msg.Error == "" {
			msg.Error = text
		}
	}
	st.conv.addToolResult(msg)
}

// addToolResult adds a tool message where the reference client puts it:
// right after the assistant message that holds its call (after the tool
// messages already there), so that the call and its result stay together
// when other messages came between; at the end when no message holds it.
func (c *AGUIConversation) addToolResult(m wire.AGUIMessage) {
	at := -1
	for i := range c.Messages {
		if c.Messages[i].Role != "assistant" {
			continue
		}
		for _, tc := range c.Messages[i].ToolCalls {
			if tc.ID == m.ToolCallID {
				at = i
			}
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		c.add(m)
		return
	}
	if m.SubagentRunID == "" {
		m.SubagentRunID = c.subagent
	}
	at++
	for at < len(c.Messages) && c.Messages[at].Role == "tool" {
		at++
	}
	// By hand: slices.Insert on this large struct costs the wasm a few KB.
	c.Messages = append(c.Messages, wire.AGUIMessage{})
	copy(c.Messages[at+1:], c.Messages[at:])
	c.Messages[at] = m
}

// aguiActivity shows an activity message's content: one item per message,
// updated by later snapshots and deltas.
func (s *Store) aguiActivity(st *aguiState, id, activityType string, content json.RawMessage, replace bool) {
	m := st.conv.find(id)
	if m != nil && !replace {
		return
	}
	if m == nil {
		st.conv.add(wire.AGUIMessage{ID: id, Role: "activity", ActivityType: activityType})
		m = st.conv.find(id)
	}
	m.Content = append(json.RawMessage(nil), content...)
	if activityType != "" {
		m.ActivityType = activityType
	}
	if m.ActivityType == MCPAppsActivityType && s.aguiMCPApp(id, content) {
		return // shown as its tool's app (mcpapp.go)
	}
	text := IndentJSON(content)
	summary, progress := activityLive(content)
	if it := st.activityItem(s, id); it != nil {
		it.Text = text
		it.Activity.Summary, it.Activity.Progress = summary, progress
		s.touch(it)
		return
	}
	if s.status != StatusRunning {
		s.beginRun()
	}
	a := wire.Activity{ActivityType: m.ActivityType}
	name, icon := activityDisplay(&a)
	it := s.newItem(KindActivity)
	it.Activity = &ActivityInfo{Type: m.ActivityType, Name: name, Icon: icon, Summary: summary, Progress: progress}
	it.Text = text
	it.titleLabel = name
	it.BlockType = "agui:" + id // finds the item again; BlockType is unused for activities
	s.placeStep(it)
}

// activityItem finds the activity item of a message id.
func (st *aguiState) activityItem(s *Store, id string) *Item {
	key := "agui:" + id
	var found *Item
	visit := func(it *Item) {
		if it.Kind == KindActivity && it.BlockType == key {
			found = it
		}
	}
	var walk func(items []*Item)
	walk = func(items []*Item) {
		for _, it := range items {
			visit(it)
			if it.Group != nil {
				walk(it.Group.Steps) // sub-agents' groups nest
			}
		}
	}
	walk(s.items)
	return found
}

// aguiCloseStreams forgets the messages being streamed: the run is over.
func (s *Store) aguiCloseStreams(st *aguiState) {
	s.aguiCloseSubagents(st)
	st.flush()
	clear(st.texts)
	clear(st.reasoning)
	clear(st.reasoningEnded)
	st.thinkingID = ""
}

// aguiOpenInterrupt shows an interrupt and keeps it open until answered. An
// interrupt already shown (an agent presents an unanswered one again) is
// not shown twice.
func (s *Store) aguiOpenInterrupt(st *aguiState, in OpenInterrupt) {
	for i := range st.conv.Interrupts {
		if st.conv.Interrupts[i].ID == in.ID {
			if st.conv.Interrupts[i].Status == "" && s.approvals[in.ID] != nil {
				return
			}
			st.conv.Interrupts = append(st.conv.Interrupts[:i], st.conv.Interrupts[i+1:]...)
			break
		}
	}
	if in.ID == "" {
		in.ID = "interrupt-" + strconv.Itoa(len(st.conv.Interrupts)+1) + "-" + st.runID
	}
	st.flush()
	in.At = len(st.conv.Messages)
	s.showInterrupt(&in)
	st.conv.Interrupts = append(st.conv.Interrupts, in)
}

// showInterrupt makes an interrupt's card: an approval under its tool for a
// tool call, else a form from its response schema, else a notice that it
// cannot be answered here (it is then cancelled with the next run).
func (s *Store) showInterrupt(in *OpenInterrupt) {
	if old := s.approvals[in.ID]; old != nil {
		return
	}
	if in.Legacy != nil {
		s.showLegacyInterrupt(in)
		return
	}
	if in.ClientTool != nil {
		s.showClientTool(in.ID, in.ClientTool.Name, in.ClientTool.Input, in.ExpiresAt)
		return
	}
	if in.Reason == "tool_call" && in.ToolCallID != "" {
		s.showToolInterrupt(in)
		return
	}
	fields, free, ok := formFieldsOf(in.ResponseSchema)
	if !ok {
		in.Unsupported = true
		s.addNotice(NoticeUnsupportedInterrupt, in.Message)
		return
	}
	it := s.newFormItem(in.ID, in.Message, fields, free, in.ExpiresAt)
	s.placeForTool(it, in.ToolCallID)
}

// placeForTool puts a card after the tool it concerns, in its group; a card
// for no known tool stands alone, like a question.
func (s *Store) placeForTool(it *Item, toolCallID string) {
	t := s.tools[toolCallID]
	if toolCallID == "" || t == nil {
		s.standaloneCard(it)
		return
	}
	if t.parent == nil {
		s.items = insertAfter(s.items, t, it)
		s.changes.List = true
		s.touch(it)
		return
	}
	it.parent = t.parent
	t.parent.Group.Steps = insertAfter(t.parent.Group.Steps, t, it)
	s.touch(it)
}

// showToolInterrupt is a tool approval card: approve or reject, and edit
// when the response schema takes editedArgs.
func (s *Store) showToolInterrupt(in *OpenInterrupt) {
	allowed := []string{"approve", "reject"}
	var sc formSchema
	if json.Unmarshal(in.ResponseSchema, &sc) == nil && !wire.IsNull(sc.Properties) {
		names, _, _ := orderedProperties(sc.Properties)
		for _, n := range names {
			if n == "editedArgs" {
				allowed = []string{"approve", "edit", "reject"}
			}
		}
	}
	it := s.newItem(KindApproval)
	card := &ApprovalCard{ApprovalKey: in.ID, State: ApprovalPending, TimeoutSeconds: DefaultTimeoutSeconds, Text: in.Message, ExpiresAt: in.ExpiresAt}
	action := ApprovalAction{Name: "tool", Args: emptyObject, Allowed: allowed}
	tool := s.tools[in.ToolCallID]
	if tool != nil {
		action.Name, action.Args = tool.Tool.Name, tool.Tool.Input
		if !tool.Tool.hasResult {
			tool.Tool.awaitingKey = in.ID
			s.setToolStatus(tool, ToolAwaiting)
		}
	}
	card.Actions = []ApprovalAction{action}
	card.tools = []*Item{tool}
	it.Approval = card
	s.approvals[in.ID] = it
	s.pending = append(s.pending, it)
	s.changes.Pending = true
	s.placeApproval(it)
}

// legacyValue is the value of LangGraph's on_interrupt event: its
// human-in-the-loop middleware's request, in either spelling.
type legacyValue struct {
	ActionRequests      []wire.ActionRequest `json:"action_requests"`
	ActionRequestsCamel []wire.ActionRequest `json:"actionRequests"`
	ReviewConfigs       []legacyReviewConfig `json:"review_configs"`
	ReviewConfigsCamel  []legacyReviewConfig `json:"reviewConfigs"`
	Message             string               `json:"message"`
	Question            string               `json:"question"`
	Prompt              string               `json:"prompt"`
}

type legacyReviewConfig struct {
	ActionName            string   `json:"action_name"`
	ActionNameCamel       string   `json:"actionName"`
	AllowedDecisions      []string `json:"allowed_decisions"`
	AllowedDecisionsCamel []string `json:"allowedDecisions"`
}

// legacyObject reads an on_interrupt value: an object, or (as the
// LangGraph integration sends it) a JSON string holding one. text is the
// plain question when the value is just a string.
func legacyObject(raw json.RawMessage) (v legacyValue, isObject bool, text string) {
	if s, ok := wire.StringValue(raw); ok {
		inner := []byte(strings.TrimSpace(s))
		if len(inner) > 0 && inner[0] == '{' && json.Unmarshal(inner, &v) == nil {
			return v, true, ""
		}
		var str string
		if json.Unmarshal(inner, &str) == nil {
			return v, false, str
		}
		return v, false, s
	}
	if json.Unmarshal(raw, &v) == nil && len(raw) > 0 && raw[0] == '{' {
		return v, true, ""
	}
	return v, false, IndentJSON(raw)
}

// aguiLegacyInterrupt handles LangGraph's CUSTOM on_interrupt event: a
// human-in-the-loop request becomes an approval or question exactly as
// PROTOCOL.md's, keyed by the run's id; any other value a one-field form.
func (s *Store) aguiLegacyInterrupt(st *aguiState, value json.RawMessage) {
	if wire.IsNull(value) {
		value = json.RawMessage(`""`)
	}
	st.runInterrupts++
	key := st.runID
	if key == "" {
		key = "run"
	}
	if st.runInterrupts > 1 {
		key += "-" + strconv.Itoa(st.runInterrupts)
	}
	s.aguiOpenInterrupt(st, OpenInterrupt{AGUIInterrupt: wire.AGUIInterrupt{ID: key, Reason: "on_interrupt"}, Legacy: append(json.RawMessage(nil), value...)})
	st.runLegacy = append(st.runLegacy, key)
}

// aguiSameAsLegacy reports whether an interrupt of RUN_FINISHED's outcome
// is one this run already showed from LangGraph's on_interrupt event (the
// integration sends both when its emitInterruptOutcome option is on): its
// metadata.langgraph.raw is the on_interrupt value. That card stays the
// only one; the outcome's id is kept on it, so the answer goes out under
// both (aguiRunInput), and the outcome entry is marked as seen, so each
// legacy card matches one interrupt only.
func (s *Store) aguiSameAsLegacy(st *aguiState, in wire.AGUIInterrupt) bool {
	var meta struct {
		LangGraph *struct {
			Raw json.RawMessage `json:"raw"`
		} `json:"langgraph"`
	}
	if wire.IsNull(in.Metadata) || json.Unmarshal(in.Metadata, &meta) != nil || meta.LangGraph == nil {
		return false
	}
	raw, err := decodeJSON(meta.LangGraph.Raw)
	if err != nil {
		return false
	}
	for _, key := range st.runLegacy {
		for i := range st.conv.Interrupts {
			oi := &st.conv.Interrupts[i]
			if oi.ID != key || oi.ResumeID != "" || oi.Status != "" {
				continue
			}
			if v, err := decodeJSON(legacyInner(oi.Legacy)); err == nil && reflect.DeepEqual(v, raw) {
				oi.ResumeID = in.ID
				return true
			}
		}
	}
	return false
}

// legacyInner is an on_interrupt value as LangGraph's interrupt() got it:
// the integrations send an object JSON-encoded in a string, and a string
// as is.
func legacyInner(raw json.RawMessage) json.RawMessage {
	if str, ok := wire.StringValue(raw); ok {
		t := strings.TrimSpace(str)
		if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
			return json.RawMessage(t)
		}
		b, _ := json.Marshal(str)
		return b
	}
	return raw
}

func (s *Store) showLegacyInterrupt(in *OpenInterrupt) {
	v, isObject, text := legacyObject(in.Legacy)
	actions := firstNonEmpty(v.ActionRequests, v.ActionRequestsCamel)
	if isObject && len(actions) > 0 {
		var configs []wire.ReviewConfig
		for _, c := range append(v.ReviewConfigs, v.ReviewConfigsCamel...) {
			rc := wire.ReviewConfig{ActionName: c.ActionName, AllowedDecisions: c.AllowedDecisions}
			if rc.ActionName == "" {
				rc.ActionName = c.ActionNameCamel
			}
			if len(rc.AllowedDecisions) == 0 {
				rc.AllowedDecisions = c.AllowedDecisionsCamel
			}
			configs = append(configs, rc)
		}
		s.approvalRequest(in.ID, actions, configs, nil, "")
		return
	}
	if isObject {
		text = firstNonEmptyString(v.Message, v.Question, v.Prompt)
		if text == "" {
			// The object itself, not the string it came in (JSON twice).
			text = IndentJSON(legacyInner(in.Legacy))
		}
	}
	in.Message = text
	field := FormField{Name: "answer", Type: FieldString, Required: true}
	it := s.newFormItem(in.ID, text, []FormField{field}, true, "")
	s.standaloneCard(it)
}

// standaloneCard adds a card that stands alone. A group that holds another
// card still waiting stays open (the run is paused, not over), so that card
// stays in view.
func (s *Store) standaloneCard(it *Item) {
	if s.groupHoldsPending() {
		s.appendTop(it)
		return
	}
	s.standalone(it)
}

func firstNonEmptyString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// aguiSnapshot replaces the conversation with the agent's messages: items
// are rebuilt from them; the agent's status, the sources panel and the
// cards still open are kept.
func (s *Store) aguiSnapshot(st *aguiState, msgs []wire.AGUIMessage) {
	conv := st.conv
	conv.Messages = msgs
	status := s.status
	s.rebuildAGUI(conv, status == StatusRunning)
	if status != StatusRunning {
		s.setStatus(status)
	}
}
