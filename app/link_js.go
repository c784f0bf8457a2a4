//go:build js && wasm

package app

import (
	"encoding/json"
	"sync"

	"stepwise/state/wire"
)

// Events are a transport's callbacks. They run on the transport's
// goroutine or in browser callbacks: hand them to the UI goroutine.
type Events struct {
	OnHistory func(*wire.History)
	OnFrame   func([]byte)
	OnState   func(ConnState)
	OnError   func(error)
}

// link is what the WebSocket and SSE transports share: the configuration,
// the callbacks, the last event delivered (to resume after it and drop
// what is replayed twice), and the frames waiting for a connection.
type link struct {
	Config Config
	Events

	mu    sync.Mutex
	last  wire.EventID
	queue [][]byte
}

// report tells the page a command was refused. Connection failures are not
// reported: the connection state shows them.
func (l *link) report(err error) {
	if l.OnError != nil && err != nil {
		l.OnError(err)
	}
}

// loadHistory fetches the history and resumes after its last_event_id.
func (l *link) loadHistory() error {
	body, err := fetchText(l.Config.Path(l.Config.HistoryPath))
	if err != nil {
		return err
	}
	h, err := wire.DecodeHistory(body)
	if err != nil {
		return err
	}
	if id, ok := wire.ParseEventID(h.LastEventID); ok {
		l.last = id
	}
	l.OnHistory(h)
	return nil
}

// deliver passes a frame on, unless its id shows it was delivered before.
func (l *link) deliver(frame []byte, id wire.EventID) {
	if !id.IsZero() {
		if !l.last.IsZero() && id.Compare(l.last) <= 0 {
			return
		}
		l.last = id
	}
	l.OnFrame(frame)
}

// enqueue keeps a frame for the next connection. The caller holds l.mu.
func (l *link) enqueueLocked(b []byte) error {
	if len(l.queue) >= MaxQueued {
		return ErrOffline
	}
	l.queue = append(l.queue, b)
	return nil
}

// takeQueueLocked empties the queue. The caller holds l.mu.
func (l *link) takeQueueLocked() [][]byte {
	q := l.queue
	l.queue = nil
	return q
}

// frameID reads a frame's event_id, if it has one.
func frameID(frame []byte) wire.EventID {
	var idOnly struct {
		EventID json.RawMessage `json:"event_id"`
	}
	if json.Unmarshal(frame, &idOnly) != nil {
		return wire.EventID{}
	}
	id, _ := wire.ParseEventID(idOnly.EventID)
	return id
}
