package app

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// Conn sends client frames to the backend.
type Conn interface {
	// Send sends a client frame (JSON, tagged with its command_id:
	// docs/protocol-extensions.md#command-outcomes), or keeps it until the
	// connection is back. An error means nothing was sent (ErrOffline: too
	// many frames wait); the backend's verdict comes later, as a Result
	// from the transport.
	Send(frame []byte) error
}

// ConnState is the connection's state, as the page shows it.
type ConnState = components.Connection

// The connection states.
const (
	ConnConnecting   = components.ConnConnecting
	ConnOpen         = components.ConnOpen
	ConnReconnecting = components.ConnReconnecting
	ConnClosed       = components.ConnClosed
)

// ErrEmptyMessage is returned for a message with nothing but spaces.
var ErrEmptyMessage = errors.New("empty message")

// TooLargeError: a frame is larger than the backend takes (Config's
// MaxFrameBytes). Sent anyway, a WebSocket would be closed with 1009 and
// the message lost; it is refused before, and nothing is sent.
type TooLargeError struct {
	Size, Limit int // bytes
}

func (e *TooLargeError) Error() string {
	return "the message is " + strconv.Itoa(e.Size) + " bytes, over the backend's limit of " + strconv.Itoa(e.Limit)
}

// Result is a command's outcome, as the transport learns it: a
// command_result frame over WebSocket, the POST's status over SSE.
type Result struct {
	CommandID string
	Err       error // nil: accepted
}

// CommandError is a backend's refusal of a command.
type CommandError struct {
	Type    string // busy, invalid_request, ...; may be empty
	Message string
}

func (e *CommandError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	if e.Type != "" {
		return e.Type
	}
	return "refused"
}

// CommandKind says what a command does.
type CommandKind int

// The command kinds.
const (
	CommandMessage CommandKind = iota
	CommandAnswer
	CommandDecide
	CommandStop
)

// Command is a command sent and not yet answered.
type Command struct {
	ID   string
	Kind CommandKind
	Key  string // CommandAnswer, CommandDecide: the approval key
	Text string // CommandMessage: what was typed
}

// maxWaiting bounds the commands kept for their outcome: a backend that
// never answers (it predates command_result) must not grow the list.
const maxWaiting = 64

// Session is one conversation's model: the store, the connection, and the
// commands waiting for their outcome. It is used only in go-app's engine
// work, as everything the Controller holds (see Controller).
type Session struct {
	ID    string
	Store *state.Store
	Conn  Conn
	State ConnState

	// Echo applies a user's own message locally, for transports whose
	// backend does not echo it (replay mode).
	Echo bool
	// AppContext goes with the next message: the MCP Apps' model context
	// (mcphost.go).
	AppContext json.RawMessage
	// MaxFrame is the largest client frame the backend takes, in bytes (0:
	// no limit).
	MaxFrame int

	seq     int
	waiting []Command // oldest first
}

// NewSession returns a session with an empty store.
func NewSession(cfg Config, conn Conn) *Session {
	return &Session{
		ID:       cfg.SessionID,
		Store:    state.New(storeOptions(cfg)),
		Conn:     conn,
		State:    ConnConnecting,
		MaxFrame: cfg.MaxFrameBytes,
	}
}

// storeOptions are the options of a session's stores.
func storeOptions(cfg Config) state.Options {
	return state.Options{FaviconService: cfg.FaviconService}
}

// Apply applies one frame from the backend.
func (s *Session) Apply(frame []byte) state.Changes {
	return s.Store.ApplyJSON(frame)
}

// send gives c an id and sends frame with it, unless the frame is larger
// than the backend takes (*TooLargeError).
func (s *Session) send(c Command, frame any) (Command, error) {
	s.seq++
	c.ID = "c" + strconv.Itoa(s.seq)
	b, err := encodeCommand(frame, c.ID)
	if err != nil {
		return c, err
	}
	if s.MaxFrame > 0 && len(b) > s.MaxFrame {
		return c, &TooLargeError{Size: len(b), Limit: s.MaxFrame}
	}
	if err := s.Conn.Send(b); err != nil {
		return c, err
	}
	if len(s.waiting) == maxWaiting {
		s.waiting = append(s.waiting[:0], s.waiting[1:]...)
	}
	s.waiting = append(s.waiting, c)
	return c, nil
}

// Outcome takes the command a result answers off the waiting list; ok is
// false for an id this session is not waiting for.
func (s *Session) Outcome(id string) (c Command, ok bool) {
	for i, w := range s.waiting {
		if w.ID == id {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			return w, true
		}
	}
	return Command{}, false
}

// SendMessage sends what the user typed.
func (s *Session) SendMessage(text string) (Command, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Command{}, ErrEmptyMessage
	}
	frame := wire.NewUserMessage(s.ID, text)
	frame.AppContext, s.AppContext = s.AppContext, nil
	c, err := s.send(Command{Kind: CommandMessage, Text: text}, frame)
	if err == nil && s.Echo {
		ev := wire.Event{Type: "user_message", Text: &text}
		s.Store.Apply(&ev)
	}
	return c, err
}

// CheckMessage says whether text can be sent as a message: ErrEmptyMessage,
// a *TooLargeError, or nil. A message queued until the run ends is checked
// as it is queued, while its text can still stay in the composer.
func (s *Session) CheckMessage(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return ErrEmptyMessage
	}
	b, err := encodeCommand(wire.NewUserMessage(s.ID, text), "c"+strconv.Itoa(s.seq+1))
	if err != nil {
		return err
	}
	if s.MaxFrame > 0 && len(b) > s.MaxFrame {
		return &TooLargeError{Size: len(b), Limit: s.MaxFrame}
	}
	return nil
}

// Answer sends a question form's answers.
func (s *Session) Answer(key string, answers map[string]string) (Command, error) {
	return s.send(Command{Kind: CommandAnswer, Key: key}, wire.NewAnswers(s.ID, key, answers))
}

// Decide sends a tool approval's decisions, checked first.
func (s *Session) Decide(key string, decisions []wire.Decision) (Command, error) {
	c := Command{Kind: CommandDecide, Key: key}
	it := s.Store.Approval(key)
	if it == nil || it.Approval == nil {
		return c, errors.New("no such approval: " + key)
	}
	if err := state.CheckDecisions(it.Approval, decisions); err != nil {
		return c, err
	}
	return s.send(c, wire.NewDecisions(s.ID, key, decisions))
}

// Stop asks the agent to stop.
func (s *Session) Stop() (Command, error) {
	return s.send(Command{Kind: CommandStop}, wire.NewStop(s.ID))
}
