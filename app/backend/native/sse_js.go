//go:build js && wasm

package native

import (
	"errors"
	"net/url"
	"syscall/js"
	"time"

	"stepwise/app/backend"
	"stepwise/state/wire"
)

// sseBatch is the most messages of an event stream passed on in one task:
// the rest come in later tasks, so that the page paints between them (as
// app/internal/browser's WebSocket).
const sseBatch = 4096

// SSE connects a session over Server-Sent Events, for backends or proxies
// without WebSocket. Each EventSource asks for the events after the last
// one delivered (?last_event_id=); when it fails, a new one replaces it
// after a backoff (not the browser's own retry: its Last-Event-ID header
// does not survive the app's service worker, and a server that lost its
// log could not tell the client so). Client frames are POSTed to the
// commands endpoint as JSON; each POST's status is its command's outcome.
type SSE struct {
	link
	open bool // guarded by link.mu
	// drop closes the EventSource open now and waits to connect again
	// (the browser went offline); nil while none is open. Guarded by mu.
	drop func()
}

// NewSSE returns a Server-Sent Events transport.
func NewSSE(cfg Config, ev Events) *SSE {
	return &SSE{link: newLink(cfg, ev)}
}

// NetworkChanged closes the event stream when the browser goes offline,
// and opens it again at once when it is back.
func (s *SSE) NetworkChanged(online bool) {
	if online {
		s.wakeUp()
		return
	}
	s.mu.Lock()
	drop := s.drop
	s.mu.Unlock()
	if drop != nil {
		drop()
	}
}

// retry connects again after a backoff, or as soon as the network is back.
func (s *SSE) retry(attempt int) {
	go func() {
		select {
		case <-time.After(Backoff(attempt, nil)):
		case <-s.wake:
			attempt = 0
		}
		s.connect(attempt + 1)
	}()
}

// Start loads the history, then opens the event stream.
func (s *SSE) Start() {
	s.OnState(backend.Connecting)
	go func() {
		s.loadHistory() // a failure shows as the connection state
		s.connect(0)
	}()
}

// connect opens an EventSource after the last event id; when it fails, a
// new one follows after a backoff (attempt counts the failures since the
// last open).
func (s *SSE) connect(attempt int) {
	u := s.Config.path(s.Config.EventsPath)
	if !s.last.IsZero() {
		u += "?last_event_id=" + url.QueryEscape(s.last.String())
	}
	es := js.Global().Get("EventSource").New(u)
	var onOpen, onMessage, onError js.Func
	var batch js.Value // web/boot.js's stepwiseQueue for es, if there
	closed := false
	closeSource := func() {
		if closed {
			return
		}
		closed = true
		s.mu.Lock()
		s.drop = nil
		s.mu.Unlock()
		es.Call("close")
		if !batch.IsUndefined() {
			batch.Call("stop")
		}
		onOpen.Release()
		onMessage.Release()
		onError.Release()
	}
	onOpen = js.FuncOf(func(this js.Value, args []js.Value) any {
		attempt = 0
		select {
		case <-s.wake: // a wake from before this connection means nothing now
		default:
		}
		s.mu.Lock()
		s.open = true
		queued := s.takeQueueLocked()
		s.mu.Unlock()
		for _, f := range queued {
			s.post(f)
		}
		s.OnState(backend.Open)
		return nil
	})
	// drain passes on up to max of the messages stepwiseQueue holds (all
	// if 0); it reports false if one was a reset, which closed the source.
	drain := func(int) bool { return true }
	// handle passes on one message; it reports false once the source is
	// closed, the messages after it dropped.
	handle := func(data []byte, lastEventID string, events *[][]byte) bool {
		f := readFrame(data)
		if f.reset != nil {
			if len(*events) > 0 {
				s.OnFrames(*events)
				*events = nil
			}
			// The browser would resume this source after the id it
			// saw last, which the server no longer has: start a new one
			// after the reset, once the history is in (no event may
			// overtake it).
			closeSource()
			go func() {
				s.reset(f.reset)
				s.connect(0)
			}()
			return false
		}
		if f.result != nil {
			if len(*events) > 0 {
				s.OnFrames(*events)
				*events = nil
			}
			s.control(f)
			return true
		}
		if s.fresh(wire.MakeEventID(lastEventID), f) {
			*events = append(*events, data)
		}
		return true
	}
	if queue := js.Global().Get("stepwiseQueue"); queue.Type() == js.TypeFunction {
		// Messages that came together are passed on together, as over
		// WebSocket (app/internal/browser): a backend replaying a long log sends
		// thousands at once.
		drain = func(max int) bool {
			msgs := batch.Call("take", max)
			var events [][]byte
			for i, n := 0, msgs.Length(); i < n; i++ {
				m := msgs.Index(i)
				if !handle([]byte(m.Index(0).String()), m.Index(1).String(), &events) {
					return false
				}
			}
			if len(events) > 0 {
				s.OnFrames(events)
			}
			return true
		}
		onMessage = js.FuncOf(func(this js.Value, args []js.Value) any {
			drain(sseBatch)
			return nil
		})
		batch = queue.Invoke(es, onMessage, true)
	} else {
		onMessage = js.FuncOf(func(this js.Value, args []js.Value) any {
			var events [][]byte
			handle([]byte(args[0].Get("data").String()), args[0].Get("lastEventId").String(), &events)
			if len(events) > 0 {
				s.OnFrames(events)
			}
			return nil
		})
		es.Set("onmessage", onMessage)
	}
	onError = js.FuncOf(func(this js.Value, args []js.Value) any {
		if !drain(0) { // what came before the error is still passed on
			return nil // a reset closed the source and starts the next
		}
		s.mu.Lock()
		s.open = false
		s.mu.Unlock()
		s.OnState(backend.Reconnecting)
		closeSource()
		s.retry(attempt)
		return nil
	})
	es.Set("onopen", onOpen)
	es.Set("onerror", onError)
	s.mu.Lock()
	s.drop = func() {
		if closed {
			return
		}
		if !drain(0) { // what came before is still passed on
			return // a reset closed the source and starts the next
		}
		s.mu.Lock()
		s.open = false
		s.mu.Unlock()
		s.OnState(backend.Reconnecting)
		closeSource()
		s.retry(0)
	}
	s.mu.Unlock()
}

// Send POSTs a client frame, or queues it while the stream is down.
func (s *SSE) Send(b []byte) error {
	s.mu.Lock()
	if !s.open {
		defer s.mu.Unlock()
		return s.enqueueLocked(b)
	}
	s.mu.Unlock()
	s.post(b)
	return nil
}

// post sends a frame to the commands endpoint as application/json (the
// server refuses anything else, as it refuses other origins); its status
// is the outcome of the command the frame carries.
func (s *SSE) post(body []byte) {
	id := readCommandID(body)
	opts := map[string]any{
		"method": "POST", "body": string(body), "credentials": "same-origin",
		"headers": map[string]any{"Content-Type": "application/json"},
	}
	var onResp, onText, onErr js.Func
	status := 0
	release := func() { onResp.Release(); onText.Release(); onErr.Release() }
	result := func(err error) {
		if s.OnResult != nil && id != "" {
			s.OnResult(backend.Outcome{CommandID: id, Err: err})
		}
	}
	onErr = js.FuncOf(func(this js.Value, args []js.Value) any {
		release()
		result(errors.New(args[0].Call("toString").String()))
		return nil
	})
	onText = js.FuncOf(func(this js.Value, args []js.Value) any {
		release()
		result(refusal(status, []byte(args[0].String())))
		return nil
	})
	onResp = js.FuncOf(func(this js.Value, args []js.Value) any {
		if args[0].Get("ok").Bool() {
			release()
			result(nil)
			return nil
		}
		status = args[0].Get("status").Int()
		args[0].Call("text").Call("then", onText, onErr)
		return nil
	})
	js.Global().Call("fetch", s.Config.path(s.Config.CommandsPath), opts).Call("then", onResp, onErr)
}
