//go:build js && wasm

package native

import (
	"context"
	"encoding/json"
	"strings"
	"syscall/js"
	"time"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
	"stepwise/state/wire"
)

// Live connects a session to its backend over WebSocket: it loads the
// history, subscribes with the last event id, and on a lost connection
// reconnects with backoff and resumes from the last event it delivered.
// Frames sent while disconnected wait in a short queue.
type Live struct {
	link
	conn *browser.WebSocket // guarded by link.mu
}

// NewLive returns a WebSocket transport.
func NewLive(cfg Config, ev Events) *Live {
	return &Live{link: newLink(cfg, ev)}
}

// NetworkChanged drops the connection when the browser goes offline, and
// reconnects at once when it is back.
func (l *Live) NetworkChanged(online bool) {
	if online {
		l.wakeUp()
		return
	}
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c != nil {
		c.CloseNow() // its reader ends, and the loop reconnects
	}
}

// Start runs the connection until ctx ends.
func (l *Live) Start(ctx context.Context) { go l.loop(ctx) }

// Send sends a client frame now, or queues it until the connection is back.
func (l *Live) Send(b []byte) error {
	l.mu.Lock()
	c := l.conn
	if c == nil {
		defer l.mu.Unlock()
		return l.enqueueLocked(b)
	}
	l.mu.Unlock()
	if err := c.WriteText(b); err != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.enqueueLocked(b) // sent after the reconnection
	}
	return nil
}

// loop connects again and again until ctx ends. A failed attempt shows
// only as the connection state: the page says it is offline.
func (l *Live) loop(ctx context.Context) {
	l.OnState(backend.Connecting)
	loaded := false
	for attempt := 0; ctx.Err() == nil; {
		// The history is loaded once; again only while no event has come
		// and no reset placed the stream (loading it replaces what the
		// page shows).
		if !loaded || (l.last.IsZero() && !l.wasReset) {
			loaded = l.loadHistory() == nil
		}
		if l.session(ctx) == nil {
			attempt = 0 // it was open: reconnect soon
		} else {
			attempt++
		}
		if ctx.Err() != nil {
			break
		}
		l.OnState(backend.Reconnecting)
		select {
		case <-time.After(Backoff(attempt, nil)):
		case <-l.wake:
			attempt = 0
		case <-ctx.Done():
		}
	}
	l.OnState(backend.Closed)
}

// session runs one connection: subscribe, flush the queue, read until it
// fails. It returns nil when the connection had opened (so the next
// attempt starts with a short wait).
func (l *Live) session(ctx context.Context) error {
	dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := browser.DialWebSocket(dialCtx, wsURL(l.Config.path(l.Config.WSPath)))
	cancel()
	if err != nil {
		return err
	}
	c.SetReadLimit(16 << 20)
	defer c.CloseNow()
	sub, _ := json.Marshal(wire.NewSubscribe(l.Config.SessionID, l.last))
	if err := c.WriteText(sub); err != nil {
		return err
	}
	l.mu.Lock()
	queued := l.takeQueueLocked()
	l.conn = c
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.conn = nil
		l.mu.Unlock()
	}()
	for _, f := range queued {
		if err := c.WriteText(f); err != nil {
			return err
		}
	}
	select {
	case <-l.wake: // a wake from before this connection means nothing now
	default:
	}
	l.OnState(backend.Open)
	for {
		msgs, err := c.Read(ctx)
		if err != nil {
			return nil
		}
		l.receiveAll(msgs)
	}
}

// wsURL makes a path absolute on the page's origin, with ws: or wss:. An
// absolute http(s) URL (an API on another origin, as a static build's)
// keeps its host.
func wsURL(path string) string {
	if rest, ok := strings.CutPrefix(path, "https://"); ok {
		return "wss://" + rest
	}
	if rest, ok := strings.CutPrefix(path, "http://"); ok {
		return "ws://" + rest
	}
	loc := js.Global().Get("location")
	scheme := "ws:"
	if loc.Get("protocol").String() == "https:" {
		scheme = "wss:"
	}
	return scheme + "//" + loc.Get("host").String() + path
}
