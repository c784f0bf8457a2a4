package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/dom"
	"stepwise/components"
)

// copiedFor is how long a copy button shows "Copied".
const copiedFor = 2 * time.Second

// onCopy writes what a copy button copies to the clipboard: the button
// shows "Copied" for a moment and the status region says it; when the
// browser refuses, the page's notice says how to copy by hand.
func (c *Controller) onCopy(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.CopyCommand)
	if !ok {
		return
	}
	dom.WriteClipboard(v.Text, func(err error) {
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
