// Package native is the Stepwise protocol (PROTOCOL.md) as a
// backend.Backend: the history, then the stream over WebSocket or, for
// backends and proxies without it, Server-Sent Events with commands
// POSTed; resumed after the last event delivered, reset when the backend
// cannot resume, commands tagged with their id and answered with their
// outcome (docs/protocol-extensions.md). The backend keeps the
// conversation: it echoes the person's messages and resolves cards with
// events of its own.
//
// The decisions (frames, backoff) are plain Go, tested natively; the
// browser's side (the transports, fetch) is in the _js.go files.
package native

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// Config is what the backend needs to know.
type Config struct {
	SessionID string
	// The backend's paths (PROTOCOL.md section 1); {session_id} is
	// replaced.
	HistoryPath, WSPath, EventsPath, CommandsPath string
	// FilesPath is where files are uploaded (POST, ?name=); "" when the
	// backend takes none.
	FilesPath string
	// SSE: Server-Sent Events and POSTed commands instead of a WebSocket.
	SSE bool
	// MaxFrame is the largest client frame the backend takes, in bytes (0:
	// no limit).
	MaxFrame int
	// SessionsPath is the backend's list of the caller's sessions (GET;
	// DELETE SessionsPath/{id} takes one off it); "" when it has none.
	SessionsPath string
	// Store are the options of the conversation's stores.
	Store state.Options
	// Shown keeps what the page last showed, for a reload that cannot
	// reach the server (lastshown.go); nil: nothing is kept.
	Shown Shown
}

// path fills a path template with the session id.
func (c Config) path(template string) string {
	return strings.ReplaceAll(template, "{session_id}", url.PathEscape(c.SessionID))
}

// conn sends client frames: the WebSocket or SSE transport.
type conn interface {
	// Send sends a client frame, or keeps it until the connection is
	// back. An error means nothing was sent (backend.ErrOffline: too
	// many frames wait).
	Send(frame []byte) error
	// NetworkChanged drops the connection the browser says is gone (a
	// frame sent then waits for the next one instead of going into a dead
	// socket), and reconnects at once when the network is back.
	NetworkChanged(online bool)
}

// Backend is a native backend.
type Backend struct {
	cfg     Config
	conn    conn // nil until Open, and outside a browser
	keep    keeper
	deliver func(backend.Event) // Open's
}

// New returns a native backend; Open connects it.
func New(cfg Config) *Backend {
	cfg.Store.Kept = state.KeptByBackend
	// A file's relative URL is relative to the history's.
	cfg.Store.FilesBase = cfg.path(cfg.HistoryPath)
	b := &Backend{cfg: cfg}
	b.keep = keeper{
		store: cfg.Shown, id: cfg.SessionID, opts: cfg.Store,
		after: func(d time.Duration, f func()) { time.AfterFunc(d, f) },
		now:   time.Now,
	}
	return b
}

// events are what the transport's callbacks deliver: what the page is
// shown is also followed by the keeper of what it last showed, in the
// page's update.
func (b *Backend) events(deliver func(backend.Event), load func(*wire.History) (*state.Store, state.Changes)) Events {
	k := &b.keep
	k.deliver = deliver
	return Events{
		OnHistory: func(h *wire.History) {
			loaded, changes := load(h)
			k.in(func() []backend.Event {
				k.history(h)
				return []backend.Event{backend.Loaded{Store: loaded, Changes: changes}}
			})
		},
		OnFrames: func(frames [][]byte) {
			if k.store == nil {
				deliver(backend.Frames{Frames: frames})
				return
			}
			k.in(func() []backend.Event {
				k.frames(frames)
				return []backend.Event{backend.Frames{Frames: frames}}
			})
		},
		OnState: func(s backend.ConnState) {
			if k.store == nil || (s != backend.Reconnecting && s != backend.Closed) {
				deliver(backend.Connection{State: s})
				return
			}
			k.in(func() []backend.Event {
				k.offline()
				return []backend.Event{backend.Connection{State: s}}
			})
		},
		OnResult: func(r backend.Outcome) { deliver(r) },
		OnReset: func(h *wire.History, last wire.EventID) {
			var loaded *state.Store // nil: no history replaces the items
			if h != nil && len(h.Messages) > 0 {
				loaded, _ = load(h)
			}
			k.in(func() []backend.Event {
				k.history(h) // nil: nothing newer is kept
				return []backend.Event{backend.Reset{History: h, Loaded: loaded, Last: last}}
			})
		},
	}
}

// Traits: the backend keeps the conversation, listed in the sidebar.
func (b *Backend) Traits() backend.Traits {
	t := backend.Traits{Store: b.cfg.Store, Listed: true, Uploads: b.cfg.FilesPath != "",
		Offers: components.Offers{Edit: true, Regenerate: true, Branches: true, Feedback: true, Export: true, Jump: true}}
	if b.cfg.SessionsPath != "" {
		t.Sessions = newSessions(b.cfg.SessionsPath)
	}
	return t
}

// Do sends a command's frame. A frame larger than the backend takes is
// refused (*backend.TooLargeError), as is one the transport cannot even
// queue (backend.ErrOffline).
func (b *Backend) Do(cmd backend.Command, conv *state.Store) error {
	switch c := cmd.(type) {
	case backend.Forget:
		b.keep.forget(c.ID)
		return nil
	case backend.Upload:
		if b.deliver == nil || b.cfg.FilesPath == "" {
			return backend.ErrUnsupported
		}
		b.upload(c)
		return nil
	}
	frame, err := Encode(b.cfg.SessionID, cmd)
	if err != nil || frame == nil {
		return err
	}
	if b.cfg.MaxFrame > 0 && len(frame) > b.cfg.MaxFrame {
		return &backend.TooLargeError{Size: len(frame), Limit: b.cfg.MaxFrame}
	}
	if b.conn == nil {
		return backend.ErrOffline
	}
	return b.conn.Send(frame)
}

// Check measures the frame a message of text would make (its files are
// references to uploads: a few bytes each).
func (b *Backend) Check(conv *state.Store, text string, _ []wire.ContentBlock) error {
	return CheckMessage(b.cfg.SessionID, b.cfg.MaxFrame, text)
}

// CheckMessage says whether a message of text fits in max bytes as a
// frame (with a command id as long as the page's usually are).
func CheckMessage(sessionID string, max int, text string) error {
	if max <= 0 {
		return nil
	}
	frame, err := encodeCommand(wire.NewUserMessage(sessionID, text), "c0000")
	if err != nil {
		return err
	}
	if len(frame) > max {
		return &backend.TooLargeError{Size: len(frame), Limit: max}
	}
	return nil
}

// Encode is a command's client frame, tagged with its id; nil for a
// command that sends nothing (Save: the backend keeps the conversation).
func Encode(sessionID string, cmd backend.Command) ([]byte, error) {
	var id string
	var frame any
	switch c := cmd.(type) {
	case backend.Send:
		msg := wire.NewUserMessageWith(sessionID, c.Text, c.Files)
		if len(c.AppContext) > 0 {
			msg.AppContext, _ = json.Marshal(c.AppContext)
		}
		id, frame = c.ID, msg
	case backend.Answer:
		id, frame = c.ID, wire.NewAnswers(sessionID, c.Key, c.Answers)
	case backend.Decide:
		id, frame = c.ID, wire.NewDecisions(sessionID, c.Key, c.Decisions)
	case backend.Stop:
		id, frame = c.ID, wire.NewStop(sessionID)
	case backend.Edit:
		id, frame = c.ID, wire.NewEdit(sessionID, c.ParentID, c.Text, c.Files)
	case backend.Regenerate:
		id, frame = c.ID, wire.NewRegenerate(sessionID, c.MessageID)
	case backend.SelectBranch:
		id, frame = c.ID, wire.NewSelectBranch(sessionID, c.MessageID)
	case backend.Rate:
		id, frame = c.ID, wire.NewFeedback(sessionID, c.MessageID, c.Rating, c.Comment)
	case backend.Save, backend.SaveSoon, backend.Forget:
		return nil, nil
	default:
		return nil, backend.ErrUnsupported
	}
	return encodeCommand(frame, id)
}
