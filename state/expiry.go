package state

import "time"

// Cards that expire: an AG-UI interrupt's expiresAt is when the agent
// stops waiting for its answer (@ag-ui/client refuses to send an answer to
// one after that: it can only be cancelled). The page's countdown reaches
// it and calls ExpireDue.

// ExpireDue expires every card still waiting whose expiresAt is not after
// now: the card says so and takes no answer; its interrupt is cancelled
// with the next run. ready reports that the cards the agent waits on are
// now all answered or expired, with at least one answered: the answers
// can go (AGUIRunInput("")).
func (s *Store) ExpireDue(now time.Time) (changes Changes, ready bool) {
	s.begin()
	expired := false
	for _, it := range append([]*Item(nil), s.pending...) {
		at := ""
		switch {
		case it.Form != nil:
			at = it.Form.ExpiresAt
		case it.Approval != nil:
			at = it.Approval.ExpiresAt
		}
		t, err := time.Parse(time.RFC3339, at)
		if err != nil || t.After(now) {
			continue
		}
		key := cardKey(it)
		s.expire(it, ToolError)
		expired = true
		st := s.dialectState()
		for i := range st.agui.conv.Interrupts {
			if oi := &st.agui.conv.Interrupts[i]; oi.ID == key && oi.Status == "" {
				oi.Status = "cancelled"
			}
		}
	}
	if !expired {
		return s.changes, false
	}
	answered := false
	for _, oi := range s.dialectState().agui.conv.Interrupts {
		answered = answered || oi.Status == "resolved"
	}
	return s.changes, answered && s.dialectState().agui.allAnswered()
}

// cardKey is the key a card is answered under.
func cardKey(it *Item) string {
	switch {
	case it.Form != nil:
		return it.Form.ApprovalKey
	case it.Question != nil:
		return it.Question.ApprovalKey
	case it.Approval != nil:
		return it.Approval.ApprovalKey
	}
	return ""
}
