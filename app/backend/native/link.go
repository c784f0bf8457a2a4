package native

import (
	"sync"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
	"stepwise/state/wire"
)

// Events are a transport's callbacks. They run on the transport's
// goroutine or in browser callbacks (Backend.Open delivers what they say
// to the page).
type Events struct {
	// OnHistory delivers the history loaded at the start.
	OnHistory func(*wire.History)
	// OnFrames delivers stream events, each once, in order: those the
	// transport received together come in one call, so that the page
	// applies them, and draws what they make, together.
	OnFrames func([][]byte)
	// OnState reports the connection's state.
	OnState func(backend.ConnState)
	// OnResult reports a command's outcome.
	OnResult func(backend.Outcome)
	// OnReset reports that the server could not resume after the last
	// event delivered (docs/protocol-extensions.md#the-reset-frame): h is
	// the history loaded since (nil when it failed), last the server's
	// newest id. Events after it follow.
	OnReset func(h *wire.History, last wire.EventID)
}

// link is what the WebSocket and SSE transports share: the configuration,
// the callbacks, the last event delivered (to resume after it and drop
// what is replayed twice), and the frames waiting for a connection.
type link struct {
	Config Config
	Events
	// fetch GETs a URL's body (browser.FetchBody); pause lets the browser
	// run a task between slices of a long history (browser.PauseTask).
	// Tests give their own.
	fetch func(url string) ([]byte, error)
	pause func()

	mu    sync.Mutex
	last  wire.EventID
	queue [][]byte
	// wasReset: a reset frame placed last, even a zero one; the history
	// is not reloaded over what the page shows.
	wasReset bool
	// wake ends a backoff's wait: the network is back (wakeUp).
	wake chan struct{}
}

// wakeUp ends the backoff's wait, if there is one.
func (l *link) wakeUp() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// fetchHistory loads and decodes the history.
func (l *link) fetchHistory() (*wire.History, error) {
	body, err := l.fetch(l.Config.path(l.Config.HistoryPath))
	if err != nil {
		return nil, err
	}
	return wire.DecodeHistoryPaced(body, browser.NewPacer(l.pause).Tick)
}

// loadHistory fetches the history and resumes after its last_event_id.
func (l *link) loadHistory() error {
	h, err := l.fetchHistory()
	if err != nil {
		return err
	}
	if id, ok := wire.ParseEventID(h.LastEventID); ok {
		l.last = id
	}
	l.OnHistory(h)
	return nil
}

// reset handles a reset frame: the next events are taken after the
// server's newest id (or, if the history has messages and an id, after the
// history's), whatever the page saw before. It blocks while the history
// loads, so that no event overtakes it.
func (l *link) reset(r *resetFrame) {
	l.last, l.wasReset = r.last, true
	h, err := l.fetchHistory()
	if err != nil {
		h = nil
	} else if id, ok := wire.ParseEventID(h.LastEventID); ok && len(h.Messages) > 0 {
		l.last = id
	}
	l.OnReset(h, r.last)
}

// receiveAll passes on frames received together, in order: the stream
// events among them in one OnFrames call, or, around a command's result
// or a reset, in one call before it and one after.
func (l *link) receiveAll(frames [][]byte) {
	var events [][]byte
	for _, frame := range frames {
		f := readFrame(frame)
		if f.reset != nil || f.result != nil {
			if len(events) > 0 {
				l.OnFrames(events)
				events = nil
			}
			l.control(f)
			continue
		}
		if l.fresh(wire.EventID{}, f) {
			events = append(events, frame)
		}
	}
	if len(events) > 0 {
		l.OnFrames(events)
	}
}

// control handles a reset or a command's result.
func (l *link) control(f serverFrame) {
	switch {
	case f.reset != nil:
		l.reset(f.reset)
	case f.result != nil:
		if l.OnResult != nil {
			l.OnResult(*f.result)
		}
	}
}

// fresh reports whether a stream event is to be delivered: not when its
// id (the transport's, else the frame's) shows it was delivered before.
// It records the id as the last delivered.
func (l *link) fresh(id wire.EventID, f serverFrame) bool {
	if id.IsZero() {
		id = f.id
	}
	if !id.IsZero() {
		if !l.last.IsZero() && id.Compare(l.last) <= 0 {
			return false
		}
		l.last = id
	}
	return true
}

// enqueueLocked keeps a frame for the next connection. The caller holds
// l.mu.
func (l *link) enqueueLocked(b []byte) error {
	if len(l.queue) >= MaxQueued {
		return backend.ErrOffline
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
