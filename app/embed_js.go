//go:build js && wasm

package app

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/dom"
	"stepwise/app/page"
	"stepwise/state"
)

// embedBridge talks with the page that embeds the app (web/embed.js) by
// postMessage. It accepts commands only from the parent window, and only
// from the origin the loader named (parent_origin in the URL); it tells
// that origin when a question is asked or the agent's status changes.
type embedBridge struct {
	parent      js.Value
	origin      string
	lastPending string
	lastStatus  state.AgentStatus
}

// setupEmbed starts the bridge when the app runs in a frame with a
// parent_origin; it returns nil otherwise.
func setupEmbed(ctx app.Context, c *Controller) *embedBridge {
	w := js.Global()
	parent := w.Get("parent")
	origin := ctx.Page().URL().Query().Get("parent_origin")
	if origin == "" || parent.Equal(w.Get("window")) {
		return nil
	}
	b := &embedBridge{parent: parent, origin: origin}
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		e := args[0]
		if e.Get("origin").String() != b.origin || !e.Get("source").Equal(parent) {
			return nil // only the embedding page may command the app
		}
		data := e.Get("data")
		if data.Type() != js.TypeObject {
			return nil
		}
		switch data.Get("type").String() {
		case "stepwise:send":
			text := data.Get("text")
			if text.Type() == js.TypeString {
				dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.Send{Text: text.String()}) })
			}
		case "stepwise:stop":
			dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.Stop{}) })
		}
		return nil
	})
	w.Call("addEventListener", "message", onMessage)
	b.post(map[string]any{"type": "stepwise:ready", "session": c.cfg.SessionID})
	return b
}

func (b *embedBridge) post(msg map[string]any) {
	b.parent.Call("postMessage", msg, b.origin)
}

// observe reports a new question and status changes to the parent.
func (b *embedBridge) observe(s *state.Store) {
	if st := s.Status(); st != b.lastStatus {
		b.lastStatus = st
		b.post(map[string]any{"type": "stepwise:status", "status": string(st)})
	}
	p := s.Pending()
	if p == nil || p.Question == nil {
		b.lastPending = ""
		return
	}
	if p.Question.ApprovalKey == b.lastPending {
		return
	}
	b.lastPending = p.Question.ApprovalKey
	questions := make([]any, len(p.Question.Questions))
	for i, q := range p.Question.Questions {
		questions[i] = q.Question
	}
	b.post(map[string]any{"type": "stepwise:question", "approval_key": p.Question.ApprovalKey, "questions": questions})
}
