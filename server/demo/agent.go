package demo

import (
	"cmp"
	"errors"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"stepwise/state"
	"stepwise/state/wire"
)

// DefaultMaxAge is how long an unused session is kept.
const DefaultMaxAge = 30 * 24 * time.Hour

// RestartMessage ends, at start-up, a run the server was playing when it
// stopped.
const RestartMessage = "The agent was restarted; the rest of this run was lost. Send your message again."

// Options configure an Agent.
type Options struct {
	// MaxAge is how long a session may go unused before it is deleted;
	// 0 is DefaultMaxAge.
	MaxAge time.Duration
	// MaxSessions bounds the sessions the data file holds; a new one is
	// refused beyond it, until others expire. 0: no limit.
	MaxSessions int
	// ClientSessionsPerHour bounds the new sessions one client (ClientOf)
	// starts in an hour. 0: no limit.
	ClientSessionsPerHour int
	// FilesDir is where the files people attach are kept: PATH.files
	// beside the data file when empty (files.go).
	FilesDir string
	// Uploads bound them.
	Uploads UploadLimits
	// SetAsideDamaged moves a damaged data file (DamagedError) out of the
	// way, to PATH.damaged-TIME, and starts with an empty one; without it
	// Open fails with the DamagedError.
	SetAsideDamaged bool

	// Tests: a writer in front of the data file's, and how often a failed
	// write is tried again (storageRetry when 0).
	wrapWriter func(batchWriter) batchWriter
	retryEvery time.Duration
}

// storageRetry is how often the writer tries again while the data file
// cannot be written.
const storageRetry = 5 * time.Second

// Agent is the demo agent: it keeps sessions in a data file and plays
// scenarios in them.
//
// Sessions in use (a connection, a run) are held in memory; the others
// live in the file only. Nothing a client can do evicts another session:
// sessions go only when unused for MaxAge.
type Agent struct {
	scenarios Scenarios
	// Speed divides every pause of the scenarios (tests play them fast); 0 is 1.
	Speed float64

	maxAge time.Duration
	now    func() time.Time // the clock; tests move it
	db     *bolt.DB

	mu       sync.Mutex
	sessions map[string]*Session // the sessions in memory

	// backlogHeld is the size of the backlog pieces subscribers hold.
	backlogHeld atomic.Int64

	lmu    sync.Mutex // guards limits; taken last
	limits sessionLimits
	closed atomic.Bool
	runs   sync.WaitGroup

	files *fileStore // the files people attach (files.go)

	out        batchWriter
	retryEvery time.Duration
	wmu        sync.Mutex // guards dirty and writeErr
	dirty      map[*Session]struct{}
	writeErr   error // why the data file cannot be written (storage.go); nil when it can
	wake       chan struct{}
	quit       chan struct{}
	writerDone chan struct{}
	sweepDone  chan struct{}
}

// Open opens (or creates) the data file at path and returns an agent that
// plays these scenarios. Runs the file shows as still running (the server
// stopped in the middle of them) are closed first
// (docs/protocol-extensions.md#the-demo-agent). A damaged data file is a
// DamagedError, unless Options.SetAsideDamaged.
func Open(path string, sc Scenarios, opts Options) (_ *Agent, err error) {
	db, readOnly, err := openDB(path)
	var damaged *DamagedError
	if errors.As(err, &damaged) && opts.SetAsideDamaged {
		if _, err := setAside(path, time.Now()); err != nil {
			return nil, fmt.Errorf("data file %s: %w", path, err)
		}
		db, readOnly, err = openDB(path)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil { // a page of the file bbolt cannot read
			db.Close()
			err = &DamagedError{path, fmt.Errorf("%v", p)}
		}
	}()
	a := &Agent{
		scenarios:  sc,
		maxAge:     opts.MaxAge,
		now:        time.Now,
		db:         db,
		out:        boltWriter{db},
		retryEvery: cmp.Or(opts.retryEvery, storageRetry),
		limits:     sessionLimits{max: opts.MaxSessions, perHour: opts.ClientSessionsPerHour},
		sessions:   map[string]*Session{},
		dirty:      map[*Session]struct{}{},
		wake:       make(chan struct{}, 1),
		quit:       make(chan struct{}),
		writerDone: make(chan struct{}),
		sweepDone:  make(chan struct{}),
	}
	if a.maxAge <= 0 {
		a.maxAge = DefaultMaxAge
	}
	filesDir := opts.FilesDir
	if filesDir == "" {
		filesDir = path + ".files"
	}
	a.files = newFileStore(filesDir, opts.Uploads, func() time.Time { return a.now() })
	if opts.wrapWriter != nil {
		a.out = opts.wrapWriter(a.out)
	}
	if readOnly != nil {
		a.storageFailed(readOnly)
	}
	if err := a.closeInterruptedRuns(); err != nil {
		db.Close()
		return nil, err
	}
	if a.storageErr() == nil {
		if _, err := a.sweep(); err != nil {
			log.Printf("demo: expiring sessions: %v", err)
		}
	}
	if a.limits.live, err = countSessions(db); err != nil {
		db.Close()
		return nil, err
	}
	go a.writer()
	go a.sweeper()
	return a, nil
}

// Close ends the runs in progress (the next Open closes them in the file),
// stores what is pending and closes the data file.
func (a *Agent) Close() error {
	if a.closed.Swap(true) {
		return nil
	}
	a.mu.Lock()
	for _, s := range a.sessions {
		s.mu.Lock()
		if s.running != nil {
			s.running.cancel()
		}
		s.stored.Broadcast() // waitStored returns ErrClosed
		s.mu.Unlock()
	}
	a.mu.Unlock()
	a.runs.Wait()
	close(a.quit)
	<-a.writerDone
	<-a.sweepDone
	return a.db.Close()
}

// Scenarios returns the agent's scenarios.
func (a *Agent) Scenarios() Scenarios { return a.scenarios }

// Attach returns the session with that id, held in memory until Detach; a
// session the data file does not have starts empty and is stored with its
// first event.
func (a *Agent) Attach(id string) (*Session, error) {
	if a.closed.Load() {
		return nil, ErrClosed
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[id]
	if s == nil {
		var err error
		if s, err = a.load(id); err != nil {
			return nil, err
		}
		a.sessions[id] = s
	}
	s.mu.Lock()
	s.refs++
	s.touchLocked(a.now())
	s.mu.Unlock()
	return s, nil
}

// Detach releases a session Attach returned.
func (s *Session) Detach() {
	s.mu.Lock()
	s.refs--
	s.mu.Unlock()
	s.agent.unloadIfUnused(s)
}

// load reads a session from the data file, replaying its events into its
// store. The caller holds a.mu.
func (a *Agent) load(id string) (*Session, error) {
	s := newSession(a, id)
	st, err := readSession(a.db, id)
	if err != nil {
		return nil, err
	}
	s.gone = st.gone
	if !st.found {
		return s, nil
	}
	for _, ev := range st.events {
		s.store.ApplyJSON(ev)
		s.bytes += int64(len(ev))
	}
	s.count = len(st.events)
	s.durable = s.count
	s.status = s.store.Status()
	s.inFile = true
	s.usedStored = time.Unix(st.meta.Used, 0)
	s.used = s.usedStored
	s.owner, s.title = st.meta.Owner, st.meta.Title
	s.created, s.updated = timeOrZero(st.meta.Created), timeOrZero(st.meta.Updated)
	return s, nil
}

// unloadIfUnused drops a session from memory when nothing holds it and
// the data file has all of it.
func (a *Agent) unloadIfUnused(s *Session) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refs > 0 || s.running != nil || len(s.pending) > 0 || a.sessions[s.ID] != s {
		return
	}
	a.wmu.Lock()
	_, dirty := a.dirty[s]
	a.wmu.Unlock()
	if !dirty {
		delete(a.sessions, s.ID)
	}
}

// History is the session's history response. It creates nothing: an
// unknown session is an empty, idle one.
func (a *Agent) History(id string) (map[string]any, error) {
	a.mu.Lock()
	if s := a.sessions[id]; s != nil {
		s.mu.Lock()
		s.touchLocked(a.now())
		status := s.status
		s.mu.Unlock()
		a.mu.Unlock()
		return history(id, status), nil
	}
	a.mu.Unlock()
	meta, ok, err := readMeta(a.db, id)
	if err != nil || !ok {
		return history(id, state.StatusIdle), err
	}
	return history(id, state.AgentStatus(meta.Status)), nil
}

// Events returns the session's stored events (those its clients can have).
func (a *Agent) Events(id string) ([][]byte, error) {
	a.mu.Lock()
	upto := -1
	if s := a.sessions[id]; s != nil {
		s.mu.Lock()
		upto = s.durable
		s.mu.Unlock()
	}
	a.mu.Unlock()
	if upto < 0 {
		st, err := readSession(a.db, id)
		return st.events, err
	}
	return readEvents(a.db, id, 0, upto)
}

// Release opens the gate ({"wait": "gate"}) the session's run waits at, or
// the next one it reaches. It reports whether the session is in memory.
func (a *Agent) Release(sessionID string) bool {
	a.mu.Lock()
	s := a.sessions[sessionID]
	a.mu.Unlock()
	if s == nil {
		return false
	}
	select {
	case s.gate <- struct{}{}:
	default:
	}
	return true
}

// Handle carries out a client frame: a message starts a scenario, an
// approval answers the pending one, stop ends the run. It returns once
// what the frame caused is in the data file. A session Handle creates is
// listed for nobody (HandleFrom names its owner).
func (a *Agent) Handle(s *Session, f wire.ClientFrame) error {
	return a.HandleFrom(s, Caller{}, f)
}

// HandleFrom is Handle for that caller: a message that creates the session
// makes it the caller's owner's, listed by List(owner), and counts against
// the caller's client's limit (Options.ClientSessionsPerHour).
func (a *Agent) HandleFrom(s *Session, c Caller, f wire.ClientFrame) error {
	var err error
	switch f.Type {
	case "user_message":
		err = a.message(s, c, f)
	case "regenerate":
		err = a.regenerate(s, c, f.MessageID)
	case "select_branch":
		err = a.selectBranch(s, f.MessageID)
	case "feedback":
		err = a.feedback(s, f)
	case "approval":
		if err = a.storageErr(); err == nil {
			err = s.answer(approvalAnswer{key: f.ApprovalKey, answers: f.Answers, decisions: f.Decisions})
		}
	case "stop":
		s.stop()
	case "subscribe":
	default:
		err = fmt.Errorf("unknown frame type %q", f.Type)
	}
	if err != nil {
		return err
	}
	return s.waitStored()
}

// message starts the run a user's message asks for: its echo, then the
// scenario it names ("/NAME"), an answer about its files, or the default
// scenario (messages.go). The message that creates the session gives it
// its owner and title, and counts against the limits.
func (a *Agent) message(s *Session, c Caller, f wire.ClientFrame) error {
	m, err := a.readMessage(s.ID, f)
	if err != nil {
		return err
	}
	sc, err := a.scenarioFor(s.ID, m)
	if err != nil {
		return err
	}
	return a.launch(s, c, runPlan{user: &m, sc: sc})
}

// closeInterruptedRuns ends the runs the data file shows as running: the
// server stopped while playing them. Their open tools get cancelled
// results and a terminal_error says why, so a client resuming with its
// last id sees the run end.
func (a *Agent) closeInterruptedRuns() error {
	ids, err := runningSessions(a.db)
	if err != nil {
		return err
	}
	var batches []batch
	for _, id := range ids {
		a.mu.Lock()
		s, err := a.load(id)
		a.mu.Unlock()
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.cancelOpenToolsLocked()
		s.emitLocked(map[string]any{"type": "terminal_error", "error": map[string]any{"type": "agent_restarted", "message": RestartMessage}})
		batches = append(batches, s.batchLocked())
		s.mu.Unlock()
	}
	if len(batches) == 0 {
		return nil
	}
	err = a.storageErr()
	if err == nil {
		if err = a.out.writeBatches(batches); err != nil {
			a.storageFailed(err)
		}
	}
	if err != nil {
		// Kept in memory, and sent as they are (storage.go), until the
		// writer stores them.
		a.mu.Lock()
		for _, b := range batches {
			b.s.mu.Lock()
			b.s.announceLocked()
			b.s.mu.Unlock()
			a.sessions[b.s.ID] = b.s
		}
		a.mu.Unlock()
		log.Printf("demo: closed %d run(s) interrupted by the last shutdown, in memory only", len(batches))
		return nil
	}
	log.Printf("demo: closed %d run(s) interrupted by the last shutdown", len(batches))
	a.wmu.Lock()
	clear(a.dirty)
	a.wmu.Unlock()
	return nil
}

// sweep deletes the sessions unused for maxAge (not those in memory),
// then the files of the sessions the data file no longer has.
func (a *Agent) sweep() (int, error) {
	a.mu.Lock()
	n, err := expire(a.db, a.now(), a.maxAge, func(id string) bool { return a.sessions[id] != nil })
	a.sessionsGone(n)
	a.mu.Unlock()
	a.files.sweep(func(id string) bool {
		a.mu.Lock()
		held := a.sessions[id] != nil
		a.mu.Unlock()
		if held {
			return true
		}
		_, ok, err := readMeta(a.db, id)
		return ok || err != nil
	})
	return n, err
}

// UploadLimits are the limits on the files people attach, the defaults
// filled in.
func (a *Agent) UploadLimits() UploadLimits { return a.files.lim }

// sweeper sweeps hourly until Close.
func (a *Agent) sweeper() {
	defer close(a.sweepDone)
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-a.quit:
			return
		case <-t.C:
			if n, err := a.sweep(); err != nil {
				log.Printf("demo: expiring sessions: %v", err)
			} else if n > 0 {
				log.Printf("demo: %d session(s) unused for %v deleted", n, a.maxAge)
			}
		}
	}
}
