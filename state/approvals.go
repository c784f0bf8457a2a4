package state

import (
	"encoding/json"
	"slices"

	"stepwise/state/wire"
)

// QuestionTool is the action name that makes an approval a question form.
const QuestionTool = "ask_user_question"

// DefaultAllowedDecisions are offered when a review config names none, as
// LangChain's human-in-the-loop middleware does.
var DefaultAllowedDecisions = []string{"approve", "edit", "reject"}

// approvalRequest shows an approval or question, or updates the item that
// already has this key.
func (s *Store) approvalRequest(key string, actions []wire.ActionRequest, configs []wire.ReviewConfig, timeout *float64, createdAt string) {
	if it := s.approvals[key]; it != nil {
		s.updateApproval(it, actions, configs, timeout, createdAt)
		return
	}
	it := s.newApprovalItem(key, actions, configs, timeout, createdAt)
	s.approvals[key] = it
	s.pending = append(s.pending, it)
	s.changes.Pending = true
	if it.Kind == KindQuestion {
		s.standalone(it) // rule 4
		return
	}
	s.placeApproval(it)
}

func (s *Store) newApprovalItem(key string, actions []wire.ActionRequest, configs []wire.ReviewConfig, timeout *float64, createdAt string) *Item {
	secs := float64(DefaultTimeoutSeconds)
	if timeout != nil && *timeout > 0 {
		secs = *timeout
	}
	if isQuestion(actions) {
		it := s.newItem(KindQuestion)
		it.Question = &QuestionForm{
			ApprovalKey:    key,
			State:          QuestionPending,
			Questions:      questionsOf(actions),
			TimeoutSeconds: secs,
			CreatedAt:      createdAt,
		}
		return it
	}
	it := s.newItem(KindApproval)
	card := &ApprovalCard{ApprovalKey: key, State: ApprovalPending, TimeoutSeconds: secs, CreatedAt: createdAt}
	card.Actions, card.tools = s.approvalActions(key, actions, configs)
	it.Approval = card
	return it
}

func isQuestion(actions []wire.ActionRequest) bool {
	return slices.ContainsFunc(actions, func(a wire.ActionRequest) bool { return a.Name == QuestionTool })
}

// questionsOf reads the questions of every ask_user_question action and
// adds the free-text option where a question has none (PROTOCOL.md section 5).
func questionsOf(actions []wire.ActionRequest) []wire.Question {
	var qs []wire.Question
	for _, a := range actions {
		if a.Name != QuestionTool {
			continue
		}
		var args struct {
			Questions []wire.Question `json:"questions"`
		}
		if json.Unmarshal(a.Args, &args) != nil {
			continue
		}
		qs = append(qs, args.Questions...)
	}
	for i := range qs {
		if qs[i].Options == nil {
			qs[i].Options = []wire.Option{}
		}
		if !slices.ContainsFunc(qs[i].Options, func(o wire.Option) bool { return o.Input }) {
			qs[i].Options = append(qs[i].Options, wire.Option{Input: true})
		}
	}
	return qs
}

// approvalActions pairs each action with its allowed decisions and the tool
// it concerns, and marks those tools awaiting.
func (s *Store) approvalActions(key string, actions []wire.ActionRequest, configs []wire.ReviewConfig) ([]ApprovalAction, []*Item) {
	out := make([]ApprovalAction, len(actions))
	tools := make([]*Item, len(actions))
	for i, a := range actions {
		args := a.Args
		if wire.IsNull(args) {
			args = emptyObject
		}
		out[i] = ApprovalAction{Name: a.Name, Args: args, Allowed: allowedFor(a.Name, i, configs)}
		if t := s.concernedTool(a.Name); t != nil {
			t.Tool.awaitingKey = key
			s.setToolStatus(t, ToolAwaiting)
			tools[i] = t
		}
	}
	return out, tools
}

// allowedFor finds the review config of action i by name, else by position.
func allowedFor(name string, i int, configs []wire.ReviewConfig) []string {
	for _, c := range configs {
		if c.ActionName == name && len(c.AllowedDecisions) > 0 {
			return c.AllowedDecisions
		}
	}
	if i < len(configs) && configs[i].ActionName == "" && len(configs[i].AllowedDecisions) > 0 {
		return configs[i].AllowedDecisions
	}
	return DefaultAllowedDecisions
}

// placeApproval puts a tool approval right after the last tool it concerns
// (after approvals already there), or where it arrived when it concerns none.
func (s *Store) placeApproval(it *Item) {
	var last *Item
	for _, t := range it.Approval.tools {
		if t != nil && (last == nil || t.Key > last.Key) {
			last = t
		}
	}
	if last == nil {
		s.place(it)
		return
	}
	if last.parent == nil {
		s.items = insertAfter(s.items, last, it)
		s.changes.List = true
		s.touch(it)
		return
	}
	g := last.parent.Group
	it.parent = last.parent
	g.Steps = insertAfter(g.Steps, last, it)
	s.touch(it)
}

// insertAfter inserts it after anchor and after the approvals that follow it.
func insertAfter(list []*Item, anchor, it *Item) []*Item {
	at := len(list)
	if i := slices.Index(list, anchor); i >= 0 {
		at = i + 1
		for at < len(list) && list[at].Kind == KindApproval {
			at++
		}
	}
	return slices.Insert(list, at, it)
}

// updateApproval refreshes a pending item that the stream presents again.
func (s *Store) updateApproval(it *Item, actions []wire.ActionRequest, configs []wire.ReviewConfig, timeout *float64, createdAt string) {
	switch {
	case it.Question != nil && it.Question.State == QuestionPending:
		q := it.Question
		if qs := questionsOf(actions); len(qs) > 0 {
			q.Questions = qs
		}
		if timeout != nil && *timeout > 0 {
			q.TimeoutSeconds = *timeout
		}
		if createdAt != "" {
			q.CreatedAt = createdAt
		}
	case it.Approval != nil && it.Approval.State == ApprovalPending:
		a := it.Approval
		if len(actions) == len(a.Actions) {
			for i, act := range actions {
				if !wire.IsNull(act.Args) {
					a.Actions[i].Args = act.Args
				}
				a.Actions[i].Allowed = allowedFor(act.Name, i, configs)
			}
		}
		if timeout != nil && *timeout > 0 {
			a.TimeoutSeconds = *timeout
		}
		if createdAt != "" {
			a.CreatedAt = createdAt
		}
	default:
		return
	}
	s.touch(it)
}

// approvalResult answers the item with that key. It reports false when no
// item has that key.
func (s *Store) approvalResult(key string, answersRaw, decisionsRaw json.RawMessage) bool {
	it := s.approvals[key]
	if it == nil {
		return false
	}
	if it.Form != nil {
		s.answerForm(it, answersRaw)
		return true
	}
	if it.Question != nil {
		it.Question.State = QuestionAnswered
		it.Question.Answers = wire.DecodeAnswers(answersRaw)
		s.resolve(it)
		return true
	}
	var decisions []wire.Decision
	if !wire.IsNull(decisionsRaw) {
		_ = json.Unmarshal(decisionsRaw, &decisions)
	}
	a := it.Approval
	a.State = ApprovalApproved
	for i := range a.Actions {
		d := wire.Decision{Type: "approve"}
		if i < len(decisions) {
			d = decisions[i]
		}
		a.Actions[i].Decision = d.Type
		if a.State == ApprovalApproved && d.Type != "approve" {
			a.State = stateOfDecision(d.Type)
		}
		if t := a.tools[i]; t != nil {
			s.decideTool(t, d)
		}
	}
	s.resolve(it)
	return true
}

func stateOfDecision(t string) ApprovalState {
	switch t {
	case "edit":
		return ApprovalEdited
	case "reject":
		return ApprovalRejected
	case "respond":
		return ApprovalResponded
	}
	return ApprovalApproved
}

// decideTool applies one decision to its tool: approve and edit leave it
// running, reject turns it error, respond turns it done with the response.
func (s *Store) decideTool(it *Item, d wire.Decision) {
	t := it.Tool
	if t.hasResult {
		return
	}
	t.awaitingKey = ""
	switch d.Type {
	case "reject":
		if d.Message != "" {
			msg := d.Message
			t.Result = &msg
		}
		t.Rejected = true
		s.setToolStatus(it, ToolError)
	case "respond":
		msg := d.Message
		t.Result = &msg
		t.hasResult = true
		s.setToolStatus(it, ToolDone)
	case "edit":
		if d.EditedAction != nil && !wire.IsNull(d.EditedAction.Args) {
			t.Input = d.EditedAction.Args
		}
		s.setToolStatus(it, ToolActive)
	default:
		s.setToolStatus(it, ToolActive)
	}
}

// approvalTimeout expires the item with that key; false when none has it.
func (s *Store) approvalTimeout(key string) bool {
	it := s.approvals[key]
	if it == nil {
		return false
	}
	s.expire(it, ToolError)
	return true
}

// expire ends an unanswered item; its waiting tools take toolStatus.
func (s *Store) expire(it *Item, toolStatus ToolStatus) {
	if it.Question != nil {
		if it.Question.State == QuestionPending {
			it.Question.State = QuestionExpired
		}
	} else if it.Form != nil {
		if it.Form.State == QuestionPending {
			it.Form.State = QuestionExpired
		}
	} else if it.Approval.State == ApprovalPending {
		it.Approval.State = ApprovalExpired
		for _, t := range it.Approval.tools {
			if t != nil && !t.Tool.hasResult && t.Tool.awaitingKey == it.Approval.ApprovalKey {
				t.Tool.awaitingKey = ""
				s.setToolStatus(t, toolStatus)
			}
		}
	}
	s.resolve(it)
}

// resolve takes an answered or expired item off the pending list.
func (s *Store) resolve(it *Item) {
	if i := slices.Index(s.pending, it); i >= 0 {
		s.pending = slices.Delete(s.pending, i, i+1)
		s.changes.Pending = true
	}
	s.touch(it)
}
