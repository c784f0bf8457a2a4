package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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
	c.SetReadLimit(maxDrainBytes)
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
		data, tooBig, err := readFrame(ctx, c)
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusMessageTooBig {
				return // the library closed with 1009: the client reports it
			}
			c.CloseNow()
			return
		}
		if tooBig {
			if id := leadingCommandID(data); id != "" {
				write(commandResult(id, errTooLarge))
			} else {
				write(errorEvent("too_large", "A frame larger than 64 KiB was ignored."))
			}
			continue
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

// maxDrainBytes bounds a client frame the server reads to the end to
// refuse it: a frame over MaxFrameBytes gets a refusal and the connection
// goes on, one over this is closed with 1009 (status MessageTooBig).
const maxDrainBytes = 1 << 20

// errTooLarge refuses a frame over MaxFrameBytes.
var errTooLarge = errors.New("the message is larger than 64 KiB: it was not sent")

// readFrame reads a client frame. One over MaxFrameBytes is read to its
// end but not kept: data is its first MaxFrameBytes, and tooBig is true.
func readFrame(ctx context.Context, c *websocket.Conn) (data []byte, tooBig bool, err error) {
	_, r, err := c.Reader(ctx)
	if err != nil {
		return nil, false, err
	}
	data, err = io.ReadAll(io.LimitReader(r, MaxFrameBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) <= MaxFrameBytes {
		return data, false, nil
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return nil, false, err
	}
	return data[:MaxFrameBytes], true, nil
}

// leadingCommandID reads the command_id of a frame cut short, when it
// comes before the cut (the page's transport puts it first).
func leadingCommandID(prefix []byte) string {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "command_id" {
			var id string
			if dec.Decode(&id) != nil {
				return ""
			}
			return id
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
