package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

// wsClient is a WebSocket client of one session, applying what it receives
// to a store as the app does.
type wsClient struct {
	t     *testing.T
	ctx   context.Context
	c     *websocket.Conn
	store *state.Store
	// results are the command_results received, by command_id.
	results map[string]map[string]any
	frames  []map[string]any // transport frames: reset, command_result
}

func dialSession(t *testing.T, ctx context.Context, base, session string, store *state.Store) *wsClient {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/sessions/"+session+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {base}}})
	require.NoError(t, err)
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	if store == nil {
		store = state.New(state.DefaultOptions())
	}
	return &wsClient{t: t, ctx: ctx, c: c, store: store, results: map[string]map[string]any{}}
}

func (cl *wsClient) send(frame string) {
	cl.t.Helper()
	require.NoError(cl.t, cl.c.Write(cl.ctx, websocket.MessageText, []byte(frame)))
}

func (cl *wsClient) subscribe(last string) {
	cl.t.Helper()
	f := map[string]any{"type": "subscribe", "session_id": "x"}
	if last != "" {
		f["last_event_id"] = last
	}
	b, _ := json.Marshal(f)
	cl.send(string(b))
}

// readUntil applies frames until cond holds. Every event must be applied:
// none dropped as already seen, none skipped.
func (cl *wsClient) readUntil(what string, cond func() bool) {
	cl.t.Helper()
	for !cond() {
		_, msg, err := cl.c.Read(cl.ctx)
		require.NoError(cl.t, err, "waiting for %s", what)
		var head map[string]any
		require.NoError(cl.t, json.Unmarshal(msg, &head))
		switch head["type"] {
		case "command_result":
			cl.results[head["command_id"].(string)] = head
			cl.frames = append(cl.frames, head)
			continue
		case "reset":
			cl.frames = append(cl.frames, head)
			continue
		case "ping":
			continue
		}
		ch := cl.store.ApplyJSON(msg)
		require.Equal(cl.t, state.Applied, ch.Outcome, "event %s", msg)
	}
}

func (cl *wsClient) events() int {
	n, _ := strconv.Atoi(cl.store.LastEventID().String())
	return n
}

// toolsWith lists the tools the store shows with one of these statuses.
func toolsWith(st *state.Store, statuses ...state.ToolStatus) []string {
	var ids []string
	var walk func([]*state.Item)
	walk = func(items []*state.Item) {
		for _, it := range items {
			if it.Kind == state.KindGroup {
				walk(it.Group.Steps)
			}
			if it.Kind == state.KindTool && slices.Contains(statuses, it.Tool.Status) {
				ids = append(ids, it.Tool.ID)
			}
		}
	}
	walk(st.Items())
	return ids
}

// toolsStillOpen lists the tools the store shows running or awaiting.
func toolsStillOpen(st *state.Store) []string {
	return toolsWith(st, state.ToolActive, state.ToolAwaiting)
}

// TestRestartMidRun: the server is killed (SIGKILL) while it plays /long
// and started again with the same flags. The client that resumes with its
// last id receives the end of the run (cancelled tools, a terminal error),
// its next message is played with greater ids, a page loaded afresh shows
// the same conversation, and a subscribe beyond the log gets a reset frame.
func TestRestartMidRun(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", filepath.Join(dir, "stepwise.db")}
	ctx := testContext(t)

	first := startServer(t, args...)
	cl := dialSession(t, ctx, first.URL, "restart", nil)
	cl.subscribe("")
	cl.send(`{"type":"user_message","session_id":"restart","content":"/long","command_id":"c1"}`)
	// Mid-run: /long has thousands of events at its own pace; 150 is early.
	cl.readUntil("150 events of /long", func() bool { return cl.events() >= 150 })
	require.Equal(t, true, cl.results["c1"]["ok"], "the message was accepted")
	require.Equal(t, state.StatusRunning, cl.store.Status())
	first.kill()

	second := startServer(t, args...)
	// The client reconnects and resumes after the last id it applied.
	seen := cl.events()
	cl = dialSession(t, ctx, second.URL, "restart", cl.store)
	cl.subscribe(strconv.Itoa(seen))
	cl.readUntil("the end of the interrupted run", func() bool { return cl.store.Status() != state.StatusRunning })
	assert.Empty(t, cl.frames, "no reset: the server has every event the client saw")
	assert.Equal(t, state.StatusError, cl.store.Status())
	assert.Empty(t, toolsStillOpen(cl.store), "every open tool got its result")
	assert.Empty(t, toolsWith(cl.store, state.ToolInterrupted),
		"open tools got cancelled results (a bare terminal event would leave them interrupted)")
	items := cl.store.Items()
	last := items[len(items)-1]
	require.Equal(t, state.KindError, last.Kind)
	assert.Contains(t, last.Text, "restarted")

	resp, err := http.Get(second.URL + "/api/sessions/restart/history")
	require.NoError(t, err)
	var hist map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&hist))
	resp.Body.Close()
	assert.Equal(t, "error", hist["agent_status"])

	// The next message is played, with greater ids (readUntil requires
	// every event applied, none dropped).
	before := cl.events()
	users := func() int {
		n := 0
		for _, it := range cl.store.Items() {
			if it.Kind == state.KindUser {
				n++
			}
		}
		return n
	}
	cl.send(`{"type":"user_message","session_id":"restart","content":"/parallel","command_id":"c2"}`)
	cl.readUntil("the next run's end", func() bool { return users() == 2 && cl.store.Status() == state.StatusIdle })
	assert.Equal(t, true, cl.results["c2"]["ok"])
	assert.Greater(t, cl.events(), before)
	assert.Zero(t, cl.store.SkippedCount())

	// A page loaded afresh (F5) replays the whole conversation.
	fresh := dialSession(t, ctx, second.URL, "restart", nil)
	fresh.subscribe("")
	fresh.readUntil("the whole log", func() bool { return fresh.events() == cl.events() })
	want, _ := json.Marshal(cl.store.View())
	got, _ := json.Marshal(fresh.store.View())
	assert.JSONEq(t, string(want), string(got))

	// A client claiming more than the log has gets a reset frame.
	ahead := dialSession(t, ctx, second.URL, "restart", nil)
	ahead.subscribe(strconv.Itoa(cl.events() + 1000))
	_, msg, err := ahead.c.Read(ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"reset","last_event_id":"`+strconv.Itoa(cl.events())+`","reason":"unknown_event_id"}`, string(msg))

	assert.Equal(t, 0, second.stop(), "SIGTERM shuts the server down cleanly")
}
