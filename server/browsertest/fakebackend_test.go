//go:build browser

package browsertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"stepwise/server/site"
)

// fakeBackend is a scripted agent backend, for what the demo agent cannot
// be made to do on demand: refuse a command, or come back from a restart
// without its log. It serves PROTOCOL.md's endpoints (history, WebSocket,
// SSE, commands) for any session id, with the additions of
// docs/protocol-extensions.md: reset frames, command_result replies and
// POST statuses.
type fakeBackend struct {
	mu      sync.Mutex
	log     []string // event i carries event_id i+1
	status  string   // the history's agent_status
	streams map[chan string]struct{}
	dropped chan struct{} // closed by restart: every open stream ends
	// onCommand decides a client frame's outcome: ok, or the refusal's
	// message. It may emit events. Nil accepts everything.
	onCommand func(frame map[string]any) (ok bool, refusal string)
	frames    []map[string]any // every client frame received
	types     []string         // the Content-Type of every command POST
	// messages is the history's messages (a JSON array); nil for none.
	messages []byte
	// down: the server is down; every request fails with 503 (setDown).
	down bool
}

// setDown takes the server down (every stream ends, every request fails)
// or brings it back with its log.
func (b *fakeBackend) setDown(down bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.down = down
	if down {
		close(b.dropped)
		b.dropped = make(chan struct{})
	}
}

// echoMessages makes the backend accept every command and echo each
// user_message into the stream, as a real backend does; refuse, when it
// returns a message, refuses a frame instead.
func (b *fakeBackend) echoMessages(refuse func(text string) string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.onCommand = func(frame map[string]any) (bool, string) {
		if frame["type"] != "user_message" {
			return true, ""
		}
		text := frame["content"].([]any)[0].(map[string]any)["text"].(string)
		if refuse != nil {
			if why := refuse(text); why != "" {
				return false, why
			}
		}
		raw, _ := json.Marshal(map[string]any{"type": "user_message", "content": text})
		// The echo starts a run; a short answer ends it.
		b.emit(string(raw), `{"type":"message_start","message":{"id":"m","role":"assistant","message_type":"chat"}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Noted."}}`,
			`{"type":"content_block_stop","index":0}`, `{"type":"message_stop"}`)
		return true, ""
	}
}

func newFakeBackend(status string) *fakeBackend {
	return &fakeBackend{status: status, streams: map[chan string]struct{}{}, dropped: make(chan struct{})}
}

// serve starts the real site in front of b and returns its URL.
func (b *fakeBackend) serve(t *testing.T) string {
	t.Helper()
	h, err := site.New(site.Config{WebDir: "../../web", API: b})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		b.restart(b.status) // ends the streams, so that Close does not wait for them
		srv.Close()
	})
	return srv.URL
}

// emit adds events (JSON objects without event_id) to the log and sends
// them to the open streams.
func (b *fakeBackend) emit(events ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ev := range events {
		ev = strings.TrimSpace(ev)
		ev = ev[:len(ev)-1] + `,"event_id":` + strconv.Itoa(len(b.log)+1) + `}`
		b.log = append(b.log, ev)
		for ch := range b.streams {
			ch <- ev
		}
	}
}

// setStatus changes the history's agent_status.
func (b *fakeBackend) setStatus(status string) {
	b.mu.Lock()
	b.status = status
	b.mu.Unlock()
}

// restart is a server that restarted without its log: every connection
// drops, and the log starts again empty.
func (b *fakeBackend) restart(status string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log, b.status = nil, status
	close(b.dropped)
	b.dropped = make(chan struct{})
}

// subscribe returns what a subscriber after last gets first (a reset frame
// when last is beyond the log, else the backlog), and its stream.
func (b *fakeBackend) subscribe(last string) (first []string, ch chan string, dropped chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, _ := strconv.Atoi(strings.Trim(last, `"`))
	if n > len(b.log) {
		newest := "null"
		if len(b.log) > 0 {
			newest = strconv.Itoa(len(b.log))
		}
		first = []string{`{"type":"reset","last_event_id":` + newest + `,"reason":"unknown_event_id"}`}
	} else {
		first = append(first, b.log[max(n, 0):]...)
	}
	ch = make(chan string, 1024)
	b.streams[ch] = struct{}{}
	return first, ch, b.dropped
}

func (b *fakeBackend) unsubscribe(ch chan string) {
	b.mu.Lock()
	delete(b.streams, ch)
	b.mu.Unlock()
}

// command decides a client frame's outcome.
func (b *fakeBackend) command(raw []byte) (frame map[string]any, ok bool, refusal string) {
	if json.Unmarshal(raw, &frame) != nil {
		return nil, false, "not JSON"
	}
	b.mu.Lock()
	b.frames = append(b.frames, frame)
	decide := b.onCommand
	b.mu.Unlock()
	if decide == nil {
		return frame, true, ""
	}
	ok, refusal = decide(frame)
	return frame, ok, refusal
}

// received returns the client frames received so far, and the content
// types of the POSTs.
func (b *fakeBackend) received() ([]map[string]any, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]map[string]any(nil), b.frames...), append([]string(nil), b.types...)
}

func (b *fakeBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	down := b.down
	b.mu.Unlock()
	if down {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/history"):
		b.mu.Lock()
		status, messages := b.status, b.messages
		b.mu.Unlock()
		if messages == nil {
			messages = []byte("[]")
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"session_id":"s","agent_status":%q,"last_event_id":null,"messages":%s,"pending_approval":null}`, status, messages)
	case strings.HasSuffix(r.URL.Path, "/ws"):
		b.serveWS(w, r)
	case strings.HasSuffix(r.URL.Path, "/events"):
		b.serveSSE(w, r)
	case strings.HasSuffix(r.URL.Path, "/commands") && r.Method == http.MethodPost:
		b.serveCommand(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (b *fakeBackend) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	_, msg, err := c.Read(ctx)
	if err != nil {
		return
	}
	var sub struct {
		LastEventID json.RawMessage `json:"last_event_id"`
	}
	json.Unmarshal(msg, &sub)
	first, ch, dropped := b.subscribe(string(sub.LastEventID))
	defer b.unsubscribe(ch)
	for _, f := range first {
		if c.Write(ctx, websocket.MessageText, []byte(f)) != nil {
			return
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			frame, ok, refusal := b.command(msg)
			id, _ := frame["command_id"].(string)
			if id == "" {
				continue
			}
			reply := `{"type":"command_result","command_id":` + strconv.Quote(id) + `,"ok":true}`
			if !ok {
				reply = `{"type":"command_result","command_id":` + strconv.Quote(id) + `,"ok":false,"error":{"type":"invalid_request","message":` + strconv.Quote(refusal) + `}}`
			}
			c.Write(ctx, websocket.MessageText, []byte(reply))
		}
	}()
	for {
		select {
		case ev := <-ch:
			if c.Write(ctx, websocket.MessageText, []byte(ev)) != nil {
				return
			}
		case <-dropped:
			return
		case <-done:
			return
		}
	}
}

func (b *fakeBackend) serveSSE(w http.ResponseWriter, r *http.Request) {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("last_event_id")
	}
	first, ch, dropped := b.subscribe(last)
	defer b.unsubscribe(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher := w.(http.Flusher)
	fmt.Fprint(w, "retry: 200\n\n")
	write := func(ev string) {
		var head struct {
			EventID json.RawMessage `json:"event_id"`
		}
		json.Unmarshal([]byte(ev), &head)
		if len(head.EventID) > 0 {
			fmt.Fprintf(w, "id: %s\n", strings.Trim(string(head.EventID), `"`))
		}
		fmt.Fprintf(w, "data: %s\n\n", ev)
		flusher.Flush()
	}
	for _, ev := range first { // a reset frame has no id
		write(ev)
	}
	flusher.Flush()
	for {
		select {
		case ev := <-ch:
			write(ev)
		case <-dropped:
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (b *fakeBackend) serveCommand(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	b.types = append(b.types, r.Header.Get("Content-Type"))
	b.mu.Unlock()
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		w.WriteHeader(http.StatusUnsupportedMediaType)
		fmt.Fprint(w, `{"error":{"type":"invalid_request","message":"commands are application/json"}}`)
		return
	}
	if _, ok, refusal := b.command(raw); !ok {
		w.WriteHeader(http.StatusConflict)
		fmt.Fprintf(w, `{"error":{"type":"invalid_request","message":%q}}`, refusal)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// fakeAgent is a scripted AG-UI agent (BACKENDS.md section 2) for what the
// real ones cannot be made to do: its answer depends on the last user
// message. "flood" streams text into one message without end, as fast as
// the connection takes it; "long line" sends one event of 50 MB on one
// line, then a short answer; "silent" answers with the stream's headers
// and then nothing. Every other message gets a one-line answer. Closed
// is signalled when a request's connection ends.
type fakeAgent struct {
	closed chan string // the message of each request whose connection ended
}

func newFakeAgent() *fakeAgent { return &fakeAgent{closed: make(chan string, 16)} }

func (a *fakeAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ThreadID string `json:"threadId"`
		RunID    string `json:"runId"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&in)
	text := ""
	for _, m := range in.Messages {
		if m.Role == "user" {
			json.Unmarshal(m.Content, &text)
		}
	}
	defer func() {
		select {
		case a.closed <- text:
		default:
		}
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	flusher := w.(http.Flusher)
	event := func(v map[string]any) error {
		b, _ := json.Marshal(v)
		_, err := fmt.Fprintf(w, "data: %s\n\n", b)
		flusher.Flush()
		return err
	}
	run := map[string]any{"threadId": in.ThreadID, "runId": in.RunID}
	with := func(typ string, kv ...any) map[string]any {
		m := map[string]any{"type": typ}
		for k, v := range run {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	event(with("RUN_STARTED"))
	id := "short"
	switch {
	case strings.Contains(text, "silent"):
		<-r.Context().Done()
		return
	case strings.Contains(text, "flood"):
		event(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "flood", "role": "assistant"})
		chunk := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 290) // 16 KB
		for r.Context().Err() == nil {
			if event(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "flood", "delta": chunk}) != nil {
				return
			}
		}
		return
	case strings.Contains(text, "long line"):
		id = "long"
		event(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "long", "role": "assistant"})
		io.WriteString(w, `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"long","delta":"`)
		block := strings.Repeat("x", 1<<20)
		for i := 0; i < 50; i++ {
			if _, err := io.WriteString(w, block); err != nil {
				return
			}
			flusher.Flush()
		}
		io.WriteString(w, "\"}\n\n")
		event(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "long", "delta": "After the long line."})
	default:
		event(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "short", "role": "assistant"})
		event(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "short", "delta": "A short answer."})
	}
	event(map[string]any{"type": "TEXT_MESSAGE_END", "messageId": id})
	event(with("RUN_FINISHED"))
}
