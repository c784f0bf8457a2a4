package demo

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"unicode/utf8"

	"github.com/coder/websocket"

	"stepwise/state/wire"
)

// serveWS speaks the WebSocket transport: the client subscribes with the
// last id it applied, gets every event after it (or a reset frame when the
// log has no such id), then the live ones; its other frames are commands,
// answered with a command_result when they carry a command_id
// (docs/protocol-extensions.md#command-outcomes); a message that creates
// the session makes it owner's.
func (h *Handler) serveWS(w http.ResponseWriter, r *http.Request, s *Session, owner string) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.OriginPatterns})
	if err != nil {
		return // Accept wrote the error (a bad origin is refused here)
	}
	c.SetReadLimit(MaxFrameBytes)
	client := ClientOf(r)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	write := func(b []byte) {
		wctx, wcancel := context.WithTimeout(ctx, writeTimeout)
		defer wcancel()
		c.Write(wctx, websocket.MessageText, validText(b))
	}
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
		var meta struct {
			CommandID string `json:"command_id"`
		}
		json.Unmarshal(data, &meta)
		if !utf8.Valid(data) {
			if meta.CommandID != "" {
				write(commandResult(meta.CommandID, errNotUTF8))
			} else {
				write(errorEvent("invalid_request", "A frame was not valid UTF-8 text and was ignored."))
			}
			continue
		}
		f, err := wire.DecodeClientFrame(data)
		if err != nil {
			if meta.CommandID != "" {
				write(commandResult(meta.CommandID, err))
			} else {
				write(errorEvent("invalid_request", "A frame was not valid JSON and was ignored."))
			}
			continue
		}
		if f.Type == "subscribe" {
			if !subscribed {
				subscribed = true
				go h.stream(ctx, cancel, c, s, lastEventIDText(f.LastEventID))
			}
			continue
		}
		err = h.Agent.HandleFrom(s, Caller{Owner: owner, Client: client}, f)
		switch {
		case meta.CommandID != "":
			write(commandResult(meta.CommandID, err))
		case err != nil:
			write(errorEvent(errorKind(err), err.Error()))
		}
	}
}

// commandResult is the reply to a command that carries an id
// (docs/protocol-extensions.md#command-outcomes).
func commandResult(id string, err error) []byte {
	m := map[string]any{"type": "command_result", "command_id": id, "ok": err == nil}
	if err != nil {
		msg := err.Error()
		if _, isJSON := err.(*json.SyntaxError); isJSON {
			msg = "The command was not valid JSON."
		}
		m["error"] = map[string]string{"type": errorKind(err), "message": msg}
	}
	b, _ := json.Marshal(m)
	return b
}

// lastEventIDText is a subscribe frame's last_event_id as text: a JSON
// string's content, a number's digits, "" for none.
func lastEventIDText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// stream writes the subscription: backlog, then live events and keep-alive
// pings.
func (h *Handler) stream(ctx context.Context, cancel context.CancelFunc, c *websocket.Conn, s *Session, last string) {
	defer cancel()
	sub, err := s.Subscribe(last)
	if err != nil {
		c.Close(websocket.StatusInternalError, "the session could not be read")
		return
	}
	defer sub.Cancel()
	send := func(ev []byte) bool {
		wctx, wcancel := context.WithTimeout(ctx, writeTimeout)
		defer wcancel()
		if c.Write(wctx, websocket.MessageText, validText(ev)) != nil {
			return false
		}
		if h.DropRate > 0 && rand.Float64() < h.DropRate && h.drops.Add(1) <= h.MaxDrops {
			c.CloseNow() // a fault on purpose: the client must resume
			return false
		}
		return true
	}
	if pump(ctx, sub, send, func() bool { return send([]byte(`{"type":"ping"}`)) }) {
		c.Close(websocket.StatusTryAgainLater, "fell behind; resume")
	}
}
