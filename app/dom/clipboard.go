package dom

import (
	"errors"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ErrNoClipboard: the page has no asynchronous clipboard (an insecure
// origin, an old browser).
var ErrNoClipboard = errors.New("no clipboard")

// WriteClipboard puts text on the system clipboard and calls done, on any
// goroutine, with the outcome. A variable: tests replace it.
var WriteClipboard = func(text string, done func(error)) {
	if !app.IsClient {
		done(ErrNoClipboard)
		return
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		done(ErrNoClipboard)
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

// ScrollToEnd brings the newest content into view once, after the render
// under way (after a send or a history load). Following new content while
// the reader is at the bottom needs no script: the conversation anchors
// its scroll on the .scroll-anchor after the last item (CSS
// overflow-anchor), which costs no layout per frame and leaves a reader
// who scrolled up where they are.
func ScrollToEnd(ctx app.Context) {
	if !app.IsClient {
		return
	}
	Defer(ctx, func(ctx app.Context) {
		if el := app.Window().GetElementByID("conversation"); el.Truthy() {
			el.Set("scrollTop", el.Get("scrollHeight"))
		}
	})
}
