package page

import (
	"time"

	"stepwise/app/backend"
	"stepwise/app/persist"
	"stepwise/components/i18n"
	"stepwise/state/wire"
)

// A Msg is what Update takes: one of the types below, an action value of
// package components (AnswerCommand, DecideCommand, FormCommand,
// CopyCommand, RenameCommand, FormDraft), or a backend.Event.
type Msg any

// A Cmd is what Update asks the controller to do: one of the types below,
// or a backend.Command (for Backend.Do; a refusal comes back as Refused).
type Cmd any

// The person's actions.
type (
	// Send: the composer's message.
	Send struct{ Text string }
	// Stop: the Stop button.
	Stop struct{}
	// RetryMessage sends a failed message again.
	RetryMessage struct{ ID int }
	// EditMessage takes a queued or failed message back into the composer.
	EditMessage struct{ ID int }
	// RemoveMessage drops a queued or failed message.
	RemoveMessage struct{ ID int }
	// DismissNotice closes the notice.
	DismissNotice struct{}
	// ToggleSources opens the sources panel or closes it (Open set: the
	// back and forward buttons on a phone), or toggles it.
	ToggleSources struct{ Open *bool }
	// NewConversation starts a new conversation.
	NewConversation struct{}
	// DeleteConversation forgets a conversation (the sidebar asked first).
	DeleteConversation struct{ ID string }
	// ToggleConversations opens the drawer (Open set) or toggles it.
	ToggleConversations struct{ Open *bool }
	// Boot is what was typed into the prerendered page before the app ran
	// (web/boot.js kept it): the messages sent, in order, and the text
	// still in the box.
	Boot struct {
		Messages []string
		Draft    string
		Focused  bool // the box had the focus
	}
	// DraftChanged: the composer's text changed (it is kept, not drawn).
	DraftChanged struct{ Text string }
	// DraftLoaded is what the browser kept of what was typed and not
	// sent in this conversation.
	DraftLoaded struct{ Draft persist.Draft }
	// SetLocale: the page speaks Locale from now on (its catalog is
	// loaded).
	SetLocale struct{ Locale i18n.Locale }
	// LanguageFailed: the catalog of the language Lang, chosen in the
	// menu, could not be loaded.
	LanguageFailed struct{ Lang string }
	// AppUpdate: a new version was deployed.
	AppUpdate struct{}
	// CardExpired: a card's countdown ended.
	CardExpired struct{}
	// AttachFiles: files picked, dropped or pasted into the composer.
	AttachFiles struct{ Files []PickedFile }
	// RemoveFile takes an attached file off the message being written.
	RemoveFile struct{ ID string }
	// Regenerate asks for another version of answer MessageID.
	Regenerate struct{ MessageID string }
	// SelectBranch shows version MessageID of a message.
	SelectBranch struct{ MessageID string }
	// DiscardEdit: the reader cancelled the editor of message MessageID;
	// what was typed in it goes (a refused edit, the editor's draft).
	DiscardEdit struct{ MessageID string }
	// Export saves the conversation as a file: Format "markdown" or "json".
	Export struct{ Format string }
	// JumpToLatest: the reader asked for the newest content.
	JumpToLatest struct{}
)

// What the commands bring back.
type (
	// Refused: Backend.Do refused a command at once.
	Refused struct {
		Command backend.Command
		Err     error
	}
	// Copied is a Clipboard's outcome.
	Copied struct {
		ID  string
		Err error
	}
	// CopiedGone: the moment a copy button shows "Copied" is over.
	CopiedGone struct{ ID string }
	// EchoWaitOver: an accepted message has waited echoWait for its echo.
	EchoWaitOver struct{}
	// ConnectionSettled: connection Conn has been open for echoWait.
	ConnectionSettled struct{ Conn int }
	// ListLoaded is the conversations list the browser keeps.
	ListLoaded struct {
		List []entry
		Err  error
	}
	// RemoteListed is the backend's list of the caller's sessions.
	RemoteListed struct{ List wire.SessionList }
	// ListRefused: the browser refused to keep the list.
	ListRefused struct{ Err error }
)

// The commands the controller carries out, besides backend commands.
type (
	// ScrollToEnd brings the newest content into view, after the render.
	ScrollToEnd struct{}
	// Redraw: the conversation's items were replaced (every chunk is
	// drawn live again; those of a long conversation a few at a time).
	Redraw struct{}
	// PaceRender spaces the renders of a stream without bound.
	PaceRender struct{}
	// Tell tells the embedding page of the status and the question
	// waiting.
	Tell struct{}
	// After sends Msg to Update after Delay.
	After struct {
		Delay time.Duration
		Msg   Msg
	}
	// Clipboard puts Text on the clipboard (Copied comes back).
	Clipboard struct{ ID, Text string }
	// Navigate loads Href as a new page.
	Navigate struct{ Href string }
	// PutConversation keeps a conversations-list entry (ListRefused
	// comes back if the browser refuses).
	PutConversation struct{ Conversation entry }
	// MergeList keeps what merging the backend's list changed, and takes
	// the ids the person deleted off the backend's list.
	MergeList struct {
		Changed []entry
		Removed []string
		Unlist  []string
	}
	// ForgetConversation deletes an entry from the list the browser keeps
	// and, Unlist, from the backend's; then, if Then is set, navigates
	// there.
	ForgetConversation struct {
		ID     string
		Unlist bool
		Then   string
	}
	// KeepListInMemory: the browser refuses storage; the list goes on in
	// memory, from List.
	KeepListInMemory struct{ List []entry }
	// ReleaseThumb lets go of an attached image's preview (an object URL).
	ReleaseThumb struct{ URL string }
	// Download offers Text to save as a file called Name.
	Download struct{ Name, MediaType, Text string }
	// KeepDraft writes what is typed and not sent (an empty Draft
	// removes it).
	KeepDraft struct{ Draft persist.Draft }
)
