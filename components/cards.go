package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Cards (approvals, questions, interrupt forms) ask the user to act, but
// never take the keyboard from them: a card that mounts while the user
// types would turn the next space into a click on its first button. So a
// card is announced by the status region (app/announce.go), reached with
// CardShortcut, and takes the focus itself only when nothing else has it
// and the composer is empty (a page that opens, or reloads, on a waiting
// card). Even then the focus goes to the card's group, never to a button.

// CardShortcut goes from anywhere to the newest waiting card, and from a
// card back to the composer (aria-keyshortcuts syntax).
const CardShortcut = "Alt+Shift+A"

// pendingCards selects the waiting cards, oldest first.
const pendingCards = `[data-card][data-state="pending"]`

// cardKeys is the card's visible hint of its shortcut (screen readers get
// it from aria-keyshortcuts and the announcement). Touch screens hide it.
func cardKeys(s Settings) app.UI {
	return app.Span().Class("card-keys").Aria("hidden", true).Title(s.T("card.keys_hint")).Text(s.T("card.keys"))
}

// focusCardIfIdle focuses the card with that id once it is drawn, if the
// user is doing nothing else: focus on the page's body and the composer
// empty.
func focusCardIfIdle(ctx app.Context, id string) {
	if !app.IsClient {
		return
	}
	ctx.Defer(func(app.Context) { focusCardWhenDrawn(id, 10) })
}

func focusCardWhenDrawn(id string, tries int) {
	doc := app.Window().Get("document")
	if el := app.Window().GetElementByID(id); el.Truthy() {
		active := doc.Get("activeElement")
		if active.Truthy() && !active.Equal(doc.Get("body")) {
			return
		}
		if box := app.Window().GetElementByID(composerID); box.Truthy() && box.Get("value").String() != "" {
			return
		}
		el.Call("focus", map[string]any{"preventScroll": true})
		return
	}
	if tries == 0 {
		return
	}
	var next app.Func
	next = app.FuncOf(func(this app.Value, args []app.Value) any {
		next.Release()
		focusCardWhenDrawn(id, tries-1)
		return nil
	})
	app.Window().Call("requestAnimationFrame", next)
}

// ListenCardShortcut handles CardShortcut on the whole page (once, as the
// app starts): the newest waiting card takes the focus, or the composer
// when the focus is in a card already. With no card waiting the keys are
// left alone (on a Mac, Option+Shift+A types a letter).
func ListenCardShortcut() {
	if !app.IsClient {
		return
	}
	app.Window().Call("addEventListener", "keydown", app.FuncOf(func(this app.Value, args []app.Value) any {
		onCardShortcut(args[0])
		return nil
	}))
}

func onCardShortcut(e app.Value) {
	if !e.Get("altKey").Bool() || !e.Get("shiftKey").Bool() || e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() {
		return
	}
	// The key that types A, or on a layout where Alt+Shift types another
	// character (a Mac), the key where A is.
	key := e.Get("key").String()
	if key != "a" && key != "A" && (e.Get("code").String() != "KeyA" || isASCIILetter(key)) {
		return
	}
	doc := app.Window().Get("document")
	cards := doc.Call("querySelectorAll", pendingCards)
	n := cards.Length()
	if n == 0 {
		return
	}
	e.Call("preventDefault")
	active := doc.Get("activeElement")
	for i := 0; i < n; i++ {
		if active.Truthy() && cards.Index(i).Call("contains", active).Bool() {
			if box := app.Window().GetElementByID(composerID); box.Truthy() {
				box.Call("focus")
			}
			return
		}
	}
	card := cards.Index(n - 1)
	card.Call("focus", map[string]any{"preventScroll": true})
	card.Call("scrollIntoView", map[string]any{"block": "nearest"})
}

func isASCIILetter(s string) bool {
	return len(s) == 1 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// isEnter is true for an Enter that submits a card's one-line field: not
// one that ends an input method's composition (isComposing, or the 229 key
// code Safari sends after compositionend), nor Shift+Enter.
func isEnter(e app.Event) bool {
	return e.Get("key").String() == "Enter" && !e.Get("shiftKey").Bool() &&
		!e.Get("isComposing").Bool() && e.Get("keyCode").Int() != 229
}
