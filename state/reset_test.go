package state

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func withIDs(lines ...string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l[:len(l)-1] + `,"event_id":` + strconv.Itoa(i+100) + `}`
	}
	return out
}

// A run interrupted by a server restart: the user's message, a group with
// a finished and a running tool, and a pending approval.
func runningRun(t *testing.T) *Store {
	t.Helper()
	s := New(DefaultOptions())
	applyTo(s, withIDs(lines(
		`{"type":"user_message","text":"go"}`,
		msgStart, groupStart,
		toolUse(1, "t1", "get_price", "Price"), stop(1), toolResult(2, "t1", "success", "ok"),
		toolUse(3, "t2", "place_order", "Order"), stop(3),
		approvalReq(4, "ap1", `[{"name":"place_order","args":{"q":1}}]`),
	)...)...)
	require.Equal(t, StatusRunning, s.Status())
	require.NotNil(t, s.Pending())
	return s
}

func lastNotice(t *testing.T, s *Store) *Item {
	t.Helper()
	items := s.Items()
	it := items[len(items)-1]
	require.Equal(t, KindNotice, it.Kind)
	return it
}

func TestResetEndsTheRunWithANotice(t *testing.T) {
	s := runningRun(t)
	shown := len(s.Items())
	ch := s.Reset(&wire.History{AgentStatus: "idle", LastEventID: json.RawMessage(`null`)}, wire.MakeEventID("3"))

	assert.Equal(t, StatusIdle, s.Status())
	assert.True(t, ch.Status && ch.Pending && ch.List)
	assert.Nil(t, s.Pending(), "the pending approval expired")
	assert.Len(t, s.Items(), shown+1, "what was shown stays, and a notice follows")
	n := lastNotice(t, s)
	assert.Equal(t, NoticeReset, n.Notice.Reason)

	g := s.Items()[1]
	require.Equal(t, KindGroup, g.Kind)
	assert.False(t, g.Group.Open, "the open group closed")
	assert.Equal(t, ToolDone, s.Tool("t1").Tool.Status)
	assert.Equal(t, ToolInterrupted, s.Tool("t2").Tool.Status, "a tool without result is interrupted")
	assert.Equal(t, ApprovalExpired, s.Approval("ap1").Approval.State)

	v := s.View()
	require.NotNil(t, v.LastEventID)
	assert.Equal(t, "3", *v.LastEventID, "the last id is the server's")
	b, _ := json.Marshal(v.Items[len(v.Items)-1])
	assert.JSONEq(t, `{"kind":"notice","brand":false,"reason":"reset","detail":null}`, string(b))
}

// After a reset, the server's next events have small ids: they are shown,
// not dropped as already seen.
func TestResetLetsSmallerIDsThrough(t *testing.T) {
	s := runningRun(t)
	s.Reset(&wire.History{AgentStatus: "idle"}, wire.EventID{})
	assert.Nil(t, s.View().LastEventID)
	ch := s.ApplyJSON([]byte(`{"type":"user_message","text":"again","event_id":1}`))
	require.Equal(t, Applied, ch.Outcome)
	applyTo(s, `{"type":"message_start","message":{"id":"m2"},"event_id":2}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"hello"},"event_id":3}`,
		`{"type":"message_stop","event_id":4}`)
	items := s.Items()
	assert.Equal(t, "again", items[len(items)-2].Text)
	assert.Equal(t, "hello", items[len(items)-1].Text)
	assert.Equal(t, StatusIdle, s.Status())
}

// A history with messages replaces what was shown; the run the page was
// showing still ends with the notice.
func TestResetWithMessagesReplaces(t *testing.T) {
	s := runningRun(t)
	h, err := wire.DecodeHistory([]byte(`{"agent_status":"idle","last_event_id":"7","messages":[
		{"role":"user","content":"earlier"},{"role":"assistant","content":"answer"}]}`))
	require.NoError(t, err)
	s.Reset(h, wire.MakeEventID("2"))
	items := s.Items()
	require.Len(t, items, 3)
	assert.Equal(t, "earlier", items[0].Text)
	assert.Equal(t, "answer", items[1].Text)
	assert.Equal(t, KindNotice, items[2].Kind)
	assert.Equal(t, "7", *s.View().LastEventID, "the history's id, which matches its messages")
}

// A reset while nothing runs, or while the history says a run goes on,
// adds no notice.
func TestResetWithoutARunToEnd(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, withIDs(`{"type":"user_message","text":"hi"}`, msgStart, msgStop)...)
	n := len(s.Items())
	s.Reset(&wire.History{AgentStatus: "idle"}, wire.EventID{})
	assert.Len(t, s.Items(), n)

	s = runningRun(t)
	n = len(s.Items())
	s.Reset(&wire.History{AgentStatus: "running"}, wire.MakeEventID("1"))
	assert.Len(t, s.Items(), n)
	assert.Equal(t, StatusRunning, s.Status())
}

// Without a history (it could not be loaded), the run ends: a spinner
// that nothing will ever stop is worse than a notice.
func TestResetWithoutHistory(t *testing.T) {
	s := runningRun(t)
	s.Reset(nil, wire.EventID{})
	assert.Equal(t, StatusIdle, s.Status())
	lastNotice(t, s)
}

// The notice never takes the turn's brand header.
func TestResetNoticeHasNoBrand(t *testing.T) {
	s := New(DefaultOptions())
	applyTo(s, `{"type":"user_message","text":"go","event_id":5}`)
	s.Reset(&wire.History{AgentStatus: "idle"}, wire.EventID{})
	assert.False(t, lastNotice(t, s).Brand)
}

// FuzzStoreReset: a reset anywhere in a stream leaves a consistent store
// that nothing keeps running without events.
func FuzzStoreReset(f *testing.F) {
	f.Add([]byte{0, 0, 4, 1, 12, 1, 17, 2, 19, 2, 14, 1, 20, 2, 3, 0}, uint8(5), true)
	f.Add([]byte{26, 0, 0, 0, 7, 1, 9, 1, 16, 3, 23, 0, 28, 1, 29, 1, 27, 0}, uint8(3), false)
	f.Fuzz(func(t *testing.T, ops []byte, at uint8, running bool) {
		s := New(DefaultOptions())
		for i := 0; i+1 < len(ops); i += 2 {
			if i/2 == int(at) {
				status := "idle"
				if running {
					status = "running"
				}
				before := s.Status()
				s.Reset(&wire.History{AgentStatus: status}, wire.EventID{})
				if before == StatusRunning && !running && s.Status() == StatusRunning {
					t.Fatal("the run did not end")
				}
				if !running && s.Pending() != nil {
					t.Fatal("a question or approval is still pending")
				}
			}
			tmpl := opTemplates[int(ops[i])%len(opTemplates)]
			p := ops[i+1]
			s.ApplyJSON([]byte(fmt.Sprintf(tmpl, p%4, fmt.Sprint(p/4%4))))
		}
		checkInvariants(t, s)
	})
}

// A question left pending by an idle agent cannot be answered after the
// server lost it: it expires, with the notice.
func TestResetExpiresAQuestionOfAnIdleAgent(t *testing.T) {
	s := runningRun(t)
	applyTo(s, `{"type":"message_stop","event_id":200}`)
	require.NotNil(t, s.Pending())
	s.Reset(&wire.History{AgentStatus: "idle"}, wire.EventID{})
	assert.Nil(t, s.Pending())
	lastNotice(t, s)
}

// TestResetLoadedAsReset: a reset with the history loaded beforehand (in
// a store of its own) leaves what Reset leaves, changes included, whether
// the agent still runs by the history or not.
func TestResetLoadedAsReset(t *testing.T) {
	for _, status := range []string{"idle", "running"} {
		h, err := wire.DecodeHistory([]byte(`{"agent_status":"` + status + `","last_event_id":"7","messages":[
			{"role":"user","content":"earlier"},{"role":"assistant","content":"answer"}]}`))
		require.NoError(t, err)
		plain := runningRun(t)
		want := plain.Reset(h, wire.MakeEventID("2"))
		loaded := New(DefaultOptions())
		loaded.LoadHistoryPaced(h, func() {})
		early := runningRun(t)
		got := early.ResetLoaded(h, loaded, wire.MakeEventID("2"))
		assert.Equal(t, plain.View(), early.View(), status)
		assert.Equal(t, len(want.Items), len(got.Items), status)
		assert.Equal(t, want.List, got.List, status)
		assert.Equal(t, want.Status, got.Status, status)
	}
}
