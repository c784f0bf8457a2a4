package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"stepwise/state"
	"stepwise/state/wire"
)

// MaxSessions bounds the sessions kept in memory; the least recently used
// idle ones go first.
const MaxSessions = 1000

// Agent is the demo agent: it keeps sessions and plays scenarios in them.
type Agent struct {
	scenarios Scenarios
	// Speed divides every pause of the scenarios (tests play them fast); 0 is 1.
	Speed float64

	mu       sync.Mutex
	sessions map[string]*Session
}

// NewAgent returns an agent that plays these scenarios.
func NewAgent(sc Scenarios) *Agent {
	return &Agent{scenarios: sc, sessions: map[string]*Session{}}
}

// Scenarios returns the agent's scenarios.
func (a *Agent) Scenarios() Scenarios { return a.scenarios }

// Session returns the session with that id, creating it when new.
func (a *Agent) Session(id string) *Session {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.sessions[id]; s != nil {
		return s
	}
	if len(a.sessions) >= MaxSessions {
		a.evictLocked()
	}
	s := newSession(id)
	a.sessions[id] = s
	return s
}

// evictLocked forgets the least recently used idle sessions, a tenth of them.
func (a *Agent) evictLocked() {
	type aged struct {
		id   string
		used time.Time
	}
	var idle []aged
	for id, s := range a.sessions {
		s.mu.Lock()
		if s.running == nil && len(s.subs) == 0 {
			idle = append(idle, aged{id, s.lastUsed})
		}
		s.mu.Unlock()
	}
	sort.Slice(idle, func(i, j int) bool { return idle[i].used.Before(idle[j].used) })
	for i := 0; i < len(idle) && i < MaxSessions/10+1; i++ {
		delete(a.sessions, idle[i].id)
	}
}

// Handle carries out a client frame: a message starts a scenario, an
// approval answers the pending one, stop ends the run.
func (a *Agent) Handle(s *Session, f wire.ClientFrame) error {
	switch f.Type {
	case "user_message":
		return a.start(s, f.Text())
	case "approval":
		return s.answer(approvalAnswer{key: f.ApprovalKey, answers: f.Answers, decisions: f.Decisions})
	case "stop":
		s.stop()
		return nil
	case "subscribe":
		return nil
	}
	return fmt.Errorf("unknown frame type %q", f.Type)
}

// start echoes the user's message into the stream and plays the scenario
// it names ("/NAME"), or the default one.
func (a *Agent) start(s *Session, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return errors.New("empty message")
	}
	name := DefaultScenario
	if rest, ok := strings.CutPrefix(text, "/"); ok {
		name = strings.Fields(rest + " ")[0]
		if a.scenarios[name] == nil {
			return fmt.Errorf("no scenario %q (try %s)", name, strings.Join(a.scenarios.Names(), ", "))
		}
	}
	sc := a.scenarios[name]
	if sc == nil {
		return fmt.Errorf("no scenario %q", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != nil {
		return ErrBusy
	}
	if len(s.log)+len(sc.Steps)+2 > MaxEventsPerSession {
		return ErrFull
	}
	s.runs++
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, approval: make(chan approvalAnswer, 1), open: map[string]bool{},
		byName: map[string][]string{}, done: make(chan struct{})}
	s.running = r
	s.emitLocked(map[string]any{"type": "user_message", "content": []any{map[string]any{"type": "text", "text": text}}})
	speed := a.Speed
	if speed <= 0 {
		speed = 1
	}
	go s.play(ctx, r, sc, fmt.Sprintf(".%d", s.runs), speed)
	return nil
}

// answer delivers the client's answer to the run waiting for it.
func (s *Session) answer(ans approvalAnswer) error {
	s.mu.Lock()
	r := s.running
	s.mu.Unlock()
	if r == nil || r.pending == "" || r.pending != ans.key {
		return fmt.Errorf("no pending approval %q", ans.key)
	}
	select {
	case r.approval <- ans:
		return nil
	default:
		return errors.New("this approval is already answered")
	}
}

// stop ends the run at once: running tools are cancelled and a
// terminal_user_stopped block closes the turn.
func (s *Session) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.running
	if r == nil || r.stopped {
		return
	}
	r.stopped = true
	r.cancel()
	ids := make([]string, 0, len(r.open))
	for id := range r.open {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for i, id := range ids {
		idx := 100_000 + i
		s.emitLocked(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
			"type": "tool_result", "tool_use_id": id, "content": "", "status": "cancelled"}})
		s.emitLocked(map[string]any{"type": "content_block_stop", "index": idx})
	}
	s.emitLocked(map[string]any{"type": "terminal_user_stopped"})
	s.running = nil
}

// play sends the scenario's events with their pacing. suffix makes tool
// ids and approval keys unique to this run.
func (s *Session) play(ctx context.Context, r *run, sc *Scenario, suffix string, speed float64) {
	defer close(r.done)
	defer func() {
		s.mu.Lock()
		if s.running == r {
			s.running = nil
			if s.status == state.StatusRunning {
				s.status = state.StatusIdle
			}
		}
		s.mu.Unlock()
	}()
	skip := map[string]bool{} // tools whose result the user's decision replaced
	var timeout time.Duration
	for _, st := range sc.Steps {
		switch {
		case st.SleepMs > 0:
			if !sleep(ctx, time.Duration(float64(st.SleepMs)/speed*float64(time.Millisecond))) {
				return
			}
		case len(st.Event) > 0:
			var ev map[string]any
			if json.Unmarshal(st.Event, &ev) != nil {
				continue
			}
			rewriteIDs(ev, suffix)
			s.mu.Lock()
			if r.stopped {
				s.mu.Unlock()
				return
			}
			if id, ok := resultFor(ev); ok && skip[id] {
				s.mu.Unlock()
				continue
			}
			r.track(ev, &timeout)
			s.emitLocked(ev)
			s.mu.Unlock()
		case st.Wait == "approval":
			if !s.await(ctx, r, timeout, skip) {
				return
			}
		}
	}
}

// await waits for the answer to the pending approval, then sends its
// approval_result (or approval_timeout). It returns false when the run ended.
func (s *Session) await(ctx context.Context, r *run, timeout time.Duration, skip map[string]bool) bool {
	s.mu.Lock()
	key := r.pending
	s.mu.Unlock()
	if key == "" {
		return true
	}
	if timeout <= 0 {
		timeout = state.DefaultTimeoutSeconds * time.Second
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var ans approvalAnswer
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.stopped {
			return false
		}
		r.pending = ""
		s.emitLocked(map[string]any{"type": "approval_timeout", "approval_key": key})
		// A timed-out tool never runs.
		for id := range r.awaiting {
			skip[id] = true
			delete(r.open, id)
		}
		return true
	case ans = <-r.approval:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.stopped {
		return false
	}
	r.pending = ""
	ev := map[string]any{"type": "approval_result", "approval_key": key}
	if ans.answers != nil {
		ev["answers"] = ans.answers
	} else {
		ev["decisions"] = ans.decisions
		// Rejected or answered-in-place tools do not run: drop their results.
		for i, d := range ans.decisions {
			if (d.Type == "reject" || d.Type == "respond") && i < len(r.awaitingOrder) {
				id := r.awaitingOrder[i]
				skip[id] = true
				delete(r.open, id)
			}
		}
	}
	s.emitLocked(ev)
	return true
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
