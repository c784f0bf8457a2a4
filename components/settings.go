package components

import (
	"strings"
	"time"

	"stepwise/components/i18n"
	"stepwise/state"
)

// Settings are what every view needs besides its data: the UI language and
// the deployment's choices. The controller passes them down as a prop;
// views never change them.
type Settings struct {
	Locale         i18n.Locale
	AgentName      string
	FaviconService string // "" turns favicon fallbacks off
	// Offers are the message actions the controller handles (messages.go).
	Offers Offers
	// Logo is the URL of the deployment's logo, shown in place of the
	// Stepwise mark; "" for the mark.
	Logo string
}

// DefaultSettings are the settings of a page asked for nothing.
func DefaultSettings() Settings {
	return Settings{AgentName: "Stepwise", FaviconService: state.DefaultFaviconService}
}

// T returns the string for key in the UI language, formatted with args.
func (s Settings) T(key string, args ...any) string { return s.Locale.T(key, args...) }

// N returns the plural message key for count n in the UI language.
func (s Settings) N(key string, n int, args ...any) string { return s.Locale.N(key, n, args...) }

func (s Settings) agentName() string {
	if s.AgentName == "" {
		return "Stepwise"
	}
	return s.AgentName
}

// Connection is the connection's state as DOM.md names it.
type Connection string

// The connection states.
const (
	ConnConnecting   Connection = "connecting"
	ConnOpen         Connection = "open"
	ConnReconnecting Connection = "reconnecting"
	ConnClosed       Connection = "closed"
)

// connectionKeys describe each connection state.
var connectionKeys = map[Connection]string{
	ConnConnecting:   "connection.connecting",
	ConnOpen:         "connection.open",
	ConnReconnecting: "connection.reconnecting",
	ConnClosed:       "connection.closed",
}

// FormState is what the controller knows of the last command a question
// form or an approval card sent. A form without one is idle: editable.
type FormState struct {
	// Shown is when this page first showed the form: its countdown starts
	// there when the backend sent no created_at.
	Shown time.Time
	// Sending: the command went out, and the form waits for the agent.
	Sending bool
	// Error says why the command was refused or could not be sent; the
	// form is editable again.
	Error string
	// Restore is what the form's view last gave of its state
	// (ActionFormDraft) before the page was reloaded: the view starts
	// from it; "" for none. A message editor's: its text.
	Restore string
	// Reopen, when not 0, has a message's editor (Forms, EditFormKey)
	// open with Restore; each time the page opens it again (an edit
	// refused, one typed before a reload) has a new number, so the same
	// text refused twice opens its editor twice.
	Reopen int
}

// Forms holds the FormState of forms by approval key. The controller
// replaces the map on every change, never writes into one it passed down:
// go-app sees a new prop only when the value differs.
type Forms map[string]FormState

// of returns the forms of it: its own, or its steps' for a group; nil when
// there are none.
func (f Forms) of(it *state.Item) Forms {
	if len(f) == 0 {
		return nil
	}
	var out Forms
	add := func(it *state.Item) {
		key := ""
		switch {
		case it.Kind == state.KindUser && it.Message != nil:
			key = EditFormKey(it.Message.ID)
		case it.Question != nil:
			key = it.Question.ApprovalKey
		case it.Approval != nil:
			key = it.Approval.ApprovalKey
		default:
			return
		}
		if st, ok := f[key]; ok {
			if out == nil {
				out = Forms{}
			}
			out[key] = st
		}
	}
	if it.Group != nil {
		for _, st := range it.Group.Steps {
			add(st)
		}
	} else {
		add(it)
	}
	return out
}

// EditFormKey is the Forms key of the editor of user message id, and of
// its draft. Its state is an edit refused (Restore the text, Error why)
// or one typed before a reload: the editor opens with it again, so that
// nothing typed is lost.
func EditFormKey(id string) string { return editFormPrefix + id }

// IsEditFormKey tells a message editor's key from an approval key.
func IsEditFormKey(key string) bool { return strings.HasPrefix(key, editFormPrefix) }

const editFormPrefix = "edit\x00" // no approval key holds a NUL

// Draft is text the composer should show again: a message that was
// refused, or what was typed into the page before the app ran. Seq tells
// one draft from the next; Focus gives the box the focus back. A draft
// goes into an empty box only, unless Merge: then it goes before what is
// typed (a queued message taken back to edit).
type Draft struct {
	Text  string
	Seq   int
	Focus bool
	Merge bool
}
