package app

import (
	"errors"
	"strings"

	"stepwise/state"
	"stepwise/state/wire"
)

// Conn sends client frames to the backend.
type Conn interface {
	Send(frame any) error
}

// ConnState is the connection's state as DOM.md names it.
type ConnState string

// The connection states.
const (
	ConnConnecting   ConnState = "connecting"
	ConnOpen         ConnState = "open"
	ConnReconnecting ConnState = "reconnecting"
	ConnClosed       ConnState = "closed"
)

// ErrEmptyMessage is returned for a message with nothing but spaces.
var ErrEmptyMessage = errors.New("empty message")

// Session is the controller of one conversation: it applies what the
// transport delivers to the store and turns user actions into frames. It is
// used from the UI goroutine only.
type Session struct {
	ID    string
	Store *state.Store
	Conn  Conn
	State ConnState

	// Echo applies a user's own message locally, for transports whose
	// backend does not echo it (replay mode).
	Echo bool
}

// NewSession returns a session with an empty store.
func NewSession(cfg Config, conn Conn) *Session {
	return &Session{
		ID:    cfg.SessionID,
		Store: state.New(state.Options{FaviconService: cfg.FaviconService}),
		Conn:  conn,
		State: ConnConnecting,
	}
}

// Apply applies one frame from the backend.
func (s *Session) Apply(frame []byte) state.Changes {
	return s.Store.ApplyJSON(frame)
}

// SendMessage sends what the user typed.
func (s *Session) SendMessage(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return ErrEmptyMessage
	}
	if err := s.Conn.Send(wire.NewUserMessage(s.ID, text)); err != nil {
		return err
	}
	if s.Echo {
		ev := wire.Event{Type: "user_message", Text: &text}
		s.Store.Apply(&ev)
	}
	return nil
}

// Answer sends a question form's answers.
func (s *Session) Answer(key string, answers map[string]string) error {
	return s.Conn.Send(wire.NewAnswers(s.ID, key, answers))
}

// Decide sends a tool approval's decisions, checked first.
func (s *Session) Decide(key string, decisions []wire.Decision) error {
	it := s.Store.Approval(key)
	if it == nil || it.Approval == nil {
		return errors.New("no such approval: " + key)
	}
	if err := state.CheckDecisions(it.Approval, decisions); err != nil {
		return err
	}
	return s.Conn.Send(wire.NewDecisions(s.ID, key, decisions))
}

// Stop asks the agent to stop.
func (s *Session) Stop() error {
	return s.Conn.Send(wire.NewStop(s.ID))
}
