package demo

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"stepwise/state"
	"stepwise/state/wire"
)

// Limits that keep one session's memory bounded.
const (
	MaxEventsPerSession = 50_000
	MaxSubscriberLag    = 4096 // events a slow subscriber may fall behind before it is dropped
)

// ErrBusy is returned for a message sent while the agent runs.
var ErrBusy = errors.New("the agent is already running")

// ErrFull is returned when a session's log is full.
var ErrFull = errors.New("this conversation is too long; start a new one")

// Session is one conversation of the demo agent: its event log (every
// event sent, for history and resume), the run in progress and the
// subscribers of its stream.
type Session struct {
	ID string

	mu       sync.Mutex
	log      []json.RawMessage // events with their ids, in order; id = index+1
	status   state.AgentStatus
	running  *run
	runs     int
	subs     map[chan json.RawMessage]struct{}
	lastUsed time.Time
}

// run is one scenario playing.
type run struct {
	cancel   context.CancelFunc
	stopped  bool
	approval chan approvalAnswer // the client's answer to the pending approval
	pending  string              // approval key awaited, "" when none
	open     map[string]bool     // tool ids with no result yet
	byName   map[string][]string // tool ids by tool name, oldest first
	done     chan struct{}

	awaiting      map[string]bool // tools the pending approval concerns
	awaitingOrder []string        // the tool of each action, "" for none
}

type approvalAnswer struct {
	key       string
	answers   map[string]string
	decisions []wire.Decision
}

func newSession(id string) *Session {
	return &Session{ID: id, status: state.StatusIdle, subs: map[chan json.RawMessage]struct{}{}, lastUsed: time.Now()}
}

// emit appends an event to the log with the next id and sends it to every
// subscriber. The caller holds s.mu.
func (s *Session) emitLocked(ev map[string]any) {
	if len(s.log) >= MaxEventsPerSession {
		return
	}
	ev["event_id"] = strconv.Itoa(len(s.log) + 1)
	raw, _ := json.Marshal(ev)
	s.log = append(s.log, raw)
	s.trackStatusLocked(ev)
	for ch := range s.subs {
		select {
		case ch <- raw:
		default: // too slow: drop it; it resumes from its last id
			close(ch)
			delete(s.subs, ch)
		}
	}
}

// trackStatusLocked follows the agent status as REPLAY.md defines it.
func (s *Session) trackStatusLocked(ev map[string]any) {
	switch ev["type"] {
	case "user_message", "message_start", "text_output_stream", "activity":
		s.status = state.StatusRunning
	case "message_stop":
		if s.running == nil {
			s.status = state.StatusIdle
		}
	case "terminal_user_stopped":
		s.status = state.StatusStopped
	case "terminal_error":
		s.status = state.StatusError
	case "content_block_start":
		if b, ok := ev["content_block"].(map[string]any); ok {
			switch b["type"] {
			case "terminal_user_stopped":
				s.status = state.StatusStopped
			case "terminal_error":
				s.status = state.StatusError
			}
		}
	}
}

// Subscribe returns the events after the given id and a channel of the
// live events that follow, with no gap and no overlap. cancel ends the
// subscription.
func (s *Session) Subscribe(after wire.EventID) (backlog []json.RawMessage, live <-chan json.RawMessage, cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastUsed = time.Now()
	start := 0
	if !after.IsZero() {
		// Ids are 1..n in order: resume from the first one after `after`.
		for start < len(s.log) && wire.MakeEventID(strconv.Itoa(start+1)).Compare(after) <= 0 {
			start++
		}
	}
	backlog = append(backlog, s.log[start:]...)
	ch := make(chan json.RawMessage, MaxSubscriberLag)
	s.subs[ch] = struct{}{}
	return backlog, ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.subs[ch]; ok {
			delete(s.subs, ch)
			close(ch)
		}
	}
}

// History is the session's history response. The demo agent keeps only its
// event log, so its history carries no messages and no last_event_id: the
// client subscribes from the start and the stream replays every event,
// which builds exactly the same items (PROTOCOL.md section 4 leaves the
// split between history and stream to the backend).
func (s *Session) History() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastUsed = time.Now()
	return map[string]any{
		"session_id":       s.ID,
		"agent_status":     string(s.status),
		"last_event_id":    nil,
		"messages":         []any{},
		"pending_approval": nil,
	}
}

// Status returns the agent status.
func (s *Session) Status() state.AgentStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Events returns a copy of the log.
func (s *Session) Events() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.log...)
}
