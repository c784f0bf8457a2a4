package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"stepwise/state/wire"
)

// MaxFrameBytes bounds a client frame (WebSocket message or command body).
const MaxFrameBytes = 64 << 10

// keepAlive is how often an idle stream carries a ping.
const keepAlive = 20 * time.Second

// Handler serves PROTOCOL.md's endpoints for the demo agent under /api/.
type Handler struct {
	Agent *Agent
	// OriginPatterns are the other origins allowed to open the WebSocket
	// (the page's own origin always is).
	OriginPatterns []string
	// DropRate, when above zero, closes a stream at random after an event
	// with this probability, at most MaxDrops times: the fault test uses it.
	DropRate float64
	MaxDrops int64
	drops    atomic.Int64
}

// Drops returns how many connections DropRate closed.
func (h *Handler) Drops() int64 { return h.drops.Load() }

// ServeHTTP routes /api/sessions/{id}/{history|ws|events|commands}.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/sessions/")
	id, endpoint, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || !wire.ValidSessionID(id) {
		apiError(w, http.StatusNotFound, "no such endpoint")
		return
	}
	s := h.Agent.Session(id)
	switch {
	case endpoint == "history" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(s.History())
	case endpoint == "ws" && r.Method == http.MethodGet:
		h.serveWS(w, r, s)
	case endpoint == "events" && r.Method == http.MethodGet:
		h.serveSSE(w, r, s)
	case endpoint == "commands" && r.Method == http.MethodPost:
		h.serveCommand(w, r, s)
	default:
		apiError(w, http.StatusNotFound, "no such endpoint")
	}
}

func apiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": msg}})
}

// errorEvent is a stream error for the client: shown, never logged.
func errorEvent(kind, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}})
	return b
}

func (h *Handler) serveCommand(w http.ResponseWriter, r *http.Request, s *Session) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxFrameBytes))
	if err != nil {
		apiError(w, http.StatusRequestEntityTooLarge, "the command is larger than 64 KiB")
		return
	}
	f, err := wire.DecodeClientFrame(body)
	if err != nil {
		apiError(w, http.StatusBadRequest, "the command is not valid JSON: "+err.Error())
		return
	}
	if err := h.Agent.Handle(s, f); err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, ErrBusy) {
			code = http.StatusConflict
		}
		apiError(w, code, err.Error())
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// serveWS speaks the WebSocket transport: the client subscribes with the
// last id it applied, gets every event after it, then the live ones; its
// other frames are commands.
func (h *Handler) serveWS(w http.ResponseWriter, r *http.Request, s *Session) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.OriginPatterns})
	if err != nil {
		return // Accept wrote the error (a bad origin is refused here)
	}
	c.SetReadLimit(MaxFrameBytes)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	subscribed := false
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusMessageTooBig {
				return // the library closed with 1009: the client reports it
			}
			c.CloseNow()
			return
		}
		f, err := wire.DecodeClientFrame(data)
		if err != nil {
			c.Write(ctx, websocket.MessageText, errorEvent("invalid_request", "A frame was not valid JSON and was ignored."))
			continue
		}
		if f.Type == "subscribe" {
			if subscribed {
				continue
			}
			subscribed = true
			after, _ := wire.ParseEventID(f.LastEventID)
			go h.stream(ctx, cancel, c, s, after)
			continue
		}
		if err := h.Agent.Handle(s, f); err != nil {
			c.Write(ctx, websocket.MessageText, errorEvent("invalid_request", err.Error()))
		}
	}
}

// stream writes the backlog, then live events and keep-alive pings.
func (h *Handler) stream(ctx context.Context, cancel context.CancelFunc, c *websocket.Conn, s *Session, after wire.EventID) {
	defer cancel()
	backlog, live, unsubscribe := s.Subscribe(after)
	defer unsubscribe()
	send := func(ev []byte) bool {
		wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
		defer wcancel()
		if c.Write(wctx, websocket.MessageText, ev) != nil {
			return false
		}
		if h.DropRate > 0 && rand.Float64() < h.DropRate && h.drops.Add(1) <= h.MaxDrops {
			c.CloseNow() // a fault on purpose: the client must resume
			return false
		}
		return true
	}
	if pump(ctx, backlog, live, send, func() bool { return send([]byte(`{"type":"ping"}`)) }) {
		c.Close(websocket.StatusTryAgainLater, "fell behind; resume")
	}
}

// pump sends the backlog, then live events and a keep-alive ping now and
// then, until a send fails or ctx ends. It reports whether the
// subscription was dropped for falling behind (the client then resumes).
func pump(ctx context.Context, backlog []json.RawMessage, live <-chan json.RawMessage, send func([]byte) bool, ping func() bool) (fellBehind bool) {
	for _, ev := range backlog {
		if !send(ev) {
			return false
		}
	}
	ticker := time.NewTicker(keepAlive)
	defer ticker.Stop()
	for {
		select {
		case ev, ok := <-live:
			if !ok {
				return true
			}
			if !send(ev) {
				return false
			}
		case <-ticker.C:
			if !ping() {
				return false
			}
		case <-ctx.Done():
			return false
		}
	}
}

// serveSSE is the Server-Sent Events transport: id: carries the event id,
// and a reconnecting EventSource resumes with Last-Event-ID.
func (h *Handler) serveSSE(w http.ResponseWriter, r *http.Request, s *Session) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		apiError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("last_event_id")
	}
	after := wire.MakeEventID(last)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	backlog, live, unsubscribe := s.Subscribe(after)
	defer unsubscribe()
	write := func(ev []byte) bool {
		var id struct {
			EventID string `json:"event_id"`
		}
		json.Unmarshal(ev, &id)
		if id.EventID != "" {
			fmt.Fprintf(w, "id: %s\n", id.EventID)
		}
		_, err := fmt.Fprintf(w, "data: %s\n\n", ev)
		flusher.Flush()
		return err == nil
	}
	fmt.Fprint(w, "retry: 1000\n\n")
	flusher.Flush() // the client's EventSource opens on the headers
	pump(r.Context(), backlog, live, write, func() bool {
		_, err := fmt.Fprint(w, ": ping\n\n")
		flusher.Flush()
		return err == nil
	})
}
