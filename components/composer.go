package components

import (
	"strings"
	"unicode/utf16"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Composer is the message box: Enter sends, Shift+Enter starts a new line
// (and Enter while an input method composes does nothing); while the agent
// runs, a Stop button shows. A message is cleared as it is sent; when the
// controller hands it back (Draft: it was refused, or typed before the app
// ran), it returns to an empty box. In the prerendered page (Starting) the
// send button is disabled: web/boot.js enables it as it takes the form over.
type Composer struct {
	app.Compo
	Settings Settings
	Running  bool
	Draft    Draft
	Starting bool

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
	if text == "" {
		return
	}
	ctx.NewActionWithValue(ActionSendMessage, text)
	box.Set("value", "")
}

func (c *Composer) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Enter" || e.Get("shiftKey").Bool() || e.Get("isComposing").Bool() {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	c.send(ctx)
}

// OnUpdate puts a refused message back, unless something new was typed.
func (c *Composer) OnUpdate(ctx app.Context) {
	if c.Draft.Seq == c.restored {
		return
	}
	c.restored = c.Draft.Seq
	box := app.Window().GetElementByID(composerID)
	if !box.Truthy() || strings.TrimSpace(box.Get("value").String()) != "" {
		return
	}
	box.Set("value", c.Draft.Text)
	if c.Draft.Focus {
		box.Call("focus")
		end := len(utf16.Encode([]rune(c.Draft.Text))) // the caret after the text (a textarea counts UTF-16 units)
		box.Call("setSelectionRange", end, end)
	}
}

func (c *Composer) Render() app.UI {
	s := c.Settings
	return app.Form().Class("composer").OnSubmit(func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		c.send(ctx)
	}).Body(
		app.Label().For(composerID).Class("sr-only").Text(s.T("composer.label")),
		app.Textarea().ID(composerID).DataSet("testid", "composer").Rows(1).
			Placeholder(s.T("composer.placeholder")).OnKeyDown(c.onKeyDown),
		app.If(c.Running, func() app.UI {
			return app.Button().Type("button").Class("stop").DataSet("testid", "stop").
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionStop) }).Body(
				app.Span().Class("stop-icon").Aria("hidden", true),
				app.Span().Class("btn-label").Text(s.T("composer.stop")),
			)
		}),
		app.Button().Type("submit").Class("send primary").DataSet("testid", "send").Disabled(c.Starting).Body(
			icon("send"), app.Span().Class("btn-label").Text(s.T("composer.send")),
		),
	)
}
