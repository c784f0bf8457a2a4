//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"net/url"
	"syscall/js"
	"time"

	"stepwise/state/wire"
)

// SSE connects a session over Server-Sent Events, for backends or proxies
// without WebSocket: EventSource resumes by itself with Last-Event-ID, and
// client frames are POSTed to the commands endpoint.
type SSE struct {
	link
	open bool // guarded by link.mu
}

// NewSSE returns a Server-Sent Events transport.
func NewSSE(cfg Config, ev Events) *SSE {
	return &SSE{link: link{Config: cfg, Events: ev}}
}

// Start loads the history, then opens the event stream.
func (s *SSE) Start() {
	s.OnState(ConnConnecting)
	go func() {
		s.loadHistory() // a failure shows as the connection state
		s.connect(0)
	}()
}

// connect opens an EventSource after the last event id. EventSource
// reconnects by itself; when it gives up (CLOSED), a new one starts after
// a backoff.
func (s *SSE) connect(attempt int) {
	u := s.Config.Path(s.Config.EventsPath)
	if !s.last.IsZero() {
		u += "?last_event_id=" + url.QueryEscape(s.last.String())
	}
	es := js.Global().Get("EventSource").New(u)
	es.Set("onopen", js.FuncOf(func(this js.Value, args []js.Value) any {
		s.mu.Lock()
		s.open = true
		queued := s.takeQueueLocked()
		s.mu.Unlock()
		for _, f := range queued {
			s.post(f)
		}
		s.OnState(ConnOpen)
		return nil
	}))
	es.Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		s.deliver([]byte(args[0].Get("data").String()), wire.MakeEventID(args[0].Get("lastEventId").String()))
		return nil
	}))
	es.Set("onerror", js.FuncOf(func(this js.Value, args []js.Value) any {
		s.mu.Lock()
		s.open = false
		s.mu.Unlock()
		s.OnState(ConnReconnecting)
		if es.Get("readyState").Int() == 2 { // CLOSED: it will not retry
			es.Call("close")
			go func() {
				time.Sleep(Backoff(attempt, nil))
				s.connect(attempt + 1)
			}()
		}
		return nil
	}))
}

// Send POSTs a client frame, or queues it while the stream is down.
func (s *SSE) Send(frame any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if !s.open {
		defer s.mu.Unlock()
		return s.enqueueLocked(b)
	}
	s.mu.Unlock()
	s.post(b)
	return nil
}

// post sends a frame to the commands endpoint; a refusal is reported.
func (s *SSE) post(body []byte) {
	opts := map[string]any{
		"method": "POST", "body": string(body), "credentials": "same-origin",
		"headers": map[string]any{"Content-Type": "application/json"},
	}
	var onResp, onText, onErr js.Func
	release := func() { onResp.Release(); onText.Release(); onErr.Release() }
	onErr = js.FuncOf(func(this js.Value, args []js.Value) any {
		release()
		s.report(errors.New(args[0].Call("toString").String()))
		return nil
	})
	onText = js.FuncOf(func(this js.Value, args []js.Value) any {
		release()
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		msg := args[0].String()
		if json.Unmarshal([]byte(msg), &e) == nil && e.Error.Message != "" {
			msg = e.Error.Message
		}
		s.report(errors.New(msg))
		return nil
	})
	onResp = js.FuncOf(func(this js.Value, args []js.Value) any {
		if args[0].Get("ok").Bool() {
			release()
			return nil
		}
		args[0].Call("text").Call("then", onText, onErr)
		return nil
	})
	js.Global().Call("fetch", s.Config.Path(s.Config.CommandsPath), opts).Call("then", onResp, onErr)
}
