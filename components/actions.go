package components

import (
	"encoding/json"

	"stepwise/state/wire"
)

// The actions components raise for the controller; their values are the
// command types below. Components only raise them: what they do is the
// controller's (stepwise/app).
const (
	ActionSendMessage   = "stepwise.send"    // string: the text typed
	ActionStop          = "stepwise.stop"    // no value
	ActionAnswer        = "stepwise.answer"  // AnswerCommand
	ActionDecide        = "stepwise.decide"  // DecideCommand
	ActionToggleSources = "stepwise.sources" // bool: open the sources panel or not; none: toggle
	ActionSubmitForm    = "stepwise.form"    // FormCommand
	ActionCardExpired   = "stepwise.expired" // string: the key of a card whose countdown ended
)

// FormCommand answers an interrupt's form (BACKENDS.md section 2).
type FormCommand struct {
	Key    string
	Values json.RawMessage // state.BuildFormValues's answer
}

// AnswerCommand answers a question form.
type AnswerCommand struct {
	Key     string
	Answers map[string]string
}

// DecideCommand answers a tool approval.
type DecideCommand struct {
	Key       string
	Decisions []wire.Decision
}

// ActionCopy asks the controller to put text on the clipboard; its value is
// a CopyCommand.
const ActionCopy = "stepwise.copy"

// CopyCommand is what a copy button copies: ID names the button (an
// answer's, or one of its code blocks'), so that it can show "Copied".
type CopyCommand struct {
	ID   string
	Text string
}

// The conversations list's actions (sidebar.go).
const (
	ActionNewConversation     = "stepwise.conversation.new"    // no value
	ActionRenameConversation  = "stepwise.conversation.rename" // RenameCommand
	ActionDeleteConversation  = "stepwise.conversation.delete" // string: the session id, confirmed
	ActionToggleConversations = "stepwise.conversations"       // bool: open the drawer or not; none: toggle
)

// RenameCommand gives a conversation a title.
type RenameCommand struct {
	ID    string
	Title string
}

// What is typed and not sent yet, raised as it changes so that a reload
// keeps it (the controller keeps it per conversation, app/drafts.go).
const (
	ActionDraftChanged = "stepwise.draft"      // string: the composer's text
	ActionFormDraft    = "stepwise.form.draft" // FormDraft
)

// FormDraft is a form's state as its view gives it back
// (FormState.Restore): a question's choices, an approval's edited
// arguments.
type FormDraft struct {
	Key   string
	Value string
}
