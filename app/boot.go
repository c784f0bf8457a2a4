package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
)

// bootInput is what a person did in the server's prerendered page before
// the app ran (web/boot.js kept it): the messages sent with Enter or the
// send button, in order, and the text still in the box.
type bootInput struct {
	Messages []string
	Draft    string
	Focused  bool // the box had the focus
}

// takeOverBoot sends the messages typed before the app ran, once and in
// order (the transports hold them until they are connected), and puts the
// rest of the text back into the composer, with the focus if it had it.
func (c *Controller) takeOverBoot(ctx app.Context, in bootInput) {
	for _, text := range in.Messages {
		c.onSend(ctx, app.Action{Value: text})
	}
	if in.Draft != "" {
		c.draft = components.Draft{Text: in.Draft, Seq: c.draft.Seq + 1, Focus: in.Focused}
	}
}
