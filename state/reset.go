package state

import "stepwise/state/wire"

// KindNotice is a notice item (REPLAY.md): a short line about the
// conversation itself, not from the agent.
const KindNotice Kind = "notice"

// NoticeReset is the reason of the notice a Reset adds: the connection to
// the agent was reset and the rest of the run was lost.
const NoticeReset = "reset"

// Notice is a notice item's content.
type Notice struct {
	Reason string // what happened: NoticeReset, ...
	Detail string // more about it, from the backend; may be empty
	// Category is a refusal's policy category (stop_details.category:
	// cyber, bio, ...), which the UI words for the reader; "" when none.
	Category string
}

type viewNotice struct {
	viewBase
	Reason string  `json:"reason"`
	Detail *string `json:"detail"` // null when there is none
	// Category is a refusal's stop_details.category, when sent.
	Category string `json:"category,omitempty"`
}

// Reset handles the server's reset frame
// (docs/protocol-extensions.md#the-reset-frame): the server could not
// resume after the last event this store saw (it restarted and lost its
// log, or the session expired). h is the history loaded after the frame
// (nil when it could not be loaded); last is the frame's last_event_id.
//
// A history with messages replaces what is shown; one without (a backend
// that replays from its stream) leaves it. Unless the history says the
// agent runs, what the page was waiting for ends: the open group closes,
// tools without a result are interrupted, pending questions and approvals
// expire, and a notice item says the run's remaining steps were lost. Events are then taken
// after the history's last id when it has messages, else after last, so
// the server's next events are not dropped for their smaller ids.
func (s *Store) Reset(h *wire.History, last wire.EventID) Changes {
	return s.ResetLoaded(h, nil, last)
}

// ResetLoaded is Reset with h already loaded into loaded, a store of its
// own (New with this store's options, then LoadHistory or
// LoadHistoryPaced), so that a long history is not loaded while the page
// waits; with loaded nil, it loads h itself.
func (s *Store) ResetLoaded(h *wire.History, loaded *Store, last wire.EventID) Changes {
	wasRunning := s.status == StatusRunning
	status := StatusIdle
	replaced := h != nil && len(h.Messages) > 0
	if replaced {
		if loaded != nil {
			*s = *loaded // with its set of changes
		} else {
			s.LoadHistory(h) // also starts a new set of changes
		}
		if id, ok := wire.ParseEventID(h.LastEventID); ok {
			last = id
		}
	} else {
		s.begin()
	}
	if h != nil {
		status = parseStatus(h.AgentStatus)
	}
	switch {
	case status == StatusRunning:
	case replaced && wasRunning:
		s.addResetNotice() // the history settled the run and its approvals
	case !replaced && (wasRunning || len(s.pending) > 0):
		s.endRun(status)
	}
	s.lastID = last
	s.changes.List, s.changes.Status, s.changes.Pending = true, true, true
	return s.changes
}

// endRun closes a run whose end will never come, and the questions and
// approvals nobody can answer any more, with a reset notice.
func (s *Store) endRun(status AgentStatus) {
	for len(s.pending) > 0 {
		s.expire(s.pending[0], ToolInterrupted)
	}
	clear(s.blocks)
	s.stopReason = ""
	s.dialectText = nil
	s.addResetNotice()  // closes the open group
	s.setStatus(status) // interrupts the tools still active
	s.endTurn()
}

func (s *Store) addResetNotice() {
	it := s.newItem(KindNotice)
	it.Notice = &Notice{Reason: NoticeReset}
	brand := s.brandPending // a notice is not the agent's: it never takes the brand
	s.brandPending = false
	s.standalone(it)
	s.brandPending = brand
}
