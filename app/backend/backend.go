// Package backend is the other end of a conversation as the page sees it:
// one interface, whatever the backend speaks. The Stepwise protocol over
// WebSocket or SSE (package native), an AG-UI agent or an AI SDK chat
// route (package agent) and a replayed file (package replay) each
// implement Backend; the page (package page) decides, the controller
// (package app) runs what it decides, and neither asks which backend it
// has.
//
// Data flows one way: a backend delivers Events (what the conversation
// holds, its stream, the connection, the outcome of a command); the page
// applies them to its store; the person's actions become Commands, which
// the controller hands to Do; their outcomes come back as Events.
package backend

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// A Backend is the other end of one conversation.
//
// Open and Close are called once each, in go-app's engine work. Do and
// Check are called inside the page's update (a dispatch or an action
// handler), with the page's conversation, which they may read there and
// must not keep: the store is the page's, changed only in its update
// (docs/architecture.md, "Ownership and concurrency"). Neither blocks.
type Backend interface {
	// Open starts delivering the conversation: what it holds so far, then
	// what happens, each Event once and in order. deliver may be called
	// from any goroutine; the caller hands each event to the page's
	// update, in order.
	Open(deliver func(Event))
	// Do carries out cmd. Its outcome, when it has one, comes back as an
	// Outcome naming the command, unless Do refuses at once with an error
	// (nothing was sent: ErrOffline, a *TooLargeError, ...).
	Do(cmd Command, conv *state.Store) error
	// Check says whether a message of text can be sent now with the
	// conversation so far: nil, or a *TooLargeError. The page checks a
	// message as it is typed or queued, while its text can still stay in
	// the composer. Files are the message's, uploaded (or read inline).
	Check(conv *state.Store, text string, files []wire.ContentBlock) error
	// Traits says what the page needs to know of it beyond its events.
	Traits() Traits
	// Close stops delivering and lets go of the connection.
	Close()
}

// Traits are the facts about a backend that the page's decisions read.
type Traits struct {
	// Store are the options of the conversation's store: who keeps it
	// (state.Options.Kept) decides what the person's actions do to it.
	Store state.Options
	// Listed: the conversation goes into the conversations list (a
	// replayed file does not).
	Listed bool
	// Sessions is the backend's list of the caller's sessions, nil when
	// it keeps none.
	Sessions Sessions
	// Offers are the message actions it carries out (edit, regenerate,
	// versions, ratings); Uploads: it takes files (Upload).
	Offers  components.Offers
	Uploads bool
}

// Sessions is a backend's list of the caller's sessions. Its methods block
// on the network: call them on a goroutine of their own, never in the
// page's update.
type Sessions interface {
	// List returns the caller's sessions, or an error when the backend
	// has no list.
	List() (wire.SessionList, error)
	// Unlist takes session id off the caller's list (the person deleted
	// it).
	Unlist(id string) error
}

// ConnState is the connection's state, as the page shows it.
type ConnState = components.Connection

// The connection states.
const (
	Connecting   = components.ConnConnecting
	Open         = components.ConnOpen
	Reconnecting = components.ConnReconnecting
	Closed       = components.ConnClosed
)

// An Event is what a backend delivers. The types below are the only ones.
type Event interface{ event() }

// Loaded is the conversation so far (a history, a conversation the browser
// kept), loaded into a store of its own on the backend's goroutine: the
// page takes it in place of its own. Changes are the load's. LastShown,
// when set, says it is what the page last showed, kept by the browser and
// saved then, shown because the backend cannot be reached; the live
// conversation replaces it.
type Loaded struct {
	Store     *state.Store
	Changes   state.Changes
	LastShown time.Time
}

// NotKept: the backend cannot be reached, and the browser kept nothing of
// the conversation to show meanwhile.
type NotKept struct{}

// Frames are stream events, each once, in order: those that came
// together, to be applied (and drawn) together. Paced marks a stream
// without bound (an agent's run): the page spaces its renders.
type Frames struct {
	Frames [][]byte
	Paced  bool
}

// Happened is what the backend learnt of its stream that the stream itself
// cannot say (it ended early, went silent, was refused, resumed): the page
// applies it to its store.
type Happened struct{ Event state.Local }

// Connection is the connection's new state.
type Connection struct{ State ConnState }

// Network is the browser's word on its network: the page says at once
// that it is offline (a socket can look open for many seconds after the
// network went).
type Network struct{ Online bool }

// Outcome is a command's outcome: Err nil when the backend accepted it.
type Outcome struct {
	CommandID string
	Err       error
}

// Reset: the backend could not resume the stream after the last event
// delivered (docs/protocol-extensions.md#the-reset-frame). History is the
// conversation loaded since (nil when that failed), Loaded the same in a
// store of its own (nil without messages), Last the backend's newest id.
type Reset struct {
	History *wire.History
	Loaded  *state.Store
	Last    wire.EventID
}

// StreamClosed: the run's request is over, however it ended: the page
// keeps the conversation and sends what was queued.
type StreamClosed struct{}

// Oversized: an event larger than Limit bytes was skipped as it was read.
type Oversized struct{ Limit int }

// StorageRefused: the browser refuses to keep the conversation (or not
// even its newest turn fits); it stays in memory for as long as the page
// is open, and what was kept before stays kept.
type StorageRefused struct{}

// StorageFull: the browser's storage is full; the newest turns that fit
// are kept (what is shown is not touched).
type StorageFull struct{}

// Trimmed: the conversation restored lacks its oldest messages, left out
// when the browser's storage was full.
type Trimmed struct{}

// SaveDue: a save the backend put off (SaveSoon) is due: the page asks
// for it (Save), inside its update, where the conversation may be read.
type SaveDue struct{}

// Failed: the backend cannot be reached at all (a replayed file that
// could not be fetched).
type Failed struct{ Err error }

// Of are events the backend decides on only as they are applied: Events
// is called inside the page's update, with the conversation, and the
// events it returns are applied in order. A stream's events come so:
// dropped once the page has stopped or replaced the stream since they
// were read, and its end may ask for the stream again where the run
// still goes on. Events may change the backend as Do does.
type Of struct {
	Events func(conv *state.Store) []Event
}

func (Loaded) event()         {}
func (Frames) event()         {}
func (Happened) event()       {}
func (Connection) event()     {}
func (Network) event()        {}
func (Outcome) event()        {}
func (Reset) event()          {}
func (StreamClosed) event()   {}
func (Oversized) event()      {}
func (StorageRefused) event() {}
func (StorageFull) event()    {}
func (Trimmed) event()        {}
func (NotKept) event()        {}
func (SaveDue) event()        {}
func (Failed) event()         {}
func (Of) event()             {}
func (UploadProgress) event() {}
func (Uploaded) event()       {}

// UploadProgress: Sent of Total bytes of upload ID have gone.
type UploadProgress struct {
	_           [0]func() // not comparable: no equality code in app.wasm
	ID          string
	Sent, Total int64
}

// Uploaded is an upload's outcome: the file as the backend keeps it, or
// why it refused it (a *CommandError whose Type is one of the upload
// refusals of docs/protocol-extensions.md#attachments; Limit the bound).
type Uploaded struct {
	_     [0]func() // not comparable: no equality code in app.wasm
	ID    string
	File  wire.UploadedFile
	Err   error
	Limit int64
	// Block, when set, is the block that sends the file (its bytes read
	// in the browser, where the page keeps the conversation), not one
	// naming File.FileID.
	Block *wire.ContentBlock
}

// A Command is what the page asks of its backend. The types below are the
// only ones. ID, where a command has one, is the page's: the Outcome
// names it.
type Command interface{ command() }

// Send sends a message. AppContext is what the page's MCP Apps told the
// model since the last message (ui/update-model-context), which goes with
// it.
type Send struct {
	ID, Text   string
	AppContext []AppContext
	// Files are the files uploaded for it (image and document blocks).
	Files []wire.ContentBlock
}

// AppContext is one MCP App's model context.
type AppContext struct {
	ToolUseID   string          `json:"tool_use_id"`
	ResourceURI string          `json:"resource_uri"`
	Context     json.RawMessage `json:"context"`
}

// Answer answers a question card.
type Answer struct {
	ID, Key string
	Answers map[string]string
}

// Decide answers an approval card.
type Decide struct {
	ID, Key   string
	Decisions []wire.Decision
}

// SubmitForm answers a form card.
type SubmitForm struct {
	ID, Key string
	Values  json.RawMessage
}

// Continue: every card the agent waits on has its answer (state's
// AnswersSent was applied): the answers go, and the paused run goes on.
type Continue struct{ ID string }

// Stop asks the agent to stop.
type Stop struct{ ID string }

// Save keeps the conversation now, where the page keeps it.
type Save struct{}

// SaveSoon keeps it soon: a stream is being applied, and saves are
// batched (the backend delivers SaveDue when it is time).
type SaveSoon struct{}

// Forget: the person deleted conversation ID; what the backend keeps of
// it in the browser goes too.
type Forget struct{ ID string }

// Upload uploads a file the person attached (File: the browser's File
// object); UploadProgress and Uploaded come back.
type Upload struct {
	_                   [0]func() // not comparable: no equality code in app.wasm
	ID, Name, MediaType string
	File                any
}

// Edit sends a new version of a sent message: following ParentID ("" for
// the conversation's start), with its text and the files it keeps.
type Edit struct {
	ID, ParentID, Text string
	Files              []wire.ContentBlock
}

// Regenerate asks for another version of answer MessageID.
type Regenerate struct {
	_             [0]func() // not comparable: no equality code in app.wasm
	ID, MessageID string
}

// SelectBranch makes the conversation follow version MessageID.
type SelectBranch struct {
	_             [0]func() // not comparable: no equality code in app.wasm
	ID, MessageID string
}

// Rate rates answer MessageID: Rating "up", "down" or "" (taken back).
type Rate struct {
	_                              [0]func() // not comparable: no equality code in app.wasm
	ID, MessageID, Rating, Comment string
}

func (Send) command()         {}
func (Upload) command()       {}
func (Edit) command()         {}
func (Regenerate) command()   {}
func (SelectBranch) command() {}
func (Rate) command()         {}
func (Answer) command()       {}
func (Decide) command()       {}
func (SubmitForm) command()   {}
func (Continue) command()     {}
func (Stop) command()         {}
func (Save) command()         {}
func (SaveSoon) command()     {}
func (Forget) command()       {}

// ErrOffline: not connected, and too many frames wait for the connection:
// the command was not even queued.
var ErrOffline = errors.New("not connected, and too many messages are waiting")

// ErrUnsupported: the backend has no such command.
var ErrUnsupported = errors.New("this backend does not take this command")

// TooLargeError: a command is larger than the backend takes. Sent anyway,
// a WebSocket would be closed with 1009 and the message lost; it is
// refused before, and nothing is sent.
type TooLargeError struct {
	Size, Limit int // bytes
	// Conversation: the request carries the whole conversation (the
	// AG-UI and AI SDK modes), so it is the conversation that is too
	// large, not the message.
	Conversation bool
}

func (e *TooLargeError) Error() string {
	what := "the message"
	if e.Conversation {
		what = "the request with the conversation"
	}
	return what + " is " + strconv.Itoa(e.Size) + " bytes, over the backend's limit of " + strconv.Itoa(e.Limit)
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
