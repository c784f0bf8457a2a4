package components

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
	"stepwise/state/wire"
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

	editing bool
	key     int // the item editing is about (a view may be reused for another)
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
	v.close(ctx)
	if text == strings.TrimSpace(it.Text) {
		return // nothing changed: no new version
	}
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

func (v *UserView) onCancel(ctx app.Context, e app.Event) { v.close(ctx) }

func (v *UserView) onEdit(ctx app.Context, e app.Event) { v.editing = !v.Busy }

func (v *UserView) onKeyDown(ctx app.Context, e app.Event) {
	switch {
	case e.Get("key").String() == "Escape":
		e.PreventDefault()
		e.Call("stopPropagation")
		v.close(ctx)
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
		v.key, v.editing = it.Key, false
	}
	ref := it.Message
	if ref != nil && editedFrom.ID != "" && ref.ID != editedFrom.ID && ref.ParentID == editedFrom.ParentID && ref.Count > editedFrom.Count {
		editedFrom = state.MessageRef{}
		focusID(domID("edit-button", it))
	}
	var body app.UI = app.Div().Class("bubble").Attr("dir", "auto").Text(it.Text)
	if v.editing && ref != nil {
		body = app.Form().Class("edit-form").DataSet("testid", "edit-form").OnSubmit(v.onSubmit).Body(
			&focusOnMount{ID: v.editID(), Elem: app.Textarea().ID(v.editID()).Class("edit-input").DataSet("testid", "edit-input").
				Aria("label", s.T("message.edit_label")).Rows(min(8, strings.Count(it.Text, "\n")+2)).Text(it.Text).OnKeyDown(v.onKeyDown)},
			app.Div().Class("edit-buttons").Body(
				app.Button().Type("submit").Class("primary").DataSet("testid", "edit-save").Text(s.T("message.save")),
				textButton("", "edit-cancel", s.T("message.cancel")).OnClick(v.onCancel),
			),
		)
	}
	actions := []app.UI{copyButton(strconv.Itoa(it.Key)+".user", it.Text, "copy.message", v.Copied, s)}
	if ref != nil && s.Offers.Edit && !v.editing {
		actions = append(actions, actionButton(s, v.Busy, "pencil", "message.edit", "edit").ID(domID("edit-button", it)).OnClick(v.onEdit))
	}
	actions = append(actions, messageMeta(ref, s, v.Busy)...)
	// The actions beside the item, not in it: the item's text is the
	// message's (DOM.md's data-kind="user").
	return app.Div().Class("user-turn").Body(
		app.Div().Class("item user").DataSet("kind", "user").Body(body, attachmentsView(it, s)),
		app.Div().Class("msg-actions").Body(actions...),
	)
}

// actionButton is an icon button of a message. While a run is going it is
// aria-disabled, not disabled: it stays focusable, and its title says why.
//
//go:noinline
func actionButton(s Settings, busy bool, iconName, labelKey, testid string) app.HTMLButton {
	b := iconButton("msg-action", testid, s.T(labelKey), iconName)
	if busy {
		b = b.Aria("disabled", true).Title(s.T("message.busy"))
	}
	return b
}

// iconButton is a button that shows an icon, named by label (also its
// tooltip), and textButton one that shows words. Helpers, not chains at
// each use: every chained attribute is code in the wasm.
//
//go:noinline
func iconButton(class, testid, label, iconName string) app.HTMLButton {
	return app.Button().Type("button").Class("icon-button "+class).DataSet("testid", testid).
		Aria("label", label).Title(label).Body(icon(iconName))
}

//go:noinline
func textButton(class, testid, text string) app.HTMLButton {
	return app.Button().Type("button").Class(class).DataSet("testid", testid).Text(text)
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
		out = append(out, app.Time().Class("msg-time").DateTime(ref.CreatedAt).Title(ref.CreatedAt).Text(shortTime(ref.CreatedAt)))
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
	step := func(i int, glyph, labelKey, testid string) app.UI {
		id := testid + "-" + ref.ID
		b := textButton("icon-button branch-step", testid, glyph).ID(id).Aria("label", s.T(labelKey))
		switch {
		case i < 0 || i >= len(ref.Siblings):
			return b.Disabled(true)
		case busy:
			return b.Aria("disabled", true).Title(s.T("message.busy"))
		}
		if focus {
			focus = false
			focusID(id)
		}
		target := ref.Siblings[i]
		return b.OnClick(func(ctx app.Context, e app.Event) {
			branchChosen = target
			ctx.NewActionWithValue(ActionSelectBranch, target)
		}, app.EventScope(target))
	}
	return app.Div().Class("branch").Attr("role", "group").Aria("label", s.T("message.version", ref.Index, ref.Count)).DataSet("testid", "branch").Body(
		step(ref.Index-2, "‹", "message.previous", "branch-previous"),
		app.Span().Aria("hidden", true).Text(strconv.Itoa(ref.Index)+" / "+strconv.Itoa(ref.Count)),
		step(ref.Index, "›", "message.next", "branch-next"),
	)
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
		id := ref.ID
		b := actionButton(s, busy, "retry", "message.regenerate", "regenerate")
		if !busy {
			b = b.OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(ActionRegenerate, id) }, app.EventScope(id))
		}
		out = append(out, b)
	}
	if s.Offers.Feedback {
		out = append(out, &FeedbackView{MessageID: ref.ID, Feedback: ref.Feedback, Settings: s})
	}
	return append(out, messageMeta(ref, s, busy)...)
}

// FeedbackView is an answer's thumbs up and down. Choosing one sends it at
// once and offers a comment (optional: Skip leaves it); choosing it again
// takes the rating back.
type FeedbackView struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	app.Compo
	MessageID string
	Feedback  *wire.Feedback
	Settings  Settings

	commenting string // the rating a comment is being written for
	of         string // the message commenting is about (a view may be reused for another)
}

func (v *FeedbackView) rating() string {
	if v.Feedback == nil {
		return ""
	}
	return v.Feedback.Rating
}

func (v *FeedbackView) rate(ctx app.Context, r string) {
	if v.rating() == r {
		r = "" // pressed again: taken back
	}
	v.commenting = r
	ctx.NewActionWithValue(ActionFeedback, FeedbackCommand{MessageID: v.MessageID, Rating: r})
}

func (v *FeedbackView) commentID() string { return "feedback-comment-" + v.MessageID }

func (v *FeedbackView) onComment(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if box := app.Window().GetElementByID(v.commentID()); box.Truthy() {
		if text := strings.TrimSpace(box.Get("value").String()); text != "" {
			ctx.NewActionWithValue(ActionFeedback, FeedbackCommand{MessageID: v.MessageID, Rating: v.commenting, Comment: text})
		}
	}
	v.commenting = ""
}

func (v *FeedbackView) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		v.commenting = ""
		return
	}
	ctx.PreventUpdate()
}

func (v *FeedbackView) skip(ctx app.Context, e app.Event) { v.commenting = "" }

func (v *FeedbackView) Render() app.UI {
	if v.of != v.MessageID {
		v.of, v.commenting = v.MessageID, ""
	}
	s, r := v.Settings, v.rating()
	thumb := func(rating, labelKey string) app.UI {
		return iconButton("msg-action thumb", "feedback-"+rating, s.T(labelKey), "thumb-"+rating).Aria("pressed", r == rating).
			OnClick(func(ctx app.Context, e app.Event) { v.rate(ctx, rating) }, app.EventScope(rating))
	}
	var more app.UI
	switch {
	case v.commenting != "" && v.commenting == r:
		id := v.commentID()
		more = app.Form().Class("feedback-form").DataSet("testid", "feedback-form").OnSubmit(v.onComment).Body(
			&focusOnMount{ID: id, Elem: app.Input().Type("text").ID(id).DataSet("testid", "feedback-comment").MaxLength(2000).
				Aria("label", s.T("feedback.comment")).Placeholder(s.T("feedback.comment")).OnKeyDown(v.onKeyDown)},
			app.Button().Type("submit").DataSet("testid", "feedback-send").Text(s.T("feedback.send")),
			textButton("", "feedback-skip", s.T("feedback.skip")).OnClick(v.skip),
		)
	case v.Feedback != nil && v.Feedback.Comment != "":
		more = app.Span().Class("feedback-note").DataSet("testid", "feedback-note").Text(s.T("feedback.thanks"))
	}
	return app.Div().Class("feedback").DataSet("testid", "feedback").DataSet("rating", r).Body(
		thumb("up", "feedback.up"), thumb("down", "feedback.down"), more)
}

// jumpToLatest brings a reader who scrolled up during a run back to the
// newest step. It is always in the page, after the conversation: the
// stylesheet shows it only while the conversation is data-reading and its
// agent running, so scrolling re-renders nothing.
func jumpToLatest(s Settings) app.UI {
	return textButton("jump-latest", "jump-latest", s.T("conversation.jump")).
		OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionJumpToLatest) })
}
