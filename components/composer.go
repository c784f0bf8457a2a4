package components

import (
	"strings"
	"unicode/utf16"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Composer is the message box. Enter sends and Shift+Enter starts a new
// line, except while an input method composes and on touch keyboards (one
// rule, web/boot.js's stepwiseEnterSends, for this box and the prerendered
// page's). While the agent runs, Stop is the primary button and what is
// sent is queued until the run ends (the controller decides). A message is
// cleared as it is sent; when the controller hands it back (Draft: it was
// refused, taken back to edit, or typed before the app ran), it returns to
// the box. In the prerendered page (Starting) the send button is disabled:
// web/boot.js enables it as it takes the form over.
type Composer struct {
	app.Compo
	Settings Settings
	Running  bool
	Draft    Draft
	Starting bool
	Attach   Attach // the files it takes (attachments.go)

	restored int // the Draft.Seq last put back
}

const composerID = "composer-input"

// send raises the message typed so far and clears the box.
func (c *Composer) send(ctx app.Context) {
	box := app.Window().GetElementByID(composerID)
	if !box.Truthy() {
		return
	}
	text := box.Get("value").String()
	if text == "" && len(c.Attach.Files) == 0 {
		return
	}
	ctx.NewActionWithValue(ActionSendMessage, text)
	box.Set("value", "")
}

func (c *Composer) onKeyDown(ctx app.Context, e app.Event) {
	if !enterSends(e) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	c.send(ctx)
}

// enterSends asks web/boot.js whether a keydown sends the message. Without
// it (a page that did not load it) Enter is only a new line: the send
// button still sends.
func enterSends(e app.Event) bool {
	if e.Get("key").String() != "Enter" {
		return false
	}
	rule := app.Window().Get("stepwiseEnterSends")
	return rule.Type() == app.TypeFunction && rule.Invoke(e).Bool()
}

// onInput raises what is typed so far (the controller keeps it for a
// reload); the composer itself does not change.
func (c *Composer) onInput(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	ctx.NewActionWithValue(ActionDraftChanged, e.Get("target").Get("value").String())
}

// OnUpdate puts a draft back: into an empty box, or before what is typed
// when it merges.
func (c *Composer) OnUpdate(ctx app.Context) {
	if c.Draft.Seq == c.restored {
		return
	}
	c.restored = c.Draft.Seq
	box := app.Window().GetElementByID(composerID)
	if !box.Truthy() {
		return
	}
	text := c.Draft.Text
	if typed := box.Get("value").String(); strings.TrimSpace(typed) != "" {
		if !c.Draft.Merge {
			return
		}
		text += "\n" + typed
	}
	box.Set("value", text)
	if c.Draft.Focus {
		box.Call("focus")
		end := len(utf16.Encode([]rune(c.Draft.Text))) // the caret after the draft (a textarea counts UTF-16 units)
		box.Call("setSelectionRange", end, end)
	}
}

func (c *Composer) textarea() app.UI {
	box := app.Textarea().ID(composerID).DataSet("testid", "composer").Rows(1).Attr("dir", "auto").
		Attr("enterkeyhint", "enter").
		Placeholder(c.Settings.T("composer.placeholder")).OnKeyDown(c.onKeyDown).OnInput(c.onInput)
	if c.Attach.On {
		box = box.OnPaste(onPasteFiles)
	}
	return box
}

func (c *Composer) Render() app.UI {
	s := c.Settings
	send := app.Button().Type("submit").DataSet("testid", "send").Disabled(c.Starting)
	if c.Running {
		// What is sent now waits for the run's end: the button says so,
		// and Stop takes the primary place.
		send = send.Class("send queue").Title(s.T("composer.queue_hint")).Body(
			icon("send"), app.Span().Class("btn-label").Text(s.T("composer.queue")),
		)
	} else {
		send = send.Class("send primary").Body(
			icon("send"), app.Span().Class("btn-label").Text(s.T("composer.send")),
		)
	}
	// The chips' place is kept while there are none: go-app matches
	// children by position, and the textarea shifted by the first chip
	// would be made anew, losing what was typed.
	var chips, attach app.UI = app.Text(""), nil
	if len(c.Attach.Files) > 0 {
		chips = draftChips(s, c.Attach.Files)
	}
	if c.Attach.On {
		attach = attachButton(s, c.Attach, c.Starting)
	}
	return app.Form().Class("composer").OnSubmit(func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		c.send(ctx)
	}).Body(
		chips, attach,
		app.Label().For(composerID).Class("sr-only").Text(s.T("composer.label")),
		c.textarea(),
		send,
		app.If(c.Running, func() app.UI {
			return app.Button().Type("button").Class("stop primary").DataSet("testid", "stop").
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionStop) }).Body(
				app.Span().Class("stop-icon").Aria("hidden", true),
				app.Span().Class("btn-label").Text(s.T("composer.stop")),
			)
		}),
	)
}
