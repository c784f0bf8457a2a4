package components

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// The user's half of a conversation (docs/protocol-extensions.md,
// #branches and #feedback): a sent message is edited in place, an answer
// regenerated, the versions of a message switched with "‹ 2 / 3 ›", an
// answer rated. The controls come only for messages with an id (the
// backend keeps the tree) and only for what the controller handles
// (Settings.Offers). None works while a run is going: each says why.

// Offers are what the controller handles beyond sending; a page offers
// only those.
type Offers struct {
	Edit       bool // edit a sent message (a new version from there)
	Regenerate bool // a new version of an answer
	Branches   bool // switch between a message's versions
	Feedback   bool // thumbs up or down, with a comment
	Export     bool // the conversation as Markdown or JSON
	Jump       bool // "jump to latest" while the reader is scrolled up
}

// The message actions and their values.
const (
	ActionEditSent     = "stepwise.message.edit"       // EditCommand
	ActionRegenerate   = "stepwise.message.regenerate" // string: the answer's message id
	ActionSelectBranch = "stepwise.message.branch"     // string: the version's message id
	ActionDiscardEdit  = "stepwise.message.discard"    // string: the message id whose editor was cancelled
	ActionFeedback     = "stepwise.message.feedback"   // FeedbackCommand
	ActionExport       = "stepwise.export"             // string: "markdown" or "json"
	ActionJumpToLatest = "stepwise.jump"               // no value
)

// EditCommand sends a new version of a user message: after ParentID (""
// for the conversation's start), with its text and the files it kept.
type EditCommand struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	MessageID string    // the version edited
	ParentID  string
	Text      string
	Files     []state.Attachment
}

// FeedbackCommand rates an answer: Rating "up", "down", or "" to take the
// rating back.
type FeedbackCommand struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	MessageID string
	Rating    string
	Comment   string
}

// UserView is a message the person sent: its text, its files, and, under
// it, copy, edit and its versions. Editing happens in place: Enter (as in
// the composer) or Save sends the new version, Escape or Cancel puts the
// message back as it was.
type UserView struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Busy     bool // a run is going
	Copied   string
	// Editor is what the page holds of the message's editor (Forms,
	// EditFormKey): an edit refused, or typed before a reload. The editor
	// opens again with its text (and why it was refused).
	Editor FormState

	editing bool
	key     int // the item editing is about (a view may be reused for another)
	reopen  int // what the editor last opened again for (FormState.Reopen)
	// focusEditor: the editor takes the focus as it opens (not when a
	// refusal opens it again while the reader is elsewhere).
	focusEditor bool
}

// editedFrom is the message an edit was sent from, until its new version
// is drawn: the new version takes the focus (its edit button), which was
// on the old one's, gone with it.
var editedFrom state.MessageRef

func (v *UserView) editID() string { return domID("edit", v.Item) }

func (v *UserView) save(ctx app.Context) {
	box := app.Window().GetElementByID(v.editID())
	if !box.Truthy() || v.Busy {
		return
	}
	text, it := strings.TrimSpace(box.Get("value").String()), v.Item
	if text == "" && len(it.Attachments) == 0 {
		return
	}
	if text == strings.TrimSpace(it.Text) {
		v.cancel(ctx) // nothing changed: no new version
		return
	}
	v.close(ctx)
	editedFrom = *it.Message
	ctx.NewActionWithValue(ActionEditSent, EditCommand{MessageID: it.Message.ID, ParentID: it.Message.ParentID, Text: text, Files: it.Attachments})
}

// close leaves the editor and gives the focus back to the edit button.
func (v *UserView) close(ctx app.Context) {
	v.editing = false
	id := domID("edit-button", v.Item)
	focusID(id) // not Defer: it would not run, the button clicked being gone
}

func (v *UserView) onSubmit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	v.save(ctx)
}

func (v *UserView) onCancel(ctx app.Context, e app.Event) { v.cancel(ctx) }

// cancel leaves the editor as it was; what was typed in it is dropped.
func (v *UserView) cancel(ctx app.Context) {
	v.close(ctx)
	ctx.NewActionWithValue(ActionDiscardEdit, v.Item.Message.ID)
}

// onInput keeps what is typed in the editor for a reload (a draft, as the
// composer's).
func (v *UserView) onInput(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	ctx.NewActionWithValue(ActionFormDraft, FormDraft{Key: EditFormKey(v.Item.Message.ID), Value: e.Get("target").Get("value").String()})
}

func (v *UserView) onEdit(ctx app.Context, e app.Event) { v.editing, v.focusEditor = !v.Busy, true }

func (v *UserView) onKeyDown(ctx app.Context, e app.Event) {
	switch {
	case e.Get("key").String() == "Escape":
		e.PreventDefault()
		e.Call("stopPropagation")
		v.cancel(ctx)
	case enterSends(e):
		e.PreventDefault()
		v.save(ctx)
	default:
		ctx.PreventUpdate()
	}
}

func (v *UserView) Render() app.UI {
	it, s := v.Item, v.Settings
	if v.key != it.Key {
		v.key, v.editing, v.reopen = it.Key, false, 0
	}
	if r := v.Editor; r.Reopen == 0 {
		v.reopen = 0
	} else if r.Reopen != v.reopen {
		// The editor again, with the focus if the reader is still where
		// the edit left it (this message's edit button, or nowhere).
		v.reopen, v.editing = r.Reopen, true
		v.focusEditor = focusIsOnOrNowhere(domID("edit-button", it))
	}
	ref := it.Message
	if ref != nil && editedFrom.ID != "" && ref.ID != editedFrom.ID && ref.ParentID == editedFrom.ParentID && ref.Count > editedFrom.Count {
		editedFrom = state.MessageRef{}
		focusID(domID("edit-button", it))
	}
	var body app.UI = attrs(textElem("div", "bubble", it.Text), "dir", "auto")
	if v.editing && ref != nil {
		id, text, why := v.editID(), it.Text, app.UI(nil)
		box := attrs(app.Elem("textarea").Class("edit-input"), "id", id, "data-testid", "edit-input", "aria-label", s.T("message.edit_label"))
		if v.Editor.Reopen != 0 {
			text = v.Editor.Restore
		}
		if v.Editor.Error != "" {
			whyID := domID("edit-error", it)
			// A new element for each refusal (go-app replaces an element of
			// another tag): a screen reader says an alert as it is added,
			// not when the same words are set again.
			tag := "p"
			if v.Editor.Reopen%2 == 0 {
				tag = "div"
			}
			why = attrs(textElem(tag, "form-error", v.Editor.Error), "id", whyID, "role", "alert", "data-testid", "edit-error")
			box = attrs(box, "aria-describedby", whyID)
		}
		body = attrs(elem("form", "edit-form",
			&focusOnMount{ID: id, Skip: !v.focusEditor, Elem: attrs(box, "rows", strconv.Itoa(min(8, strings.Count(text, "\n")+2)), "value", text).
				On("keydown", v.onKeyDown).On("input", v.onInput)},
			why,
			elem("div", "edit-buttons",
				attrs(textElem("button", "primary", s.T("message.save")), "type", "submit", "data-testid", "edit-save"),
				textButton("", "edit-cancel", s.T("message.cancel")).On("click", v.onCancel),
			),
		), "data-testid", "edit-form").On("submit", v.onSubmit)
	}
	actions := []app.UI{copyButton(strconv.Itoa(it.Key)+".user", it.Text, "copy.message", v.Copied, s)}
	if ref != nil && s.Offers.Edit && !v.editing {
		actions = append(actions, attrs(actionButton(s, v.Busy, "pencil", "message.edit", "edit"), "id", domID("edit-button", it)).On("click", v.onEdit))
	}
	actions = append(actions, messageMeta(ref, s, v.Busy)...)
	// The actions beside the item, not in it: the item's text is the
	// message's (DOM.md's data-kind="user").
	return elem("div", "user-turn",
		attrs(elem("div", "item user", body, attachmentsView(it, s)), "data-kind", "user"),
		elem("div", "msg-actions", actions...),
	)
}

// actionButton is an icon button of a message. While a run is going it is
// aria-disabled, not disabled: it stays focusable, and its title says why
// (and raise does nothing).
//
//go:noinline
func actionButton(s Settings, busy bool, iconName, labelKey, testid string) app.HTMLElem {
	b := iconButton("msg-action", testid, s.T(labelKey), iconName)
	if busy {
		b = attrs(b, "aria-disabled", "true", "title", s.T("message.busy"))
	}
	return b
}

// iconButton is a button that shows an icon, named by label (also its
// tooltip), and textButton one that shows words. Helpers, not chains at
// each use: every chained attribute is code in the wasm.
//
//go:noinline
func iconButton(class, testid, label, iconName string) app.HTMLElem {
	return attrs(elem("button", "icon-button "+class, icon(iconName)),
		"type", "button", "data-testid", testid, "aria-label", label, "title", label)
}

//go:noinline
func textButton(class, testid, text string) app.HTMLElem {
	return attrs(textElem("button", class, text), "type", "button", "data-testid", testid)
}

// raiser makes a button raise action with value when clicked (raise):
// one handler for every such button, its data in the DOM.
//
//go:noinline
func raiser(b app.HTMLElem, action, value string) app.HTMLElem {
	return attrs(b, "data-action", action, "data-value", value).On("click", raise)
}

// raise is a raiser's click: the action its button names, unless the
// button waits for a run to end (aria-disabled); and what the page does
// about the focus (the button clicked may go with its view).
func raise(ctx app.Context, e app.Event) {
	b := e.Get("currentTarget")
	action, value := b.Get("dataset").Get("action").String(), ""
	if v := b.Get("dataset").Get("value"); v.Type() == app.TypeString {
		value = v.String() // an empty value is no attribute: no message id
	}
	if b.Call("getAttribute", "aria-disabled").String() == "true" {
		ctx.PreventUpdate()
		return
	}
	switch action {
	case ActionSelectBranch:
		branchChosen = value
	case ActionRemoveFile:
		focusID(composerID) // not Defer: go-app skips it once the button is gone
	case ActionExport:
		focusID("export-button") // the menu closes as its item is clicked
	}
	ctx.NewActionWithValue(action, value)
}

// messageMeta is what every message with an id shows at the end of its
// actions: its versions, and when it was made (seen on hover and focus).
func messageMeta(ref *state.MessageRef, s Settings, busy bool) []app.UI {
	if ref == nil {
		return nil
	}
	var out []app.UI
	if ref.Count > 1 && s.Offers.Branches {
		out = append(out, branchSwitcher(ref, s, busy))
	}
	if ref.CreatedAt != "" {
		out = append(out, attrs(textElem("time", "msg-time", shortTime(ref.CreatedAt)), "datetime", ref.CreatedAt, "title", ref.CreatedAt))
	}
	return out
}

// branchSwitcher is "‹ 2 / 3 ›": the previous and next versions of a
// message; the conversation follows the one chosen.
func branchSwitcher(ref *state.MessageRef, s Settings, busy bool) app.UI {
	focus := ref.ID == branchChosen
	if focus {
		branchChosen = ""
	}
	steps := [2]app.UI{}
	for k, i := range [2]int{ref.Index - 2, ref.Index} {
		testid, glyph, labelKey := "branch-previous", "‹", "message.previous"
		if k == 1 {
			testid, glyph, labelKey = "branch-next", "›", "message.next"
		}
		id := testid + "-" + ref.ID
		b := attrs(textButton("icon-button branch-step", testid, glyph), "id", id, "aria-label", s.T(labelKey))
		switch {
		case i < 0 || i >= len(ref.Siblings):
			b = attrs(b, "disabled", "true")
		case busy:
			b = attrs(b, "aria-disabled", "true", "title", s.T("message.busy"))
		default:
			if focus {
				focus = false
				focusID(id)
			}
			b = raiser(b, ActionSelectBranch, ref.Siblings[i])
		}
		steps[k] = b
	}
	return attrs(elem("div", "branch",
		steps[0],
		attrs(textElem("span", "", strconv.Itoa(ref.Index)+" / "+strconv.Itoa(ref.Count)), "aria-hidden", "true"),
		steps[1],
	), "role", "group", "aria-label", s.T("message.version", ref.Index, ref.Count), "data-testid", "branch")
}

// branchChosen is the version a switcher's click chose, until it is
// drawn: the message shown is another, the button clicked gone with the
// old one, so the new version's switcher takes the focus (its first
// step that can be pressed).
var branchChosen string

// answerActions are an answer's controls beside its copy button:
// regenerate, the rating, its versions, its time. For an answer that
// ended in an error, regenerate is the way out.
func answerActions(it *state.Item, s Settings, busy bool) []app.UI {
	ref := it.Message
	if ref == nil || ref.Role != "assistant" {
		return nil
	}
	var out []app.UI
	if s.Offers.Regenerate {
		out = append(out, raiser(actionButton(s, busy, "retry", "message.regenerate", "regenerate"), ActionRegenerate, ref.ID))
	}
	if s.Offers.Feedback && ref.ID != "" { // an error before any message: nothing to rate
		out = append(out, feedbackView(ref, s))
	}
	return append(out, messageMeta(ref, s, busy)...)
}

// feedbackView is an answer's thumbs up and down. Choosing one sends it
// at once and offers a comment (optional: Skip leaves it); choosing it
// again takes the rating back.
func feedbackView(ref *state.MessageRef, s Settings) app.UI {
	r := ""
	if ref.Feedback != nil {
		r = ref.Feedback.Rating
	}
	thumbs := [2]app.UI{}
	for i, t := range [2][2]string{{"up", "feedback.up"}, {"down", "feedback.down"}} {
		rating, pressed := t[0], "false"
		if r == rating {
			pressed = "true"
		}
		thumbs[i] = attrs(iconButton("msg-action thumb", "feedback-"+rating, s.T(t[1]), "thumb-"+rating),
			"aria-pressed", pressed, "data-value", ref.ID, "data-rating", rating).On("click", onThumb)
	}
	var more app.UI
	switch {
	case commenting.id == ref.ID && commenting.rating != "" && commenting.rating == r:
		id, label := commentID(ref.ID), s.T("feedback.comment")
		more = attrs(elem("form", "feedback-form",
			&focusOnMount{ID: id, Elem: voidElem("input", "type", "text", "id", id, "data-testid", "feedback-comment",
				"maxlength", "2000", "aria-label", label, "placeholder", label).On("keydown", onCommentKey)},
			attrs(textElem("button", "", s.T("feedback.send")), "type", "submit", "data-testid", "feedback-send"),
			textButton("", "feedback-skip", s.T("feedback.skip")).On("click", skipComment),
		), "data-testid", "feedback-form").On("submit", onComment)
	case ref.Feedback != nil && ref.Feedback.Comment != "":
		more = attrs(textElem("span", "feedback-note", s.T("feedback.thanks")), "data-testid", "feedback-note")
	}
	return attrs(elem("div", "feedback", thumbs[0], thumbs[1], more), "data-testid", "feedback", "data-rating", r)
}

// commenting is the answer whose rating's comment is being written (one
// at a time), until it is sent or skipped.
var commenting struct{ id, rating string }

func commentID(messageID string) string { return "feedback-comment-" + messageID }

// onThumb rates the answer as the thumb clicked says; the rating it had
// pressed again is taken back.
func onThumb(ctx app.Context, e app.Event) {
	b := e.Get("currentTarget")
	id, r := b.Get("dataset").Get("value").String(), b.Get("dataset").Get("rating").String()
	if b.Get("parentElement").Get("dataset").Get("rating").String() == r {
		r = "" // pressed again: taken back
	}
	commenting.id, commenting.rating = id, r
	ctx.NewActionWithValue(ActionFeedback, FeedbackCommand{MessageID: id, Rating: r})
}

func onComment(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if box := app.Window().GetElementByID(commentID(commenting.id)); box.Truthy() {
		if text := strings.TrimSpace(box.Get("value").String()); text != "" {
			ctx.NewActionWithValue(ActionFeedback, FeedbackCommand{MessageID: commenting.id, Rating: commenting.rating, Comment: text})
		}
	}
	skipComment(ctx, e)
}

func onCommentKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		skipComment(ctx, e)
		return
	}
	ctx.PreventUpdate()
}

func skipComment(ctx app.Context, e app.Event) { commenting.id, commenting.rating = "", "" }

// jumpToLatest brings a reader who scrolled up during a run back to the
// newest step. It is always in the page, after the conversation: the
// stylesheet shows it only while the conversation is data-reading and its
// agent running, so scrolling re-renders nothing.
func jumpToLatest(s Settings) app.UI {
	return raiser(textButton("jump-latest", "jump-latest", s.T("conversation.jump")), ActionJumpToLatest, "")
}
