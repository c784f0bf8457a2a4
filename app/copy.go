package app

import (
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
)

// copiedFor is how long a copy button shows "Copied".
const copiedFor = 2 * time.Second

// errNoClipboard: the page has no asynchronous clipboard (an insecure
// origin, an old browser).
var errNoClipboard = errors.New("no clipboard")

// writeClipboard puts text on the system clipboard and calls done, on any
// goroutine, with the outcome. A variable: tests replace it.
var writeClipboard = func(text string, done func(error)) {
	if !app.IsClient {
		done(errNoClipboard)
		return
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		done(errNoClipboard)
		return
	}
	var ok, fail app.Func
	settle := func(err error) {
		ok.Release()
		fail.Release()
		done(err)
	}
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		settle(nil)
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "refused"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Get("message").String()
		}
		settle(errors.New(msg))
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}

// onCopy writes what a copy button copies to the clipboard: the button
// shows "Copied" for a moment and the status region says it; when the
// browser refuses, the page's notice says how to copy by hand.
func (c *Controller) onCopy(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.CopyCommand)
	if !ok {
		return
	}
	writeClipboard(v.Text, func(err error) {
		ctx.Dispatch(func(ctx app.Context) { c.copiedText(ctx, v.ID, err) })
	})
}

// copiedText records the outcome of a copy, inside a dispatch.
func (c *Controller) copiedText(ctx app.Context, id string, err error) {
	if err != nil {
		c.notice = c.settings.T("copy.refused")
		return
	}
	if c.notice == c.settings.T("copy.refused") {
		c.notice = ""
	}
	c.copied = id
	c.announce.say(c.settings.T("copy.done"))
	ctx.After(copiedFor, func(ctx app.Context) {
		if c.copied == id {
			c.copied = ""
		}
	})
}
