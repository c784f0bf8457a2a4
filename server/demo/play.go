package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"stepwise/state"
)

// The player. What a run has open (tools without a result, the pending
// approval and the tools it concerns, its timeout) is read from the
// session's store, which applies every event as a client does: the agent
// keeps only its own business, its place in the script and the tools
// whose results a decision replaced.

// play sends the scenario's events with their pacing. suffix makes tool
// ids and approval keys unique to this run. The run ends, in the same
// critical section as its last event, so a client that has seen that event
// can send the next message at once.
func (s *Session) play(ctx context.Context, r *run, sc *Scenario, suffix string, speed float64) {
	defer close(r.done)
	defer s.Detach()
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if p := recover(); p != nil {
			log.Printf("demo: session %s: scenario %s: %v\n%s", s.ID, sc.Name, p, debug.Stack())
			if s.running == r {
				s.cancelOpenToolsLocked()
				s.emitLocked(map[string]any{"type": "terminal_error", "error": map[string]any{
					"type": "internal_error", "message": "The demo agent failed while playing this scenario."}})
			}
		}
		if s.running == r {
			s.running = nil
		}
	}()
	outcome := "" // of the last approval wait (Outcomes)
	for i, st := range sc.Steps {
		if !st.plays(outcome) {
			continue
		}
		switch {
		case st.SleepMs > 0:
			if !sleep(ctx, time.Duration(float64(st.SleepMs)/speed*float64(time.Millisecond))) {
				return
			}
		case len(st.Event) > 0:
			if !s.emitStep(r, st.Event, suffix, i == sc.lastEvent) {
				return
			}
		case st.Wait == WaitApproval:
			var ok bool
			if outcome, ok = s.await(ctx, r); !ok {
				return
			}
		case st.Wait == WaitGate:
			select {
			case <-s.gate:
			case <-ctx.Done():
				return
			}
		}
		if i == sc.lastEvent {
			return
		}
	}
}

// emitStep sends one scenario event; last ends the run with it. It returns
// false when the run has ended (stopped).
func (s *Session) emitStep(r *run, raw json.RawMessage, suffix string, last bool) bool {
	var ev map[string]any
	if json.Unmarshal(raw, &ev) != nil {
		return true // ParseScenario let no such line through
	}
	rewriteIDs(ev, suffix)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != r {
		return false
	}
	stampApproval(ev, s.agent.now())
	if id, ok := resultFor(ev); !ok || !r.skip[id] {
		s.emitLocked(ev)
	}
	if last {
		s.running = nil
	}
	return true
}

// answer applies the client's answer to the approval it names: checked
// against that approval, and applied at once (its approval_result is
// emitted here, under the lock), so that it applies once, and only to the
// approval it names, however many answers race for it. The run waiting
// for it is then woken.
func (s *Session) answer(ans approvalAnswer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.running
	it := s.store.Approval(ans.key)
	if r == nil || it == nil || !pendingItem(it) {
		return fmt.Errorf("no pending approval %q", ans.key)
	}
	ev := map[string]any{"type": "approval_result", "approval_key": ans.key}
	switch {
	case it.Question != nil:
		if ans.decisions != nil {
			return fmt.Errorf("approval %q is a question: send answers, not decisions", ans.key)
		}
		if err := checkAnswers(it.Question, ans.answers); err != nil {
			return fmt.Errorf("approval %q: %w", ans.key, err)
		}
		ev["answers"] = ans.answers
		r.outcome = "answered"
	case it.Approval != nil:
		if ans.decisions == nil || ans.answers != nil {
			return fmt.Errorf("approval %q needs decisions", ans.key)
		}
		for _, d := range ans.decisions {
			if d.EditedAction != nil && !utf8.Valid(d.EditedAction.Args) {
				return errNotUTF8
			}
		}
		if err := state.CheckDecisions(it.Approval, ans.decisions); err != nil {
			return err
		}
		ev["decisions"] = ans.decisions
		if len(ans.decisions) > 0 {
			r.outcome = ans.decisions[0].Type
		}
		// Rejected or answered-in-place tools do not run: drop their results.
		tools := concernedTools(it)
		for i, d := range ans.decisions {
			if (d.Type == "reject" || d.Type == "respond") && i < len(tools) && tools[i] != "" {
				r.skip[tools[i]] = true
			}
		}
	}
	s.emitLocked(ev)
	select {
	case r.answered <- struct{}{}:
	default: // a wake is pending already
	}
	return nil
}

// checkAnswers checks a question form's answers: one for each of its
// questions, none for another, none empty.
func checkAnswers(q *state.QuestionForm, answers map[string]string) error {
	if len(answers) != len(q.Questions) {
		return fmt.Errorf("%d answers for %d questions", len(answers), len(q.Questions))
	}
	for _, question := range q.Questions {
		a, ok := answers[question.Question]
		if !ok {
			return fmt.Errorf("no answer to %q", question.Question)
		}
		if strings.TrimSpace(a) == "" {
			return fmt.Errorf("an empty answer to %q", question.Question)
		}
	}
	return nil
}

func pendingItem(it *state.Item) bool {
	switch {
	case it == nil:
		return false
	case it.Question != nil:
		return it.Question.State == state.QuestionPending
	case it.Approval != nil:
		return it.Approval.State == state.ApprovalPending
	}
	return false
}

// await waits until the pending approval is answered (answer emits the
// approval_result) or times out (then it sends approval_timeout). It
// returns how it ended (Outcomes), and false when the run ended.
func (s *Session) await(ctx context.Context, r *run) (string, bool) {
	s.mu.Lock()
	p, outcome := s.store.Pending(), r.outcome
	s.mu.Unlock()
	if p == nil {
		return outcome, true // answered already
	}
	key, timeout := approvalKey(p)
	if timeout <= 0 {
		timeout = state.DefaultTimeoutSeconds
	}
	wait := time.Duration(timeout * float64(time.Second))
	// The time it waits is counted from the request's created_at, as the
	// client counts it down.
	if at, err := time.Parse(time.RFC3339, approvalCreatedAt(p)); err == nil {
		wait = at.Add(wait).Sub(s.agent.now())
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return "", false
		case <-r.answered:
			s.mu.Lock()
			running, pending, outcome := s.running == r, pendingItem(s.store.Approval(key)), r.outcome
			s.mu.Unlock()
			if !running {
				return "", false
			}
			if !pending {
				return outcome, true
			}
			// The wake was for an earlier approval: wait on.
		case <-timer.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.running != r {
				return "", false
			}
			if it := s.store.Approval(key); pendingItem(it) {
				// A timed-out tool never runs.
				for _, id := range concernedTools(it) {
					r.skip[id] = true
				}
				s.emitLocked(map[string]any{"type": "approval_timeout", "approval_key": key})
				r.outcome = "timeout"
			}
			return r.outcome, true
		}
	}
}

// approvalKey returns a pending item's key and timeout in seconds.
func approvalKey(it *state.Item) (string, float64) {
	if it.Question != nil {
		return it.Question.ApprovalKey, it.Question.TimeoutSeconds
	}
	return it.Approval.ApprovalKey, it.Approval.TimeoutSeconds
}

// approvalCreatedAt is when a pending item was asked (stampApproval).
func approvalCreatedAt(it *state.Item) string {
	if it.Question != nil {
		return it.Question.CreatedAt
	}
	return it.Approval.CreatedAt
}

// stampApproval gives an approval_request block its created_at, when the
// scenario gave none: a client that reloads counts down from there, not
// from the reload (docs/protocol-extensions.md).
func stampApproval(ev map[string]any, now time.Time) {
	if ev["type"] != "content_block_start" {
		return
	}
	b, _ := ev["content_block"].(map[string]any)
	if b["type"] != "approval_request" || b["created_at"] != nil {
		return
	}
	b["created_at"] = now.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// concernedTools lists the tool id each action of an approval concerns,
// "" where none (the store pairs them as PROTOCOL.md section 2 says).
func concernedTools(it *state.Item) []string {
	if it == nil || it.Approval == nil {
		return nil
	}
	ids := make([]string, len(it.Approval.Actions))
	for i := range ids {
		if t := it.Approval.Tool(i); t != nil {
			ids[i] = t.Tool.ID
		}
	}
	return ids
}

// stop ends the run at once: running tools are cancelled and a
// terminal_user_stopped block closes the turn.
func (s *Session) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.running
	if r == nil {
		return
	}
	r.cancel()
	s.running = nil
	s.cancelOpenToolsLocked()
	s.emitLocked(map[string]any{"type": "terminal_user_stopped"})
}

// cancelOpenToolsLocked sends a cancelled result for every tool the store
// shows without one.
func (s *Session) cancelOpenToolsLocked() {
	for i, id := range openTools(s.store) {
		idx := 100_000 + i
		s.emitLocked(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
			"type": "tool_result", "tool_use_id": id, "content": "", "status": "cancelled"}})
		s.emitLocked(map[string]any{"type": "content_block_stop", "index": idx})
	}
}

// openTools lists the ids of the tools still running or awaiting an
// approval, in the order they appear.
func openTools(st *state.Store) []string {
	var ids []string
	var walk func(items []*state.Item)
	walk = func(items []*state.Item) {
		for _, it := range items {
			switch {
			case it.Kind == state.KindTool && (it.Tool.Status == state.ToolActive || it.Tool.Status == state.ToolAwaiting):
				ids = append(ids, it.Tool.ID)
			case it.Kind == state.KindGroup:
				walk(it.Group.Steps)
			}
		}
	}
	walk(st.Items())
	return ids
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

// resultFor returns the tool id of a tool_result block.
func resultFor(ev map[string]any) (string, bool) {
	if ev["type"] != "content_block_start" {
		return "", false
	}
	b, _ := ev["content_block"].(map[string]any)
	if b["type"] != "tool_result" {
		return "", false
	}
	id, _ := b["tool_use_id"].(string)
	return id, true
}

// rewriteIDs appends suffix to the tool ids and approval keys of an event,
// so that a scenario played twice in one session makes new items.
func rewriteIDs(ev map[string]any, suffix string) {
	suffixField(ev, "approval_key", suffix)
	if b, ok := ev["content_block"].(map[string]any); ok {
		for _, k := range []string{"id", "tool_use_id", "approval_key"} {
			suffixField(b, k, suffix)
		}
	}
	for _, t := range objects(ev["tools"]) {
		suffixField(t, "id", suffix)
	}
	for _, res := range objects(ev["results"]) {
		suffixField(res, "call_id", suffix)
	}
}

func suffixField(m map[string]any, k, suffix string) {
	if s, ok := m[k].(string); ok && s != "" {
		m[k] = s + suffix
	}
}

func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
