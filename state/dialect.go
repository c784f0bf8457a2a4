package state

import (
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"strings"

	"stepwise/state/wire"
)

// The AG-UI and AI SDK dialects (BACKENDS.md sections 2 to 4) share what is
// in this file: recognising their events, the implicit grouping rule, how a
// run ends or pauses, and the ids the client makes.
//
// Implicit grouping: neither protocol has group markers, so tool calls and
// reasoning that follow each other form one group, as the activity dialect
// does (PROTOCOL.md section 8): the group opens at the first such step,
// holds every step until the next text message, and closes there, at an
// error, or at the end of the run.
//
// A run that stops to ask the user (an AG-UI interrupt, an AI SDK tool
// approval) pauses rather than ends: the agent is idle, but the group that
// holds the pending card stays open, so the card shows under its tool; the
// answer starts the next run, which continues in that group.

// dialectState is what the dialects keep besides the items.
type dialectState struct {
	agui aguiState
	ui   uiState
}

func (s *Store) dialectState() *dialectState {
	if s.dialect == nil {
		s.dialect = &dialectState{}
		s.dialect.agui.init()
		s.dialect.ui.init()
	}
	return s.dialect
}

// foreignEvent reports an event that a native decode accepted but that
// belongs to another dialect: an AG-UI or AI SDK type, or the AI SDK's
// error chunk, which carries errorText instead of error.
func foreignEvent(ev *wire.Event) bool {
	if wire.DialectOf(ev.Type) != wire.Native {
		return true
	}
	return ev.Type == "error" && wire.IsNull(ev.Error) && wire.IsNull(ev.Message)
}

// applyForeign applies an AG-UI event or AI SDK chunk. ok is false when the
// frame belongs to neither (the native path then handles it).
func (s *Store) applyForeign(frame []byte) (Changes, bool) {
	typ, ok := wire.PeekType(frame)
	if !ok {
		return Changes{}, false
	}
	var valid bool
	switch wire.DialectOf(typ) {
	case wire.AGUI:
		s.begin()
		valid = s.applyAGUI(frame)
	case wire.AISDK:
		s.begin()
		valid = s.applyUIChunk(frame)
	default:
		if typ != "error" {
			return Changes{}, false
		}
		c, err := wire.DecodeUIChunk(frame)
		if err != nil || c.ErrorText == "" {
			return Changes{}, false
		}
		s.begin()
		valid = s.applyUIChunkDecoded(&c, true)
	}
	if !valid {
		s.skipped++
		s.changes.Outcome = Skipped
	}
	return s.changes, true
}

// newID makes an id for a message or run the client creates (client
// actions only: Apply never calls it, so it stays deterministic).
func (s *Store) newID() string {
	if s.opts.NewID != nil {
		return s.opts.NewID()
	}
	// Unique, not secret: math/rand/v2 (the runtime's ChaCha8, seeded by
	// the system), as crypto/rand would keep its FIPS 140 DRBG (AES, SHA-2)
	// in the wasm.
	var b [12]byte
	hi, lo := rand.Uint64(), rand.Uint32()
	for i := range 8 {
		b[i] = byte(hi >> (8 * i))
	}
	for i := range 4 {
		b[8+i] = byte(lo >> (8 * i))
	}
	return hex.EncodeToString(b[:])
}

// beginRun marks the agent running; from idle, a new turn starts and its
// first assistant item carries the brand.
func (s *Store) beginRun() {
	if s.status != StatusRunning {
		s.brandPending = true
		s.msgType = ""
	}
	s.setStatus(StatusRunning)
	s.dialectText = nil
}

// placeStep adds a tool call, reasoning or activity: into the open group,
// opening one when none is (the implicit grouping rule).
func (s *Store) placeStep(it *Item) {
	if s.group == nil {
		s.openGroup("")
	}
	s.place(it)
}

// endDialectRun ends a run with status: the open group closes, unless it holds a
// card still waiting for the user (the run paused to ask); tools still
// active are interrupted.
func (s *Store) endDialectRun(status AgentStatus) {
	if !s.groupHoldsPending() {
		s.closeGroup(nil)
	}
	s.setStatus(status)
	s.dialectText = nil
}

// groupHoldsPending reports whether the open group holds an unanswered card.
func (s *Store) groupHoldsPending() bool {
	if s.group == nil {
		return false
	}
	for _, p := range s.pending {
		if p.parent == s.group {
			return true
		}
	}
	return false
}

// failRun ends a run that failed: an error item after the open group, open
// cards expire, the agent is in error.
func (s *Store) failRun(text string) {
	it := s.newItem(KindError)
	it.Text = text
	s.terminal(it, StatusError)
}

// endStreamUnexpectedly ends a run whose stream stopped before the run's
// end (no RUN_FINISHED or finish; the connection dropped): the open group
// closes, tools still running are interrupted, and a notice says so, with
// detail when there is one. Nothing shown is lost; the agent's status
// becomes error, and the next message starts a new run.
func (s *Store) endStreamUnexpectedly(detail string) Changes {
	s.begin()
	s.addNotice(NoticeStreamEnded, detail)
	s.setStatus(StatusError)
	return s.changes
}

// endStreamTimedOut ends a run whose stream brought nothing for too long
// (the page aborted it): a notice says so, as endStreamUnexpectedly.
func (s *Store) endStreamTimedOut() Changes {
	s.begin()
	s.addNotice(NoticeTimedOut, "")
	s.setStatus(StatusError)
	return s.changes
}

// stopRun ends the run the user stopped, in the modes where stopping is
// aborting the request and the backend says nothing more: a stopped item,
// tools still running interrupted, open cards expired. A run already over
// is left as it is.
func (s *Store) stopRun() Changes {
	s.begin()
	if s.status == StatusRunning {
		s.terminal(s.newItem(KindStopped), StatusStopped)
	}
	return s.changes
}

// streamFailed ends a run whose request got no stream: the backend refused
// it (an HTTP error) or answered with something else (an HTML page). A
// notice says which, with what the backend said; as endStreamUnexpectedly
// otherwise.
func (s *Store) streamFailed(p *wire.StreamProblem) Changes {
	s.begin()
	if p.Status != 0 {
		s.addNotice(NoticeBackendError, p.Error())
	} else {
		s.addNotice(NoticeNotAStream, p.Detail)
	}
	s.setStatus(StatusError)
	return s.changes
}

// streamText is a text or reasoning item being streamed.
type streamText struct {
	item *Item
	buf  strings.Builder
}

func (t *streamText) append(s *Store, delta string) {
	if delta == "" {
		return
	}
	if growText(&t.buf, delta) {
		t.item.Cut = true
	}
	t.item.Text = t.buf.String()
	s.touch(t.item)
}

// newStreamText starts a text item: it stands alone, closing the group.
func (s *Store) newStreamText() *streamText {
	it := s.newItem(KindText)
	if s.dialect != nil && s.dialect.agui.nesting > 0 {
		s.place(it) // a sub-agent's text is a step of its group
	} else {
		s.standalone(it)
	}
	return &streamText{item: it}
}

// newStreamThinking starts a reasoning item, a step of the group.
func (s *Store) newStreamThinking() *streamText {
	it := s.newItem(KindThinking)
	s.placeStep(it)
	return &streamText{item: it}
}

// isLastTop reports whether it is the last top-level item and no group is
// open after it: text can still be appended to it without reading out of
// order.
func (s *Store) isLastTop(it *Item) bool {
	return s.group == nil && len(s.items) > 0 && s.items[len(s.items)-1] == it
}

// toolInput reads tool-call arguments sent as JSON text: the parsed value
// when complete, else the value a repair of the partial text gives (so the
// request grows as it streams), else nil.
func toolInput(text []byte) json.RawMessage {
	if len(text) == 0 {
		return nil
	}
	if json.Valid(text) {
		return json.RawMessage(append([]byte(nil), text...))
	}
	if fixed, ok := repairPartialJSON(text); ok {
		return fixed
	}
	return nil
}

// uiResultText is an AI SDK tool output as the UI shows it: a string as
// is, anything else as indented JSON.
func uiResultText(raw json.RawMessage) string {
	if s, ok := wire.StringValue(raw); ok {
		return s
	}
	if wire.IsNull(raw) {
		return ""
	}
	return IndentJSON(raw)
}
