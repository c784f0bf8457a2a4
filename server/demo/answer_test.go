package demo

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

// twoApprovals asks for two approvals in a row, the second for a tool
// nobody should run unasked.
const twoApprovals = `{"event": {"type": "message_start", "message": {"id": "t", "role": "assistant", "message_type": "chat"}}}
{"event": {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "transfer", "input": {"amount": 1}}}}
{"event": {"type": "content_block_stop", "index": 0}}
{"event": {"type": "content_block_start", "index": 1, "content_block": {"type": "approval_request", "approval_key": "first"}}}
{"event": {"type": "content_block_delta", "index": 1, "delta": {"action_requests": [{"name": "transfer", "args": {"amount": 1}}], "review_configs": [{"action_name": "transfer", "allowed_decisions": ["approve", "reject"]}], "timeout_seconds": 300}}}
{"event": {"type": "content_block_stop", "index": 1}}
{"wait": "approval"}
{"event": {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_result", "tool_use_id": "t1", "content": "done", "status": "success"}}}
{"event": {"type": "content_block_stop", "index": 2}}
{"event": {"type": "content_block_start", "index": 3, "content_block": {"type": "tool_use", "id": "t2", "name": "transfer_all_money", "input": {}}}}
{"event": {"type": "content_block_stop", "index": 3}}
{"event": {"type": "content_block_start", "index": 4, "content_block": {"type": "approval_request", "approval_key": "second"}}}
{"event": {"type": "content_block_delta", "index": 4, "delta": {"action_requests": [{"name": "transfer_all_money", "args": {}}], "review_configs": [{"action_name": "transfer_all_money", "allowed_decisions": ["approve", "reject"]}], "timeout_seconds": 300}}}
{"event": {"type": "content_block_stop", "index": 4}}
{"wait": "approval"}
{"event": {"type": "content_block_start", "index": 5, "content_block": {"type": "tool_result", "tool_use_id": "t2", "content": "all gone", "status": "success"}}}
{"event": {"type": "content_block_stop", "index": 5}}
{"event": {"type": "message_stop"}}
`

func decide(key, decision string) string {
	return `{"type":"approval","approval_key":"` + key + `","decisions":[{"type":"` + decision + `"}]}`
}

// approvalResults lists the approval_result events of a log by key.
func approvalResults(t *testing.T, events [][]byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, raw := range events {
		var ev struct {
			Type        string `json:"type"`
			ApprovalKey string `json:"approval_key"`
			Decisions   []struct {
				Type string `json:"type"`
			} `json:"decisions"`
		}
		require.NoError(t, json.Unmarshal(raw, &ev))
		if ev.Type == "approval_result" {
			for _, d := range ev.Decisions {
				out[ev.ApprovalKey] = append(out[ev.ApprovalKey], d.Type)
			}
		}
	}
	return out
}

// Answers racing for the first of two approvals: one applies, once; the
// others are refused, and none is kept for the second approval, which
// only its own answer decides.
func TestRacingAnswersApplyOnceToTheirOwnApproval(t *testing.T) {
	a := newTestAgent(t)
	sc, err := ParseScenario("two", []byte(twoApprovals))
	require.NoError(t, err)
	a.scenarios["two"] = sc
	for trial := range 40 {
		id := fmt.Sprintf("race%d", trial)
		s := attach(t, a, id)
		require.NoError(t, a.Handle(s, message("/two")))
		first := collect(t, s, "", pendingApproval).Pending().Approval.ApprovalKey
		var wg sync.WaitGroup
		var mu sync.Mutex
		accepted := 0
		for range 8 {
			wg.Go(func() {
				if a.Handle(s, frame(decide(first, "approve"))) == nil {
					mu.Lock()
					accepted++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		assert.Equal(t, 1, accepted, "trial %d: answers accepted for one approval", trial)
		st := collect(t, s, "", func(st *state.Store) bool {
			p := st.Pending()
			return p != nil && p.Approval.ApprovalKey != first
		})
		second := st.Pending().Approval.ApprovalKey
		require.NoError(t, a.Handle(s, frame(decide(second, "reject"))), "trial %d", trial)
		settle(t, s)
		assert.Equal(t, map[string][]string{first: {"approve"}, second: {"reject"}}, approvalResults(t, mustEvents(t, a, id)), "trial %d", trial)
	}
}

// An answer is checked against the approval it names: its key, its kind
// (answers for a question, decisions for a tool approval) and its content.
func TestAnswersAreValidated(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "qv")
	require.NoError(t, a.Handle(s, message("/question")))
	q := collect(t, s, "", pendingApproval).Pending().Question
	require.NotNil(t, q)
	all := map[string]string{}
	for _, question := range q.Questions {
		all[question.Question] = state.NoPreference
	}
	answers := func(m map[string]string) string {
		b, _ := json.Marshal(map[string]any{"type": "approval", "approval_key": q.ApprovalKey, "answers": m})
		return string(b)
	}
	for name, f := range map[string]string{
		"unknown key":         decide("nope", "approve"),
		"decisions":           decide(q.ApprovalKey, "approve"),
		"no answers":          answers(map[string]string{}),
		"an unknown question": answers(map[string]string{"What?": "x", q.Questions[0].Question: "y"}),
		"an empty answer":     answers(map[string]string{q.Questions[0].Question: " "}),
	} {
		assert.Error(t, a.Handle(s, frame(f)), name)
	}
	require.NoError(t, a.Handle(s, frame(answers(all))))
	assert.Error(t, a.Handle(s, frame(answers(all))), "answered already")
}
