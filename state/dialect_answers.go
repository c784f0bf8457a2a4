package state

import (
	"encoding/json"
	"errors"

	"stepwise/state/wire"
)

// Answers in the AG-UI and AI SDK modes. There, the backend sends no
// approval_result: the card is answered here, the answer is kept with the
// conversation in the protocol's own form, and it goes out with the next
// request (state's AnswersSent, local.go) once every card the agent waits on
// has one.

// CardAnswer is the user's answer to a card: Answers for a question,
// Decisions for an approval (one per action), Values for a form
// (BuildFormValues gives them).
type CardAnswer struct {
	Answers   map[string]string
	Decisions []wire.Decision
	Values    json.RawMessage
}

// ErrNoCard is returned for a key with no card waiting for an answer.
var ErrNoCard = errors.New("no card waits for an answer with this key")

// answerCard answers the card with that key: the card shows the answer and
// the conversation keeps it. ready reports that every card the agent waits
// on now has its answer, so the next request can go (AnswersSent). Decisions are checked as CheckDecisions does.
func (s *Store) answerCard(key string, a CardAnswer) (ready bool, err error) {
	s.begin()
	it := s.approvals[key]
	if it == nil || !isPendingCard(it) {
		return false, ErrNoCard
	}
	var payload json.RawMessage
	switch {
	case it.Form != nil:
		if wire.IsNull(a.Values) {
			return false, errors.New("a form needs its values")
		}
		s.answerForm(it, a.Values)
		payload = a.Values
	case it.Question != nil:
		if a.Answers == nil {
			return false, errors.New("a question needs its answers")
		}
		raw, _ := json.Marshal(a.Answers)
		s.approvalResult(key, raw, nil)
		payload, _ = json.Marshal(map[string]any{"answers": a.Answers})
	default:
		if err := CheckDecisions(it.Approval, a.Decisions); err != nil {
			return false, err
		}
		raw, _ := json.Marshal(a.Decisions)
		s.approvalResult(key, nil, raw)
		payload, _ = json.Marshal(map[string]any{"decisions": a.Decisions})
	}
	st := s.dialectState()
	for i := range st.agui.conv.Interrupts {
		oi := &st.agui.conv.Interrupts[i]
		if oi.ID != key {
			continue
		}
		oi.Status = "resolved"
		oi.Payload = payload
		switch {
		case oi.ClientTool != nil:
			oi.Payload = clientToolResult(oi.ClientTool.Name, oi.ClientTool.Input, a)
		case oi.Legacy == nil && it.Approval != nil:
			oi.Payload = toolInterruptPayload(a.Decisions)
		}
		return st.agui.allAnswered(), nil
	}
	if p := st.ui.clientToolPart(key); p != nil {
		p.State = "output-available"
		p.Output = clientToolResult(partToolName(p), p.Input, a)
		return st.ui.allAnswered(), nil
	}
	if p := st.ui.approvalPart(key); p != nil && len(a.Decisions) > 0 {
		d := a.Decisions[0]
		approved := d.Type == "approve" || d.Type == "edit"
		p.State = "approval-responded"
		p.Approval.Approved = &approved
		p.Approval.Reason = ""
		if !approved {
			p.Approval.Reason = d.Message
		}
		return st.ui.allAnswered(), nil
	}
	return len(s.pending) == 0, nil
}

func isPendingCard(it *Item) bool {
	switch {
	case it.Form != nil:
		return it.Form.State == QuestionPending
	case it.Question != nil:
		return it.Question.State == QuestionPending
	case it.Approval != nil:
		return it.Approval.State == ApprovalPending
	}
	return false
}

// toolInterruptPayload is the answer to an AG-UI tool-call interrupt:
// {approved} and, for an edit, {editedArgs}.
func toolInterruptPayload(decisions []wire.Decision) json.RawMessage {
	out := map[string]any{"approved": false}
	if len(decisions) > 0 {
		d := decisions[0]
		switch d.Type {
		case "approve":
			out["approved"] = true
		case "edit":
			out["approved"] = true
			if d.EditedAction != nil && !wire.IsNull(d.EditedAction.Args) {
				out["editedArgs"] = d.EditedAction.Args
			}
		}
	}
	raw, _ := json.Marshal(out)
	return raw
}

// allAnswered reports that no open interrupt waits for an answer (one that
// cannot be answered here is cancelled with the next run).
func (st *aguiState) allAnswered() bool {
	for _, oi := range st.conv.Interrupts {
		if oi.Status == "" && !oi.Unsupported {
			return false
		}
	}
	return true
}

// approvalPart finds the tool part whose approval has that id.
func (st *uiState) approvalPart(id string) *wire.UIPart {
	for i := len(st.conv.Messages) - 1; i >= 0; i-- {
		for j := range st.conv.Messages[i].Parts {
			p := &st.conv.Messages[i].Parts[j]
			if p.Approval != nil && p.Approval.ID == id {
				return p
			}
		}
	}
	return nil
}

// allAnswered reports that no tool waits for an approval.
func (st *uiState) allAnswered() bool {
	for i := range st.conv.Messages {
		for _, p := range st.conv.Messages[i].Parts {
			if p.State == "approval-requested" || waitsForClient(&p) {
				return false
			}
		}
	}
	return true
}

// WaitingCards reports whether the agent waits on cards the user has not
// answered yet (the composer may say so).
func (s *Store) WaitingCards() bool { return len(s.pending) > 0 }
