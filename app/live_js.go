//go:build js && wasm

package app

import (
	"context"
	"encoding/json"
	"sync"
	"syscall/js"
	"time"

	"github.com/coder/websocket"

	"stepwise/state"
)

// Live connects a session to its backend over WebSocket: it loads the
// history, subscribes with the last event id, and on a lost connection
// reconnects with backoff and resumes from the last event it delivered.
// Frames sent while disconnected wait in a short queue.
type Live struct {
	Config Config
	// OnHistory delivers the history, OnFrame each stream frame, OnState
	// each connection change. They run on the transport's goroutine: hand
	// them to the UI goroutine.
	OnHistory func(*state.History)
	OnFrame   func([]byte)
	OnState   func(ConnState)
	OnError   func(error)

	mu     sync.Mutex
	conn   *websocket.Conn
	queue  [][]byte
	last   state.EventID
	closed bool
}

// Start runs the connection until ctx ends.
func (l *Live) Start(ctx context.Context) { go l.loop(ctx) }

// Send sends a client frame now, or queues it until the connection is back.
func (l *Live) Send(frame any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	l.mu.Lock()
	c := l.conn
	if c == nil {
		defer l.mu.Unlock()
		if len(l.queue) >= MaxQueued {
			return ErrOffline
		}
		l.queue = append(l.queue, b)
		return nil
	}
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		l.mu.Lock()
		l.queue = append(l.queue, b) // delivered after the reconnection
		l.mu.Unlock()
	}
	return nil
}

func (l *Live) loop(ctx context.Context) {
	l.OnState(ConnConnecting)
	for attempt := 0; ctx.Err() == nil; attempt++ {
		if attempt == 0 || l.last.IsZero() {
			if err := l.loadHistory(); err != nil {
				l.report(err)
			}
		}
		if err := l.session(ctx); err != nil && ctx.Err() == nil {
			l.report(err)
		} else {
			attempt = 0
		}
		if ctx.Err() != nil {
			break
		}
		l.OnState(ConnReconnecting)
		select {
		case <-time.After(Backoff(attempt, nil)):
		case <-ctx.Done():
		}
	}
	l.OnState(ConnClosed)
}

func (l *Live) report(err error) {
	if l.OnError != nil {
		l.OnError(err)
	}
}

func (l *Live) loadHistory() error {
	body, err := fetchText(l.Config.Path(l.Config.HistoryPath))
	if err != nil {
		return err
	}
	h, err := state.DecodeHistory(body)
	if err != nil {
		return err
	}
	if id, ok := state.ParseEventID(h.LastEventID); ok {
		l.last = id
	}
	l.OnHistory(h)
	return nil
}

// session runs one connection: subscribe, flush the queue, read until it
// fails. It returns nil when the connection had opened (so the next
// attempt starts with a short wait).
func (l *Live) session(ctx context.Context) error {
	dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, _, err := websocket.Dial(dialCtx, wsURL(l.Config.Path(l.Config.WSPath)), nil)
	cancel()
	if err != nil {
		return err
	}
	c.SetReadLimit(16 << 20)
	defer c.CloseNow()
	sub, _ := json.Marshal(state.NewSubscribe(l.Config.SessionID, l.last))
	if err := c.Write(ctx, websocket.MessageText, sub); err != nil {
		return err
	}
	l.mu.Lock()
	queued := l.queue
	l.queue = nil
	l.conn = c
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.conn = nil
		l.mu.Unlock()
	}()
	for _, f := range queued {
		if err := c.Write(ctx, websocket.MessageText, f); err != nil {
			return err
		}
	}
	l.OnState(ConnOpen)
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			return nil
		}
		var idOnly struct {
			EventID json.RawMessage `json:"event_id"`
		}
		if json.Unmarshal(msg, &idOnly) == nil {
			if id, ok := state.ParseEventID(idOnly.EventID); ok {
				if !l.last.IsZero() && id.Compare(l.last) <= 0 {
					continue // already delivered before the reconnection
				}
				l.last = id
			}
		}
		l.OnFrame(msg)
	}
}

// wsURL makes a path absolute on the page's origin, with ws: or wss:.
func wsURL(path string) string {
	loc := js.Global().Get("location")
	scheme := "ws:"
	if loc.Get("protocol").String() == "https:" {
		scheme = "wss:"
	}
	return scheme + "//" + loc.Get("host").String() + path
}
