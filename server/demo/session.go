package demo

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"slices"
	"strconv"
	"sync"
	"time"

	"stepwise/state"
	"stepwise/state/wire"
)

// Limits that keep one session bounded, in the data file and in memory.
const (
	MaxEventsPerSession = 50_000
	MaxSessionBytes     = 8 << 20 // the size of a session's log
	MaxSubscriberLag    = 4096    // events a slow subscriber may fall behind before it is dropped
)

// ErrBusy is returned for a message sent while the agent runs.
var ErrBusy = errors.New("the agent is already running")

// ErrFull is returned when a session's log has no room for another run.
var ErrFull = errors.New("this conversation is too long; start a new one")

// ErrClosed is returned once the agent is closed.
var ErrClosed = errors.New("the agent is shutting down")

// Session is one conversation of the demo agent. Its events go, in order,
// into a state.Store (which says what the run has open: status, tools,
// pending approval, as the client sees it), then into the data file; only
// stored events are sent to subscribers, so a client never holds an event
// the server could lose.
//
// Every field below mu is guarded by it.
type Session struct {
	ID    string
	agent *Agent

	mu      sync.Mutex
	stored  *sync.Cond   // signalled when durable grows
	store   *state.Store // every event emitted, stored or not
	count   int          // events in the log: the newest id
	bytes   int64        // their size
	durable int          // events stored and sent: ids 1..durable
	pending [][]byte     // events durable+1..count, on their way to the file
	// announced counts the pending events sent to subscribers before they
	// were stored: those that close a run when the file cannot be written
	// (storage.go).
	announced int
	// lost counts the failed writes that dropped events or stopped a run,
	// lostErr says why: a command waiting for its events learns it.
	lost    int
	lostErr error
	status  state.AgentStatus // after event durable: what clients can know

	inFile     bool      // the data file has this session
	gone       bool      // it had it, and it expired; nothing new since
	used       time.Time // last use
	usedStored time.Time // last use as the data file has it

	// Who may list it (GET /api/sessions): the hash of its creator's owner
	// cookie ("" for nobody), its title and times (owner.go).
	owner   string
	title   string
	created time.Time
	updated time.Time // its last message
	// version counts changes besides events (an unlisting); savedVersion
	// is the one the data file has.
	version      int
	savedVersion int

	refs    int  // connections and the run holding the session in memory
	running *run // the run in progress, nil when none
	subs    map[chan []byte]struct{}
	gate    chan struct{} // Agent.Release opens the next {"wait": "gate"}
}

// run is one scenario playing.
type run struct {
	cancel context.CancelFunc
	// answered wakes the run when an answer resolved an approval; the run
	// checks which (a wake can outlive its approval).
	answered chan struct{}
	done     chan struct{} // closed when its goroutine has returned
	// skip holds the tools whose result the user's decision replaced (a
	// rejected or timed-out tool never runs). Guarded by Session.mu.
	skip map[string]bool
	// outcome is how the last approval wait ended (Outcomes): the lines of
	// the scenario with a "when" play by it. Guarded by Session.mu.
	outcome string
}

type approvalAnswer struct {
	key       string
	answers   map[string]string
	decisions []wire.Decision
}

func newSession(a *Agent, id string) *Session {
	s := &Session{
		ID:     id,
		agent:  a,
		store:  state.New(state.Options{}),
		status: state.StatusIdle,
		subs:   map[chan []byte]struct{}{},
		gate:   make(chan struct{}, 64),
	}
	s.stored = sync.NewCond(&s.mu)
	return s
}

// emitLocked gives an event the next id, applies it to the session's store
// and queues it for the data file (which sends it on once stored). The
// caller holds s.mu.
func (s *Session) emitLocked(ev map[string]any) {
	if s.count >= 2*MaxEventsPerSession || s.bytes >= 2*MaxSessionBytes {
		// The admission in start keeps runs far below this; reaching it is a bug.
		log.Printf("demo: session %s: log over twice its limit; event dropped", s.ID)
		return
	}
	ev["event_id"] = strconv.Itoa(s.count + 1)
	raw, err := json.Marshal(ev)
	if err != nil {
		log.Printf("demo: session %s: %v", s.ID, err)
		return
	}
	raw = validText(raw) // a json.RawMessage is copied as it is
	s.count++
	s.bytes += int64(len(raw))
	s.pending = append(s.pending, raw)
	s.store.ApplyJSON(raw)
	s.gone = false
	s.agent.markDirty(s)
}

// stored marks the first n pending events as stored with the status after
// them, and sends them to the subscribers. Called by the writer.
func (s *Session) storedLocked(n int, status state.AgentStatus, used time.Time, version int) {
	events := s.pending[:n]
	s.pending = s.pending[n:]
	s.durable += n
	s.status = status
	s.inFile = true
	s.usedStored = used
	s.savedVersion = max(s.savedVersion, version)
	for i, raw := range events {
		if i >= s.announced {
			s.sendLocked(raw)
		}
	}
	s.announced = max(0, s.announced-n)
	s.stored.Broadcast()
}

// sendLocked hands an event to every subscriber. The caller holds s.mu.
func (s *Session) sendLocked(raw []byte) {
	for ch := range s.subs {
		select {
		case ch <- raw:
		default: // too slow: drop it; it resumes from its last id
			close(ch)
			delete(s.subs, ch)
		}
	}
}

// waitStored waits until the events emitted so far, and the changes made
// to the session besides them, are in the data file (or were sent, when
// the file cannot be written: storage.go). It fails when they cannot be.
func (s *Session) waitStored() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	want, wantVersion, lost := s.count, s.version, s.lost
	for s.durable+s.announced < want || s.savedVersion < wantVersion {
		switch {
		case s.agent.closed.Load():
			return ErrClosed
		case s.lost != lost:
			return s.lostErr
		}
		if err := s.agent.storageErr(); err != nil {
			return err
		}
		s.stored.Wait()
	}
	return nil
}

// Subscription is a session's stream from a client's last event id: the
// backlog (NextBacklog), then the live events.
type Subscription struct {
	// Reset, when not nil, is the reset frame to send first
	// (docs/protocol-extensions.md#the-reset-frame): the client's id is
	// beyond the log, and the backlog is empty.
	Reset []byte
	Live  <-chan []byte // closed when the subscriber fell behind
	// Cancel ends the subscription and lets go of the backlog piece held.
	Cancel func()

	s        *Session
	next     int      // the backlog's next event id to read from the file
	stored   int      // the last one there
	unstored [][]byte // then these, sent unstored (storage.go)
	held     int64    // the size of the piece NextBacklog returned last
}

// Backlog pieces: a subscriber holds one at a time, so a thousand of them
// on long logs hold a thousand pieces, never a thousand logs.
const (
	backlogPieceEvents = 256
	backlogPieceBytes  = 256 << 10
)

// NextBacklog returns the next piece of the backlog, read from the data
// file, or nil once it is all given. The piece it returned before is let
// go of.
func (sub *Subscription) NextBacklog() ([][]byte, error) {
	sub.release()
	var piece [][]byte
	if sub.next <= sub.stored {
		var last int
		var err error
		if piece, last, err = readPiece(sub.s.agent.db, sub.s.ID, sub.next, sub.stored, backlogPieceEvents, backlogPieceBytes); err != nil {
			return nil, err
		}
		sub.next = last + 1
		if len(piece) == 0 {
			// The file has fewer events than the session counts (it was
			// damaged): what it has is all there is.
			sub.next = sub.stored + 1
		}
	}
	if len(piece) == 0 {
		piece, sub.unstored = sub.unstored, nil
	}
	for _, ev := range piece {
		sub.held += int64(len(ev))
	}
	sub.s.agent.backlogHeld.Add(sub.held)
	return piece, nil
}

func (sub *Subscription) release() {
	sub.s.agent.backlogHeld.Add(-sub.held)
	sub.held = 0
}

// Subscribe returns the events after the client's last event id, then the
// live ones, with no gap and no overlap. lastEventID is as the client sent
// it ("" for none); ids compare as integers, a negative one meaning "from
// the start", a non-numeric one sorting after every id the log has.
func (s *Session) Subscribe(lastEventID string) (*Subscription, error) {
	s.mu.Lock()
	stored := s.durable
	upto := stored + s.announced // what clients may have
	from, beyond := resumePoint(lastEventID, upto)
	sub := &Subscription{}
	switch {
	case beyond || (s.gone && upto == 0):
		reason := "unknown_event_id"
		if upto == 0 {
			reason = "session_gone"
		}
		sub.Reset = resetFrame(upto, reason)
		from = upto
	}
	// The events sent unstored (storage.go) come from memory.
	var unstored [][]byte
	if from < upto && upto > stored {
		unstored = slices.Clone(s.pending[max(from-stored, 0):s.announced])
	}
	ch := make(chan []byte, MaxSubscriberLag)
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	sub.Live = ch
	sub.Cancel = func() {
		sub.release()
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.subs[ch]; ok {
			delete(s.subs, ch)
			close(ch)
		}
	}
	// Events up to stored are in the file and never change: NextBacklog
	// reads them unlocked.
	sub.s, sub.next, sub.stored, sub.unstored = s, from+1, stored, unstored
	return sub, nil
}

// resumePoint returns the number of events a client with that last id has
// seen, or beyond when it claims more than the log holds.
func resumePoint(last string, logLen int) (seen int, beyond bool) {
	if last == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(last, 10, 64)
	switch {
	case err == nil:
	case errors.Is(err, strconv.ErrRange):
		if n < 0 {
			return 0, false
		}
		return logLen, true
	default:
		return logLen, true // not an integer: after every id we give
	}
	if n <= 0 {
		return 0, false
	}
	if n > int64(logLen) {
		return logLen, true
	}
	return int(n), false
}

// resetFrame is the reset frame (docs/protocol-extensions.md#the-reset-frame):
// the newest id the server has (null when none) and why it cannot resume.
func resetFrame(newest int, reason string) []byte {
	var last any
	if newest > 0 {
		last = strconv.Itoa(newest)
	}
	b, _ := json.Marshal(map[string]any{"type": "reset", "last_event_id": last, "reason": reason})
	return b
}

// Status returns the agent status as the stored events say.
func (s *Session) Status() state.AgentStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// history is the history response of a session with that status.
//
// The demo agent keeps only its event log, so its history carries no
// messages and no last_event_id: the client subscribes from the start and
// the stream replays every event, which builds exactly the same items
// (PROTOCOL.md section 4 leaves the split between history and stream to
// the backend).
func history(id string, status state.AgentStatus) map[string]any {
	return map[string]any{
		"session_id":       id,
		"agent_status":     string(status),
		"last_event_id":    nil,
		"messages":         []any{},
		"pending_approval": nil,
	}
}

// touchLocked records a use; the data file hears of it at most hourly.
func (s *Session) touchLocked(now time.Time) {
	s.used = now
	if s.inFile && now.Sub(s.usedStored) > time.Hour {
		s.agent.markDirty(s)
	}
}
