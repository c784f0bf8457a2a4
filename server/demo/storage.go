package demo

import (
	"errors"
	"log"
	"syscall"

	bolt "go.etcd.io/bbolt"

	"stepwise/state"
)

// When the data file cannot be written (a full disk, most often), a run
// that goes on stores nothing and shows nothing: its events go to clients
// only once stored. So the first failed write stops every run with a
// terminal_error that says why, sends a command waiting for its events a
// refusal (the message comes back to the composer), and new work is
// refused until a write succeeds again (the writer keeps trying). A server
// started on a full disk starts so: it serves what the file holds.
//
// Events no client has been sent are dropped (clients never hold an event
// the file could lose); the events that close a run are sent at once,
// stored or not, since the reader must learn that the run ended. Should
// the server stop before they are stored, the next start closes the run
// again with the same ids (the same cancelled results, then a
// terminal_error that says the agent restarted), so no client ever holds
// an id the log gives to something else.

// ErrStorage is the refusal while the data file cannot be written.
var ErrStorage = errors.New("storage unavailable")

// storageError says why nothing can be saved, for the reader.
type storageError struct{ cause error }

func (e *storageError) Error() string {
	if errors.Is(e.cause, syscall.ENOSPC) {
		return "The server's disk is full: nothing new can be saved. Try again once space is freed."
	}
	return "The server cannot save conversations (" + e.cause.Error() + "): nothing new can be saved. Try again later."
}

func (e *storageError) Unwrap() []error { return []error{ErrStorage, e.cause} }

// batchWriter writes batches to the data file in one transaction; a test
// puts a failing one in front of it (Options.wrapWriter).
type batchWriter interface {
	writeBatches([]batch) error
}

type boltWriter struct{ db *bolt.DB }

func (w boltWriter) writeBatches(b []batch) error { return writeBatches(w.db, b) }

// storageErr returns the error that keeps the data file from being
// written, nil when it can be.
func (a *Agent) storageErr() error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	return a.writeErr
}

// storageFailed records a failed write; the first stops every run.
func (a *Agent) storageFailed(cause error) {
	a.wmu.Lock()
	first := a.writeErr == nil
	if first {
		a.writeErr = &storageError{cause: cause}
	}
	err := a.writeErr
	a.wmu.Unlock()
	if !first {
		return
	}
	log.Printf("demo: the data file cannot be written: %v; runs stopped, new work refused until a write succeeds", cause)
	a.mu.Lock()
	sessions := make([]*Session, 0, len(a.sessions))
	for _, s := range a.sessions {
		sessions = append(sessions, s)
	}
	a.mu.Unlock()
	for _, s := range sessions {
		s.mu.Lock()
		s.storageFailedLocked(err)
		s.mu.Unlock()
	}
}

// storageRecovered clears the failure once a write succeeded.
func (a *Agent) storageRecovered() {
	a.wmu.Lock()
	was := a.writeErr
	a.writeErr = nil
	a.wmu.Unlock()
	if was != nil {
		log.Printf("demo: the data file can be written again")
	}
}

// storageFailedLocked stops the session's run and drops what no client
// has been sent; a run that clients saw running is closed, and the events
// that close it are sent at once. The caller holds s.mu.
func (s *Session) storageFailedLocked(err error) {
	if r := s.running; r != nil {
		r.cancel()
		s.running = nil
	}
	if dropped := len(s.pending) - s.announced; dropped > 0 {
		s.rollBackLocked()
	}
	if s.store.Status() == state.StatusRunning {
		s.cancelOpenToolsLocked()
		s.emitLocked(map[string]any{"type": "terminal_error", "error": map[string]any{"type": "storage_unavailable", "message": err.Error()}})
	}
	s.announceLocked()
	s.lost++
	s.lostErr = err
	s.stored.Broadcast()
}

// rollBackLocked drops the pending events no client has been sent and
// rebuilds the store from the others. The caller holds s.mu.
func (s *Session) rollBackLocked() {
	keep := s.pending[:s.announced]
	for _, ev := range s.pending[s.announced:] {
		s.bytes -= int64(len(ev))
	}
	s.pending = keep
	s.count = s.durable + len(keep)
	if s.count == 0 && !s.inFile {
		s.agent.sessionsGone(1) // its first message is gone: it was never made
	}
	st := state.New(state.Options{})
	if s.durable > 0 {
		stored, err := readEvents(s.agent.db, s.ID, 0, s.durable)
		if err != nil {
			log.Printf("demo: session %s: %v", s.ID, err)
		}
		for _, ev := range stored {
			st.ApplyJSON(ev)
		}
	}
	for _, ev := range keep {
		st.ApplyJSON(ev)
	}
	s.store = st
}

// announceLocked sends the pending events no client has yet to the
// subscribers, stored or not. The caller holds s.mu.
func (s *Session) announceLocked() {
	for _, raw := range s.pending[s.announced:] {
		s.sendLocked(raw)
	}
	s.announced = len(s.pending)
	s.status = s.store.Status()
}
