package state

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// AgentStatus is whether the agent runs, and how its last run ended.
type AgentStatus string

// The agent statuses.
const (
	StatusRunning AgentStatus = "running"
	StatusIdle    AgentStatus = "idle"
	StatusStopped AgentStatus = "stopped"
	StatusError   AgentStatus = "error"
)

// DefaultFaviconService is the favicon fallback of PROTOCOL.md section 7.
const DefaultFaviconService = "https://www.google.com/s2/favicons?domain={domain}&sz=16"

// Options configure a Store.
type Options struct {
	// FaviconService builds a source's favicon URL when the backend sends
	// none: "{domain}" is replaced by the source's domain. Empty turns the
	// fallback off.
	FaviconService string
	// NewID makes the ids of the messages and runs the client creates in
	// the AG-UI and AI SDK modes (dialect.go); nil means random ids.
	NewID func() string
	// FilesBase is the URL a backend's relative file URLs are resolved
	// against: its history URL (docs/protocol-extensions.md#attachments).
	// Empty keeps them as sent.
	FilesBase string
	// Kept says who keeps the conversation, which decides what the local
	// events do (local.go).
	Kept Kept
}

// DefaultOptions are the options of PROTOCOL.md's defaults.
func DefaultOptions() Options {
	return Options{FaviconService: DefaultFaviconService}
}

// Outcome says what became of an applied event.
type Outcome int

// The outcomes.
const (
	Applied Outcome = iota // the event was valid (it may still change nothing, like ping)
	Dropped                // already seen: its id is not after the last one
	Skipped                // invalid: counted by SkippedCount
)

func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case Dropped:
		return "dropped"
	case Skipped:
		return "skipped"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Changes tells a renderer what one Apply changed.
type Changes struct {
	Outcome Outcome
	// Items are the top-level items that were added or changed (a group is
	// listed when any of its steps changed). The slice is reused by the next
	// call: copy it to keep it.
	Items []*Item
	// List is true when top-level items were added or inserted.
	List bool
	// Status, Sources and Pending are true when those changed.
	Status  bool
	Sources bool
	Pending bool
	// Ready (a CardAnswered's) is true when every card the agent waits on
	// has its answer: the answers can go (AnswersSent).
	Ready bool
}

// Store holds one conversation: its items, the agent's status, the pending
// approvals, the sources panel and the last event id. The zero Store is not
// ready for use: make one with New.
type Store struct {
	opts Options

	items   []*Item
	nextKey int
	rev     uint64
	epoch   uint64
	changes Changes

	status  AgentStatus
	lastID  wire.EventID
	skipped int

	group     *Item            // the open group, or nil
	tools     map[string]*Item // tool id to tool item
	toolNames map[string][]*Item
	active    map[*Item]struct{} // tools whose status is active
	hidden    map[string]bool    // ids of "display as content" tool calls
	approvals map[string]*Item   // approval_key to question or approval item
	pending   []*Item            // unanswered approvals and questions, oldest first
	planTools []*Item            // planning tool calls, oldest first (plan.go)

	blocks       map[int]*openBlock // open blocks of the current message
	freeBlocks   []*openBlock
	stopReason   string
	msgType      string // the current message's message_type
	brandPending bool   // the turn's first assistant item is still to come

	sawActivity bool  // the stream has carried a structured activity
	dialectText *Item // the text item text_output_stream appends to
	dialectBuf  strings.Builder

	// The request the last local event made (NextAGUIRun,
	// NextUIChatRequest), until the next event.
	nextRun  *wire.RunAgentInput
	nextChat *wire.UIChatRequest

	sources       []SourceGroup
	sourcesByTool map[string]int
	sourcesRev    uint64
	panelURLs     map[string]bool   // the URLs the panel lists; nil when stale
	foundBy       map[string]string // URL to the query of the first search that found it
	citedSources  []Source          // every cited page, to list again after a workspace

	// tree holds the messages and their versions, when the backend gives
	// its messages ids (branches.go); nil until then.
	tree *msgTree

	// Anthropic-native state (BACKENDS.md section 1).
	lastText         *Item          // the text item of the block that ended last, while nothing else came since
	lastCited        bool           // that block carried citations
	citeNumber       map[string]int // a cited source's key to its number
	unkeyedCitations int            // citations with nothing to recognise them by
	noticed          bool           // the current message already added its stop reason's notice
	usage            Usage
	msgUsage         Usage // the current message's usage so far
	hasUsage         bool
	turn             *turn // the turn in progress, or nil
	// msgTools are the client tool calls (tool_use blocks) of the current
	// message; loopTools those of a message that stopped for tool_use,
	// until the next message of the turn shows they ran (anthropic.go).
	msgTools, loopTools []*Item
	openMessageID       string // the id of the message started and not yet stopped
	msgFirst            int    // index in items of the current message's first item

	// dialect holds what the AG-UI and AI SDK streams need (dialect.go);
	// nil until one of their events arrives.
	dialect *dialectState
}

// openBlock is a content block between its start and its stop.
type openBlock struct {
	kind        string
	item        *Item
	approvalKey string
	createdAt   string // an approval_request block's created_at, for its delta
	text        strings.Builder
	cited       bool // a text block that carries citations
	// firstCitation is the index in the item's Citations of the block's
	// first one: a continued item holds earlier passages' too.
	firstCitation int
}

// New returns an empty store: no history, agent idle.
func New(opts Options) *Store {
	return &Store{
		opts:          opts,
		status:        StatusIdle,
		tools:         make(map[string]*Item),
		toolNames:     make(map[string][]*Item),
		active:        make(map[*Item]struct{}),
		hidden:        make(map[string]bool),
		approvals:     make(map[string]*Item),
		blocks:        make(map[int]*openBlock),
		sourcesByTool: make(map[string]int),
		foundBy:       make(map[string]string),
		citeNumber:    make(map[string]int),
		msgFirst:      -1,
	}
}

// Items returns the top-level items, oldest first. Do not modify the slice.
func (s *Store) Items() []*Item { return s.items }

// Status returns the agent's status.
func (s *Store) Status() AgentStatus { return s.status }

// LastEventID returns the greatest event id seen, or the zero EventID.
func (s *Store) LastEventID() wire.EventID { return s.lastID }

// SkippedCount returns how many events were skipped as invalid.
func (s *Store) SkippedCount() int { return s.skipped }

// Sources returns the sources panel, oldest search first.
func (s *Store) Sources() []SourceGroup { return s.sources }

// Pending returns the newest unanswered approval or question, or nil.
func (s *Store) Pending() *Item {
	if len(s.pending) == 0 {
		return nil
	}
	return s.pending[len(s.pending)-1]
}

// Approval returns the question or approval item with that key, or nil.
func (s *Store) Approval(key string) *Item { return s.approvals[key] }

// Tool returns the tool item with that id, or nil.
func (s *Store) Tool(id string) *Item { return s.tools[id] }

// ApplyJSON decodes one frame and applies it. A frame that is not a valid
// event is counted as skipped; its event_id still counts as seen when it can
// be read. AG-UI events and AI SDK chunks are recognised by their type and
// applied as their dialect says (dialect.go). The store does not keep frame.
func (s *Store) ApplyJSON(frame []byte) Changes {
	ev, err := wire.DecodeEvent(frame)
	if err != wire.ErrNotObject && (err != nil || foreignEvent(&ev)) {
		if ch, ok := s.applyForeign(frame); ok {
			return ch
		}
	}
	if err != nil {
		s.begin()
		var idOnly struct {
			EventID json.RawMessage `json:"event_id"`
		}
		if err != wire.ErrNotObject && json.Unmarshal(frame, &idOnly) == nil {
			if id, ok := wire.ParseEventID(idOnly.EventID); ok && (s.lastID.IsZero() || id.Compare(s.lastID) > 0) {
				s.lastID = id
			}
		}
		s.skipped++
		s.changes.Outcome = Skipped
		return s.changes
	}
	return s.Apply(&ev)
}

// Apply applies one decoded event and says what changed. The store may keep
// parts of ev (a tool's input, an artifact): do not modify ev afterwards.
func (s *Store) Apply(ev *wire.Event) Changes {
	s.begin()
	id, hasID := wire.ParseEventID(ev.EventID)
	if hasID && !s.lastID.IsZero() && id.Compare(s.lastID) <= 0 {
		s.changes.Outcome = Dropped
		return s.changes
	}
	if hasID {
		s.lastID = id
	}
	if !s.dispatch(ev) {
		s.skipped++
		s.changes.Outcome = Skipped
	}
	return s.changes
}

func (s *Store) begin() {
	s.epoch++
	s.changes = Changes{Items: s.changes.Items[:0]}
	s.nextRun, s.nextChat = nil, nil
}

// dispatch applies ev and reports whether it was valid.
func (s *Store) dispatch(ev *wire.Event) bool {
	switch ev.Type {
	case "ping", "message_delta", "content_block_start", "content_block_delta", "content_block_stop":
	default:
		// Text blocks join only when nothing comes between them.
		s.lastText = nil
	}
	switch ev.Type {
	case "ping":
		return true
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			s.stopReason = ev.Delta.StopReason
			details := ev.Delta.StopDetails
			if details == nil {
				details = ev.StopDetails
			}
			s.stopNotice(ev.Delta.StopReason, details)
		}
		s.messageUsage(ev.Usage)
		s.contextEdits(ev.ContextManagement)
		return true
	case "message_stop":
		s.endMessage()
		return true
	case "content_block_start":
		if ev.Index == nil || ev.ContentBlock == nil || ev.ContentBlock.Type == "" {
			return false
		}
		if old := s.blocks[*ev.Index]; old != nil {
			delete(s.blocks, *ev.Index)
			s.stopBlock(old)
			s.freeBlock(old)
		}
		return s.startBlock(*ev.Index, true, ev.ContentBlock)
	case "content_block_delta":
		if ev.Index == nil || ev.Delta == nil {
			return false
		}
		ob := s.blocks[*ev.Index]
		if ob == nil {
			return false
		}
		return s.applyDelta(ob, ev.Delta)
	case "content_block_stop":
		if ev.Index == nil {
			return false
		}
		ob := s.blocks[*ev.Index]
		if ob == nil {
			return false
		}
		s.stopBlock(ob)
		delete(s.blocks, *ev.Index)
		s.freeBlock(ob)
		return true
	case "group_start":
		summary := ""
		if ev.Summary != nil {
			summary = *ev.Summary
		}
		s.openGroup(summary)
		return true
	case "group_end":
		s.closeGroup(ev.Summary)
		return true
	case "text_output_stream":
		if ev.Text == nil {
			return false
		}
		return s.applyDialectText(*ev.Text)
	case "activity":
		if ev.ActivityType == "" {
			return false
		}
		s.sawActivity = true
		s.beginDialectTurn()
		a := ev.Activity
		a.Type = ev.Type // shadowed by the event's own type when decoded
		s.applyActivity(&a)
		return true
	}
	return s.dispatchRare(ev)
}

// dispatchRare is dispatch for the events that come once or twice a turn:
// apart, so that the function every event goes through stays small (V8
// optimises a function whole once it turns hot).
func (s *Store) dispatchRare(ev *wire.Event) bool {
	switch ev.Type {
	case "message_start":
		var msg struct {
			ID          string          `json:"id"`
			Role        string          `json:"role"`
			MessageType string          `json:"message_type"`
			Usage       *wire.Usage     `json:"usage"`
			Content     json.RawMessage `json:"content"`
			StopReason  string          `json:"stop_reason"`
		}
		if !wire.IsNull(ev.Message) && json.Unmarshal(ev.Message, &msg) != nil {
			return false
		}
		if msg.ID != "" && msg.ID == s.openMessageID {
			// The same message started again (a proxy's retry): its usage
			// is the same message's, not another's.
			s.messageUsage(msg.Usage)
			return true
		}
		s.openMessageID = msg.ID
		s.msgFirst = len(s.items)
		s.finishBlocks() // of a message that never stopped
		s.commitMessageUsage()
		s.loopWentOn()
		if s.status != StatusRunning {
			s.brandPending = true
			s.startTurn()
		}
		s.msgType = msg.MessageType
		s.stopReason = ""
		s.noticed = false
		s.messageUsage(msg.Usage)
		s.setStatus(StatusRunning)
		s.startContent(msg.Content, msg.StopReason)
		return true
	case "error":
		if isProviderError(ev.Error) {
			// Anthropic's own errors (overloaded_error, ...) end the turn.
			it := s.newItem(KindError)
			it.Text = ev.ErrorText()
			it.ErrorType = wire.ErrorType(ev.Error)
			s.finishBlocks()
			s.terminal(it, StatusError)
			return true
		}
		s.addError(ev.ErrorText(), wire.ErrorType(ev.Error))
		return true
	case "approval_result", "approval_timeout", "terminal_user_stopped", "terminal_error":
		b := wire.Block{
			Type:        ev.Type,
			ApprovalKey: ev.ApprovalKey,
			Answers:     ev.Answers,
			Decisions:   ev.Decisions,
			Error:       ev.Error,
			Message:     ev.Message,
		}
		return s.startBlock(0, false, &b)
	case "user_message":
		s.userMessage(ev)
		return true
	case "answer_start":
		return s.answerStart(ev)
	case "branch_selected":
		return s.branchSelected(ev)
	case "feedback":
		return s.feedbackEvent(ev)
	}
	return false
}

// endMessage handles message_stop: the turn ends unless the message stopped
// to run a tool.
func (s *Store) endMessage() {
	s.openMessageID = ""
	s.finishBlocks()
	s.lastText = nil
	s.dialectText = nil
	reason := s.stopReason
	s.stopReason = ""
	if reason == "tool_use" {
		s.loopTools = append(s.loopTools[:0], s.msgTools...)
	}
	s.msgTools = s.msgTools[:0]
	if reason == "tool_use" || reason == "pause_turn" {
		return
	}
	s.closeGroup(nil)
	if s.status == StatusRunning {
		s.setStatus(StatusIdle)
	}
	s.endTurn()
}

// finishBlocks ends the blocks a message left open, in index order, as
// their stops would have: a tool's input JSON is read, a cited passage
// ends.
func (s *Store) finishBlocks() {
	if len(s.blocks) == 0 {
		return
	}
	for _, i := range slices.Sorted(maps.Keys(s.blocks)) {
		ob := s.blocks[i]
		s.stopBlock(ob)
		s.freeBlock(ob)
	}
	clear(s.blocks)
	s.lastText = nil
}

// startBlock applies a block's start. With register, the block stays open
// under index until its stop.
func (s *Store) startBlock(index int, register bool, b *wire.Block) bool {
	prevText, prevCited := s.lastText, s.lastCited
	s.lastText = nil
	ob := s.allocBlock(b.Type)
	if !register {
		defer s.freeBlock(ob)
	}
	switch b.Type {
	case "text":
		s.startText(ob, b, prevText, prevCited)
	case "thinking":
		it := s.newItem(KindThinking)
		it.Cut = growText(&ob.text, b.Thinking)
		it.Text = ob.text.String()
		s.place(it)
		ob.item = it
	case "tool_use", "server_tool_use", "mcp_tool_use":
		if b.ID == "" || b.Name == "" {
			return false
		}
		ob.kind = "tool_use"
		ob.item = s.toolUse(b.ID, b.Name, b.Input, b.ToolContentMessage, "")
		s.setToolApp(ob.item, b.UI)
		if b.Type == "tool_use" && register && ob.item != nil {
			s.msgTools = append(s.msgTools, ob.item)
		}
	case "tool_result":
		if b.ToolUseID == "" {
			return false
		}
		name := b.ToolName
		if name == "" {
			name = b.Name
		}
		text, _ := wire.ContentText(b.Content)
		it := s.toolResult(b.ToolUseID, name, b.Status, text, b.Artifact, b.ToolContentMessage)
		s.setStructuredContent(it, b.StructuredContent)
		s.withImages(it, b.Content)
	default:
		if !s.startRareBlock(ob, b) {
			return false
		}
	}
	if register {
		s.blocks[index] = ob
	} else {
		s.stopBlock(ob) // a history block is complete
	}
	return true
}

// startRareBlock is startBlock for the blocks that come once in a while
// (approvals, server tools' results, ends of turns): apart, so that the
// function every block's start goes through stays small (V8 optimises a
// function whole once it turns hot). It reports whether the block was
// applied.
func (s *Store) startRareBlock(ob *openBlock, b *wire.Block) bool {
	switch b.Type {
	case "redacted_thinking":
		// Its data is encrypted reasoning: never shown.
		it := s.newItem(KindThinking)
		it.Redacted = true
		s.place(it)
		ob.item = it
	case "compaction":
		s.addNotice(NoticeCompaction, "")
	case "fallback":
		s.fallbackNotice(b)
	case "container_upload":
		s.addNotice(NoticeContainerUpload, b.FileID)
	case "image":
		return s.addImage(b)
	case "approval_request":
		if b.ApprovalKey == "" {
			return false
		}
		ob.approvalKey, ob.createdAt = b.ApprovalKey, b.CreatedAt
		if actions := firstNonEmpty(b.ActionRequests, b.ActionRequestsCamel); len(actions) > 0 {
			s.approvalRequest(b.ApprovalKey, actions, firstNonEmpty(b.ReviewConfigs, b.ReviewConfigsCamel), b.TimeoutSeconds, b.CreatedAt)
		}
	case "approval_result":
		if !s.approvalResult(b.ApprovalKey, b.Answers, b.Decisions) {
			return false
		}
	case "approval_timeout":
		if !s.approvalTimeout(b.ApprovalKey) {
			return false
		}
	case "terminal_user_stopped":
		s.terminal(s.newItem(KindStopped), StatusStopped)
	case "terminal_error":
		it := s.newItem(KindError)
		it.Text = b.ErrorText()
		it.ErrorType = wire.ErrorType(b.Error)
		s.terminal(it, StatusError)
	default:
		if isServerToolResult(b.Type) {
			return s.serverToolResult(b)
		}
		it := s.newItem(KindUnknown)
		it.BlockType = b.Type
		s.place(it)
		ob.item = it
	}
	return true
}

// allocBlock takes an open-block record from the free list: blocks are
// short-lived and many, so reusing them spares the collector.
func (s *Store) allocBlock(kind string) *openBlock {
	if n := len(s.freeBlocks); n > 0 {
		ob := s.freeBlocks[n-1]
		s.freeBlocks = s.freeBlocks[:n-1]
		ob.kind = kind
		return ob
	}
	return &openBlock{kind: kind}
}

func (s *Store) freeBlock(ob *openBlock) {
	ob.item, ob.approvalKey, ob.cited = nil, "", false
	ob.text.Reset() // the item keeps the text built so far
	s.freeBlocks = append(s.freeBlocks, ob)
}

func firstNonEmpty[T any](a, b []T) []T {
	if len(a) > 0 {
		return a
	}
	return b
}

// applyDelta applies a content_block_delta to its open block and reports
// whether it was valid.
func (s *Store) applyDelta(ob *openBlock, d *wire.Delta) bool {
	if d.Type == "citations_delta" {
		return s.citationDelta(ob, d.Citation)
	}
	switch ob.kind {
	case "text":
		if d.Type == "text_delta" || d.Type == "" {
			s.appendText(ob, d.Text)
		}
	case "thinking":
		if d.Type == "thinking_delta" || d.Type == "" {
			s.appendText(ob, d.Thinking)
		}
	case "tool_use":
		if d.Type == "input_json_delta" && ob.item != nil {
			ob.item.Tool.partialJSON = append(ob.item.Tool.partialJSON, d.PartialJSON...)
			ob.item.Tool.InputStreaming = true
		}
	case "approval_request":
		if len(d.ActionRequests) > 0 {
			s.approvalRequest(ob.approvalKey, d.ActionRequests, d.ReviewConfigs, d.TimeoutSeconds, ob.createdAt)
		}
	}
	return true
}

// appendText grows a streaming text or thinking item. The builder keeps the
// cost of a delta proportional to the delta, not to the text so far.
func (s *Store) appendText(ob *openBlock, text string) {
	if text == "" {
		return
	}
	if growText(&ob.text, text) {
		ob.item.Cut = true
	}
	ob.item.Text = ob.text.String()
	if ob.cited {
		s.movePassageEnd(ob)
	}
	s.touch(ob.item)
}

// stopBlock ends an open block: a tool's streamed input is read, a text
// block may be continued by the next one.
func (s *Store) stopBlock(ob *openBlock) {
	switch ob.kind {
	case "tool_use":
		if ob.item != nil {
			s.readPartialInput(ob.item)
		}
	case "text":
		if ob.item != nil {
			s.lastText, s.lastCited = ob.item, ob.cited
		}
	}
}

// readPartialInput makes a tool's streamed input_json_delta its input.
// JSON that never became valid (the model hit max_tokens inside it) is kept
// as PartialInput for the UI; the input stays what the start said.
func (s *Store) readPartialInput(it *Item) {
	t := it.Tool
	t.InputStreaming = false
	if len(t.partialJSON) == 0 {
		return
	}
	if json.Valid(t.partialJSON) {
		t.Input = json.RawMessage(t.partialJSON)
		t.PartialInput = ""
	} else {
		t.PartialInput = string(t.partialJSON)
	}
	t.partialJSON = nil
	s.touch(it)
}

// newItem makes an item with a fresh key; it is not placed yet.
func (s *Store) newItem(kind Kind) *Item {
	s.nextKey++
	return &Item{Key: s.nextKey, Kind: kind}
}

// touch records that it changed, and with it the group that holds it.
func (s *Store) touch(it *Item) {
	s.rev++
	it.Rev = s.rev
	top := it
	for top.parent != nil { // a step, maybe of a nested group
		top = top.parent
		top.Rev = s.rev
	}
	if top.dirtyEpoch != s.epoch {
		top.dirtyEpoch = s.epoch
		s.changes.Items = append(s.changes.Items, top)
	}
}

// appendTop adds a top-level item at the end.
func (s *Store) appendTop(it *Item) {
	if it.Kind != KindUser && s.brandPending {
		it.Brand = s.msgType != "step"
		s.brandPending = false
	}
	s.items = append(s.items, it)
	s.changes.List = true
	s.touch(it)
}

// place adds a step: into the open group, or at top level when none is open
// (rule 2).
func (s *Store) place(it *Item) {
	if s.group == nil {
		s.appendTop(it)
		return
	}
	g := s.group.Group
	it.parent = s.group
	g.Steps = append(g.Steps, it)
	if it.stepLabel() != "" {
		g.lastLabeled = it
	}
	s.touch(it)
}

// standalone closes the open group and adds it after it (rule 3).
func (s *Store) standalone(it *Item) {
	s.closeGroup(nil)
	s.appendTop(it)
}

func (s *Store) openGroup(summary string) {
	s.closeGroup(nil)
	gi := &struct {
		item  Item
		group Group
	}{Item{Kind: KindGroup}, Group{Open: true, startSummary: summary}}
	s.nextKey++
	it := &gi.item
	it.Key, it.Group = s.nextKey, &gi.group
	s.appendTop(it)
	s.group = it
}

// closeGroup closes the open group, if any; summary, when set and not
// empty, becomes its title.
func (s *Store) closeGroup(summary *string) {
	if s.group == nil {
		return
	}
	g := s.group.Group
	g.closedTitle = g.openTitle()
	if summary != nil {
		g.endSummary = *summary
	}
	g.Open = false
	s.touch(s.group)
	s.group = nil
}

func (s *Store) addError(text, errorType string) {
	it := s.newItem(KindError)
	it.Text = text
	it.ErrorType = errorType
	s.standalone(it)
	s.keepShown(it)
}

func (s *Store) addUser(text string) {
	s.dialectText = nil
	s.endTurn()
	it := s.newItem(KindUser)
	setText(it, text)
	s.standalone(it)
	s.brandPending = true
	s.msgType = ""
	s.startTurn()
	s.setStatus(StatusRunning)
}

// terminal ends the run with a stopped or error item: the open group
// closes, unanswered approvals expire, tools without result are interrupted.
func (s *Store) terminal(it *Item, status AgentStatus) {
	for len(s.pending) > 0 {
		s.expire(s.pending[0], ToolInterrupted)
	}
	s.standalone(it)
	s.keepShown(it)
	s.setStatus(status)
	s.dialectText = nil
	s.openMessageID = "" // the message ended with the run
	s.endTurn()
}

// setStatus changes the agent's status. A run that ends interrupts every
// tool still active.
func (s *Store) setStatus(st AgentStatus) {
	if st == s.status {
		return
	}
	if s.status == StatusRunning {
		// In the order they were added, so revisions and Changes do not
		// depend on the map's order.
		byKey := func(a, b *Item) int { return cmp.Compare(a.Key, b.Key) }
		for _, it := range slices.SortedFunc(maps.Keys(s.active), byKey) {
			it.Tool.Status = ToolInterrupted
			s.touch(it)
		}
		clear(s.active)
		if s.dialect != nil && len(s.dialect.agui.subagents) > 0 {
			s.aguiCloseSubagents(&s.dialect.agui) // their run is over
		}
		if s.turn == nil {
			s.markAnswer() // a dialect that keeps no turns (AI SDK)
		}
	}
	s.status = st
	s.changes.Status = true
	if st != StatusRunning {
		s.markKeptRefs() // a run's answer is whole: its controls come
	}
}

func (s *Store) setToolStatus(it *Item, st ToolStatus) {
	it.Tool.Status = st
	if st == ToolActive {
		s.active[it] = struct{}{}
	} else {
		delete(s.active, it)
	}
	s.touch(it)
}

// runningStatus is the status of a tool with no result.
func (s *Store) runningStatus() ToolStatus {
	if s.status == StatusRunning {
		return ToolActive
	}
	return ToolInterrupted
}
