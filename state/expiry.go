package state

import "time"

// Cards that expire: an AG-UI interrupt's expiresAt is when the agent
// stops waiting for its answer (@ag-ui/client refuses to send an answer to
// one after that: it can only be cancelled). The page's countdown reaches
// it (CardsExpired, local.go).

// expireDue expires every card still waiting whose expiresAt is not after
// now: the card says so and takes no answer; its interrupt is cancelled
// with the next run. ready reports that the cards the agent waits on are
// now all answered or expired, with at least one answered: the answers
// can go (AnswersSent).
func (s *Store) expireDue(now time.Time) (changes Changes, ready bool) {
	s.begin()
	st := &s.dialectState().agui
	expired := false
	for i := range st.conv.Interrupts {
		oi := &st.conv.Interrupts[i]
		it := s.approvals[oi.ID]
		if oi.Status != "" || it == nil || !isPendingCard(it) {
			continue
		}
		if t, err := time.Parse(time.RFC3339, oi.ExpiresAt); err == nil && !t.After(now) {
			s.expire(it, ToolError)
			oi.Status = "cancelled"
			expired = true
		}
	}
	if !expired {
		return s.changes, false
	}
	answered := false
	for _, oi := range st.conv.Interrupts {
		answered = answered || oi.Status == "resolved"
	}
	return s.changes, answered && st.allAnswered()
}
