package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"stepwise/state"
)

// postCommand posts a raw command body to the session.
func postCommand(t *testing.T, srv *httptest.Server, session string, body []byte) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(srv.URL+"/api/sessions/"+session+"/commands", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// wsReadValid reads a frame and fails the test when it is not valid UTF-8
// (a browser closes the connection on such a text frame).
func wsReadValid(t *testing.T, ctx context.Context, c *websocket.Conn) []byte {
	t.Helper()
	typ, msg, err := c.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, websocket.MessageText, typ)
	require.True(t, utf8.Valid(msg), "a text frame that is not UTF-8: %q", msg)
	return msg
}

// wsReadUntil applies frames to st until cond holds, checking each is valid
// UTF-8.
func wsReadUntil(t *testing.T, ctx context.Context, c *websocket.Conn, st *state.Store, cond func(*state.Store) bool) {
	t.Helper()
	for !cond(st) {
		st.ApplyJSON(wsReadValid(t, ctx, c))
	}
}

func pendingApproval(st *state.Store) bool { return st.Pending() != nil }

// An approval whose edited args hold invalid UTF-8, sent as raw bytes to
// the commands POST, is refused: it never reaches the log, and a
// WebSocket viewer of the conversation gets only valid text frames.
func TestInvalidUTF8CommandIsRefused(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code, _ := postCommand(t, srv, "u1", []byte(`{"type":"user_message","content":"/approval"}`))
	require.Equal(t, http.StatusAccepted, code)
	s := attach(t, a, "u1")
	st := collect(t, s, "", pendingApproval)
	key := st.Pending().Approval.ApprovalKey

	poison := []byte(`{"type":"approval","approval_key":"` + key + `","decisions":[{"type":"edit","edited_action":{"name":"place_order","args":{"symbol":"VCB` + "\xff\xfe" + `"}}}]}`)
	code, body := postCommand(t, srv, "u1", poison)
	require.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body["error"].(map[string]any)["message"], "UTF-8")

	c := wsDial(t, ctx, srv, "u1")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"u1"}`)
	viewer := state.New(state.DefaultOptions())
	wsReadUntil(t, ctx, c, viewer, pendingApproval)
	// The approval is still pending, and a valid answer goes through.
	code, _ = postCommand(t, srv, "u1", []byte(`{"type":"approval","approval_key":"`+key+`","decisions":[{"type":"edit","edited_action":{"name":"place_order","args":{"symbol":"VCB"}}}]}`))
	require.Equal(t, http.StatusAccepted, code)
	wsReadUntil(t, ctx, c, viewer, idle)
	for _, ev := range mustEvents(t, a, "u1") {
		assert.True(t, utf8.Valid(ev), "stored: %q", ev)
	}
}

// A WebSocket text frame that is not UTF-8 is refused with a
// command_result, and the connection goes on.
func TestInvalidUTF8WebSocketFrameIsRefused(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "u2")
	wsSend(t, ctx, c, "{\"command_id\":\"c1\",\"type\":\"user_message\",\"content\":\"/error \xff\xfe\"}")
	res := wsRead(t, ctx, c)
	assert.Equal(t, "c1", res["command_id"])
	require.Equal(t, false, res["ok"])
	assert.Contains(t, res["error"].(map[string]any)["message"], "UTF-8")
	wsSend(t, ctx, c, "{\"type\":\"user_message\",\"content\":\"\xc3\"}")
	assert.Equal(t, "error", wsRead(t, ctx, c)["type"], "without a command_id: an error frame")
	wsSend(t, ctx, c, `{"command_id":"c2","type":"user_message","content":"/error"}`)
	assert.Equal(t, true, wsRead(t, ctx, c)["ok"], "the connection goes on")
}

// corruptEvents rewrites the stored events of a session that match, as a
// flipped byte on the disk would (the agent must be closed).
func corruptEvents(t *testing.T, path, session string, change func(ev []byte) []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		ev := tx.Bucket(bucketSessions).Bucket([]byte(session)).Bucket(bucketEvents)
		changed := map[string][]byte{}
		ev.ForEach(func(k, v []byte) error {
			if nv := change(v); !bytes.Equal(nv, v) {
				changed[string(k)] = nv
			}
			return nil
		})
		require.NotEmpty(t, changed)
		for k, v := range changed {
			if err := ev.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	}))
}

// flipText damages the first text delta: two bytes of it become invalid
// UTF-8, and a newline (which an SSE data line cannot hold).
func flipText(done *bool) func([]byte) []byte {
	return func(ev []byte) []byte {
		i := bytes.Index(ev, []byte(`"text":"`))
		if *done || i < 0 || !bytes.Contains(ev, []byte("text_delta")) {
			return ev
		}
		*done = true
		out := bytes.Clone(ev)
		at := i + len(`"text":"`)
		copy(out[at:], "\xff\n")
		return out
	}
}

// Events the data file gives back damaged (flipped bytes) still go out as
// valid UTF-8 text, over WebSocket and SSE, and the stream goes on.
func TestDamagedEventsAreSentAsValidText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{})
	s, err := a.Attach("p")
	require.NoError(t, err)
	require.NoError(t, a.Handle(s, message("/error")))
	settle(t, s)
	n := len(mustEvents(t, a, "p"))
	s.Detach()
	require.NoError(t, a.Close())
	done := false
	corruptEvents(t, path, "p", flipText(&done))

	b := openAgent(t, path, Options{})
	srv := httptest.NewServer(&Handler{Agent: b})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "p")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"p"}`)
	for i := 1; i <= n; i++ {
		var head struct {
			EventID string `json:"event_id"`
		}
		require.NoError(t, json.Unmarshal(wsReadValid(t, ctx, c), &head), "event %d", i)
		assert.Equal(t, strconv.Itoa(i), head.EventID)
	}
	wsSend(t, ctx, c, `{"type":"user_message","content":"/error"}`)
	var head struct {
		EventID string `json:"event_id"`
	}
	require.NoError(t, json.Unmarshal(wsReadValid(t, ctx, c), &head))
	assert.Equal(t, strconv.Itoa(n+1), head.EventID, "the stream goes on")

	// SSE: every event arrives whole, with its id, as valid UTF-8.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/sessions/p/events", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var id string
	var data []string
	for got := 0; got < n && sc.Scan(); {
		line := sc.Text()
		require.True(t, utf8.ValidString(line), "%q", line)
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		case strings.HasPrefix(line, "retry:"), strings.HasPrefix(line, ":"):
		case line == "" && len(data) == 0:
		case line == "":
			got++
			var head struct {
				EventID string `json:"event_id"`
			}
			// An EventSource joins the data lines with newlines.
			require.NoError(t, json.Unmarshal([]byte(strings.Join(data, "\n")), &head), "event %d: %q", got, data)
			assert.Equal(t, strconv.Itoa(got), head.EventID)
			assert.Equal(t, head.EventID, id)
			data = nil
		default:
			t.Fatalf("not an SSE line: %q", line)
		}
	}
}

// Handle refuses edited args that are not UTF-8 too (a frame decoded by
// another caller than the HTTP handlers).
func TestHandleRefusesInvalidUTF8Args(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "u3")
	require.NoError(t, a.Handle(s, message("/approval")))
	key := collect(t, s, "", pendingApproval).Pending().Approval.ApprovalKey
	f := frame(`{"type":"approval","approval_key":"` + key + `","decisions":[{"type":"edit","edited_action":{"name":"place_order","args":{"symbol":"VCB` + "\xff" + `"}}}]}`)
	assert.ErrorIs(t, a.Handle(s, f), errNotUTF8)
}

// A scenario line that is not UTF-8 fails the load with its line.
func TestScenarioMustBeUTF8(t *testing.T) {
	_, err := ParseScenario("bad", []byte("{\"event\": {\"type\": \"message_start\", \"message\": {\"id\": \"m\", \"role\": \"assistant\"}}}\n{\"event\": {\"type\": \"error\", \"error\": {\"type\": \"x\", \"message\": \"\xff\"}}}\n"))
	var le *LineError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, 2, le.Line)
	assert.Contains(t, le.Err, "UTF-8")
}
