package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

func wsDial(t *testing.T, ctx context.Context, srv *httptest.Server, session string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/sessions/"+session+"/ws", nil)
	require.NoError(t, err)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func wsSend(t *testing.T, ctx context.Context, c *websocket.Conn, frame string) {
	t.Helper()
	require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(frame)))
}

func wsRead(t *testing.T, ctx context.Context, c *websocket.Conn) map[string]any {
	t.Helper()
	_, msg, err := c.Read(ctx)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(msg, &m))
	return m
}

func TestWebSocketEndToEnd(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "ws1")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"ws1"}`)
	wsSend(t, ctx, c, `{not json`)
	assert.Contains(t, wsRead(t, ctx, c)["error"], "type", "a malformed frame gets a clear error")
	wsSend(t, ctx, c, `{"type":"user_message","session_id":"ws1","content":[{"type":"text","text":"/parallel"}]}`)
	st := state.New(state.DefaultOptions())
	for !idle(st) {
		_, msg, err := c.Read(ctx)
		require.NoError(t, err)
		st.ApplyJSON(msg)
	}
	assert.Zero(t, st.SkippedCount())

	// A frame of over a megabyte closes that connection with 1009 (one
	// over 64 KiB is refused: TestOversizedFrameIsRefused); others go on.
	huge := `{"type":"user_message","content":"` + strings.Repeat("x", maxDrainBytes) + `"}`
	c.Write(ctx, websocket.MessageText, []byte(huge))
	_, _, err := c.Read(ctx)
	assert.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err))

	resp, err := http.Get(srv.URL + "/api/sessions/ws1/history")
	require.NoError(t, err)
	var h map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
	assert.Equal(t, "idle", h["agent_status"])
}

// A command with a command_id gets exactly one command_result, accepted
// or refused, and a refusal is not an event in the conversation
// (docs/protocol-extensions.md#command-outcomes).
func TestWebSocketCommandResults(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "cr")
	wsSend(t, ctx, c, `{"type":"user_message","content":"/gated","command_id":"c1"}`)
	assert.Equal(t, map[string]any{"type": "command_result", "command_id": "c1", "ok": true}, wsRead(t, ctx, c))
	wsSend(t, ctx, c, `{"type":"user_message","content":"again","command_id":"c2"}`)
	res := wsRead(t, ctx, c)
	assert.Equal(t, "c2", res["command_id"])
	assert.Equal(t, false, res["ok"])
	assert.Equal(t, "busy", res["error"].(map[string]any)["type"])
	assert.NotEmpty(t, res["error"].(map[string]any)["message"])
	wsSend(t, ctx, c, `{"type":"approval","approval_key":"nope","decisions":[{"type":"approve"}],"command_id":"c3"}`)
	res = wsRead(t, ctx, c)
	assert.Equal(t, "c3", res["command_id"])
	assert.Equal(t, "invalid_request", res["error"].(map[string]any)["type"])
	wsSend(t, ctx, c, `{"type":"whatever","command_id":"c4"}`)
	assert.Equal(t, false, wsRead(t, ctx, c)["ok"])
	wsSend(t, ctx, c, `{"type":"stop","command_id":"c5"}`)
	assert.Equal(t, map[string]any{"type": "command_result", "command_id": "c5", "ok": true}, wsRead(t, ctx, c))
	// Without a command_id a refusal is an error event, as before.
	wsSend(t, ctx, c, `{"type":"approval","approval_key":"nope","decisions":[{"type":"approve"}]}`)
	assert.Equal(t, "error", wsRead(t, ctx, c)["type"])
	// No refusal went into the log.
	for _, ev := range mustEvents(t, a, "cr") {
		assert.NotContains(t, string(ev), "already running")
	}
}

func TestWebSocketRefusesOtherOrigins(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/sessions/o/ws"
	_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestCommandsEndpoint(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a, OriginPatterns: []string{"host.example"}})
	defer srv.Close()
	post := func(body string, header ...string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/c1/commands", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusBadRequest, post(`{nope`))
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(`{"type":"user_message","content":"`+strings.Repeat("x", MaxFrameBytes)+`"}`))
	msg := `{"type":"user_message","content":"/error"}`
	// A page of another origin cannot post, nor can a no-preflight body.
	assert.Equal(t, http.StatusForbidden, post(msg, "Origin", "https://evil.example", "Content-Type", "text/plain"))
	assert.Equal(t, http.StatusForbidden, post(msg, "Origin", "https://evil.example"))
	assert.Equal(t, http.StatusForbidden, post(msg, "Origin", "null"))
	assert.Equal(t, http.StatusUnsupportedMediaType, post(msg, "Content-Type", "text/plain"))
	assert.Equal(t, http.StatusUnsupportedMediaType, post(msg, "Content-Type", "application/x-www-form-urlencoded"))
	assert.Equal(t, http.StatusUnsupportedMediaType, post(msg, "Content-Type", ""))
	// The accepted run holds at its gate, so the next message finds the
	// agent busy however slowly this machine runs (a run of /error could
	// end before it, as it once did under the race detector).
	gatedMsg := `{"type":"user_message","content":"/gated"}`
	assert.Equal(t, http.StatusAccepted, post(gatedMsg, "Origin", srv.URL, "Content-Type", "application/json; charset=utf-8"))
	assert.Equal(t, http.StatusConflict, post(msg, "Origin", "https://host.example"),
		"an allowed origin gets through (the agent is busy)")
	a.Release("c1")
	waitIdle(t, a, "c1")
	resp, err := http.Get(srv.URL + "/api/sessions/../history")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// sseEvent is one SSE event: its id: line and its data.
type sseEvent struct {
	id    *string
	data  string
	frame map[string]any
}

// readSSE reads SSE events from an open stream into the channel.
func readSSE(t *testing.T, ctx context.Context, url, lastEventID string) <-chan sseEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	out := make(chan sseEvent, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id:"):
				id := strings.TrimSpace(strings.TrimPrefix(line, "id:"))
				ev.id = &id
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.data != "":
				json.Unmarshal([]byte(ev.data), &ev.frame)
				out <- ev
				ev = sseEvent{}
			}
		}
	}()
	return out
}

func nextSSE(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		require.True(t, ok, "the stream ended")
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no SSE event")
	}
	return sseEvent{}
}

func TestSSEStreamsAndResumes(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	s := attach(t, a, "sse1")
	require.NoError(t, a.Handle(s, message("/error")))
	settle(t, s)
	n := len(mustEvents(t, a, "sse1"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := srv.URL + "/api/sessions/sse1/events"
	// Resumes after Last-Event-ID; -1 (a negative integer) is before every id.
	for last, first := range map[string]int{"3": 4, "-1": 1, "0": 1} {
		ch := readSSE(t, ctx, url, last)
		for want := first; want <= n; want++ {
			ev := nextSSE(t, ch)
			require.NotNil(t, ev.id, "Last-Event-ID %s", last)
			assert.Equal(t, want, mustAtoi(t, *ev.id), "Last-Event-ID %s", last)
			assert.Equal(t, *ev.id, ev.frame["event_id"])
		}
	}
	// ?last_event_id= when the EventSource has none yet.
	ch := readSSE(t, ctx, url+"?last_event_id=-3", "")
	assert.Equal(t, "1", *nextSSE(t, ch).id)
}

// A subscribe with a negative integer id gets every event (it is before
// them all, numerically).
func TestWebSocketNegativeLastEventID(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	s := attach(t, a, "wsneg")
	require.NoError(t, a.Handle(s, message("/error")))
	collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, last := range []string{`-5`, `"-5"`} {
		c := wsDial(t, ctx, srv, "wsneg")
		wsSend(t, ctx, c, `{"type":"subscribe","session_id":"wsneg","last_event_id":`+last+`}`)
		assert.Equal(t, "1", wsRead(t, ctx, c)["event_id"], "last_event_id %s", last)
	}
}

// A subscribe with an id beyond the log gets the reset frame, then the
// live events (docs/protocol-extensions.md#the-reset-frame).
func TestResetFrame(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	s := attach(t, a, "rs")
	require.NoError(t, a.Handle(s, message("/error")))
	settle(t, s)
	n := len(mustEvents(t, a, "rs"))
	newest := strconv.Itoa(n)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	c := wsDial(t, ctx, srv, "rs")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"rs","last_event_id":"`+strconv.Itoa(n+100)+`"}`)
	assert.Equal(t, map[string]any{"type": "reset", "last_event_id": newest, "reason": "unknown_event_id"}, wsRead(t, ctx, c))
	wsSend(t, ctx, c, `{"type":"user_message","content":"/activity"}`)
	ev := wsRead(t, ctx, c)
	assert.Equal(t, strconv.Itoa(n+1), ev["event_id"], "live events follow the reset")

	// Non-numeric ids sort after every numeric one: beyond the log too.
	c = wsDial(t, ctx, srv, "rs")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"rs","last_event_id":"abc"}`)
	assert.Equal(t, "reset", wsRead(t, ctx, c)["type"])

	// A session the server does not have at all.
	c = wsDial(t, ctx, srv, "never")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"never","last_event_id":41}`)
	assert.Equal(t, map[string]any{"type": "reset", "last_event_id": nil, "reason": "session_gone"}, wsRead(t, ctx, c))

	// SSE: the same frame; its id: line moves the EventSource's resume point.
	ch := readSSE(t, ctx, srv.URL+"/api/sessions/rs/events", strconv.Itoa(n+100))
	reset := nextSSE(t, ch)
	assert.Equal(t, "reset", reset.frame["type"])
	assert.Equal(t, "unknown_event_id", reset.frame["reason"])
	require.NotNil(t, reset.id)
	assert.Equal(t, reset.frame["last_event_id"], *reset.id)
	ch = readSSE(t, ctx, srv.URL+"/api/sessions/none/events", "7")
	reset = nextSSE(t, ch)
	assert.Equal(t, "session_gone", reset.frame["reason"])
	require.NotNil(t, reset.id)
	assert.Equal(t, "", *reset.id, "an empty id: clears Last-Event-ID")
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// A frame over 64 KiB is refused, not the connection: a command_result
// when its command_id comes first (as the page sends it), an error frame
// otherwise; the connection goes on, and the POST refuses the same way.
func TestOversizedFrameIsRefused(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "big")
	text := strings.Repeat("x", MaxFrameBytes)
	wsSend(t, ctx, c, `{"command_id":"c1","type":"user_message","content":"`+text+`"}`)
	res := wsRead(t, ctx, c)
	assert.Equal(t, "c1", res["command_id"])
	assert.Equal(t, false, res["ok"])
	assert.Equal(t, "too_large", res["error"].(map[string]any)["type"])
	assert.Contains(t, res["error"].(map[string]any)["message"], "64 KiB")
	wsSend(t, ctx, c, `{"type":"user_message","content":"`+text+`","command_id":"c2"}`)
	ev := wsRead(t, ctx, c)
	assert.Equal(t, "error", ev["type"], "a command_id after the text is not read")
	assert.Equal(t, "too_large", ev["error"].(map[string]any)["type"])
	wsSend(t, ctx, c, `{"command_id":"c3","type":"user_message","content":"/error"}`)
	assert.Equal(t, map[string]any{"type": "command_result", "command_id": "c3", "ok": true}, wsRead(t, ctx, c))
	assert.Empty(t, func() []string {
		var big []string
		for _, ev := range mustEvents(t, a, "big") {
			if len(ev) > MaxFrameBytes {
				big = append(big, string(ev[:40]))
			}
		}
		return big
	}(), "nothing of the refused frames was kept")

	code, body := postCommand(t, srv, "big", []byte(`{"type":"user_message","content":"`+text+`"}`))
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	assert.Equal(t, "too_large", body["error"].(map[string]any)["type"])
}

func TestLeadingCommandID(t *testing.T) {
	for prefix, want := range map[string]string{
		`{"command_id":"c1","type":"user_message","content":"xxx`: "c1",
		`{"type":"stop","command_id":"c2","content":"xx`:          "c2",
		`{"content":"xxxx`: "",
		`{"command_id":7,`: "",
		`[1,2`:             "",
		``:                 "",
	} {
		assert.Equal(t, want, leadingCommandID([]byte(prefix)), prefix)
	}
}
