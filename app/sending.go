package app

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
)

// What happens when the person sends (docs/interaction.md, "Sending"),
// for every mode: a message goes out at once when the agent is free, is
// queued while it runs (shown, editable, removable) and goes out when the
// run ends; a native message shows at once as sending, then sent, until
// the backend's echo takes its place, or says on itself why it could not
// be sent, with a retry. A message too large for the backend is refused
// before it is sent and stays in the composer.
//
// The decisions are in small functions of their own (busy, flushQueued,
// messageOutcome), apart from the transports' calls, so that the backend
// interface of issue 39 can take them as they are.

// onSend takes the composer's message.
func (c *Controller) onSend(ctx app.Context, a app.Action) {
	typed, _ := a.Value.(string)
	c.draftSent() // the composer is empty now (drafts.go)
	c.sendText(ctx, typed)
}

// sendText sends what was typed now, or queues it while the agent is
// busy. Refused, it goes back to the composer as it was typed.
func (c *Controller) sendText(ctx app.Context, typed string) {
	text := strings.TrimSpace(typed)
	if text == "" {
		return
	}
	if err := c.checkMessage(text); err != nil {
		c.giveBack(typed, err)
		return
	}
	if c.busy(ctx) {
		c.outbox.add(text, components.OutgoingQueued)
		c.scrollToEnd(ctx)
		return
	}
	c.sendNow(ctx, text)
}

// checkMessage refuses a message the backend would not take: nil, or a
// *TooLargeError.
func (c *Controller) checkMessage(text string) error {
	if c.cfg.AgentMode() {
		return agentRequestFits(c.cfg, c.sess.Store, text)
	}
	return c.sess.CheckMessage(text)
}

// giveBack puts a refused message back into the composer and says why.
func (c *Controller) giveBack(text string, err error) {
	c.notice = c.errorText(err)
	c.draft = components.Draft{Text: text, Seq: c.draft.Seq + 1, Focus: true}
	c.draftGivenBack(text)
}

// busy is true while what is sent now would have to wait: the agent runs,
// or (native) a message is on its way and its run has not started.
func (c *Controller) busy(ctx app.Context) bool {
	if c.cfg.AgentMode() {
		return c.agentBusy(ctx)
	}
	return c.sess.Store.Status() == state.StatusRunning || c.outbox.inFlight(time.Now())
}

// sendNow sends a message the agent is free to take.
func (c *Controller) sendNow(ctx app.Context, text string) {
	if c.cfg.AgentMode() {
		c.agentSend(ctx, text)
		return
	}
	c.dispatchMessage(ctx, c.outbox.add(text, components.OutgoingSending).ID)
}

// dispatchMessage hands the outbox's message id to the connection.
func (c *Controller) dispatchMessage(ctx app.Context, id int) {
	m := c.outbox.find(id)
	if m == nil {
		return
	}
	m.after = len(userTexts(c.sess.Store))
	cmd, err := c.sess.SendMessage(m.Text)
	if err != nil {
		m.State, m.Error, m.command = components.OutgoingFailed, c.reasonText(err), ""
		c.announce.say(c.settings.T("outbox.failed", m.Error))
		return
	}
	m.State, m.Error, m.command = components.OutgoingSending, "", cmd.ID
	m.conn = c.conns
	if c.sess.State != ConnOpen {
		m.conn++ // it waits for the next connection
	}
	c.notice = "" // what it said is over: a message went out
	c.noteMessage(ctx, m.Text)
	c.matchEchoes(ctx) // replay mode echoes at once
	c.scrollToEnd(ctx)
}

// matchEchoes takes the messages whose echo the conversation now shows
// out of the outbox, then sends what was queued if the agent is free.
func (c *Controller) matchEchoes(ctx app.Context) {
	if len(c.outbox.list) == 0 {
		return
	}
	c.outbox.matchEchoes(userTexts(c.sess.Store))
	c.flushQueued(ctx)
}

// flushQueued sends what was queued during a run once the agent is free
// and waits for nothing from the person (a card the queued message would
// cancel in the agent modes): one message, its follow-up.
func (c *Controller) flushQueued(ctx app.Context) {
	if !c.outbox.hasQueued() || c.busy(ctx) || c.sess.Store.Pending() != nil {
		return
	}
	text := c.outbox.takeQueued(func(t string) bool { return c.checkMessage(t) == nil })
	if text != "" {
		c.sendNow(ctx, text)
	}
}

// messageOutcome is the backend's verdict on a message: accepted (sent,
// its echo to come), refused because a run is going on (queued again, for
// that run's end), or refused (failed, with its reason and a retry).
func (c *Controller) messageOutcome(ctx app.Context, cmd Command, err error) {
	m := c.outbox.byCommand(cmd.ID)
	if m == nil {
		return // its echo came first
	}
	if err == nil {
		if m.State == components.OutgoingSending {
			m.State, m.accepted = components.OutgoingSent, time.Now()
			// A backend that never echoes holds the queue only so long.
			later(ctx, echoWait, c.flushQueued)
		}
		return
	}
	var ce *CommandError
	if errors.As(err, &ce) && ce.Type == "busy" && c.sess.Store.Status() == state.StatusRunning {
		m.State, m.command = components.OutgoingQueued, ""
		return
	}
	m.State, m.Error = components.OutgoingFailed, c.reasonText(err)
	c.announce.say(c.settings.T("outbox.failed", m.Error))
}

// connected follows the connection: each time it opens, the messages
// that went out on the one before and have had no word from the backend
// are said not to be sent if none comes within echoWait (the backlog the
// new connection brings may still echo them).
func (c *Controller) connected(ctx app.Context, prev, now ConnState) {
	if now != ConnOpen || prev == ConnOpen {
		return
	}
	c.conns++
	conn := c.conns
	later(ctx, echoWait, func(ctx app.Context) { c.expireUnconfirmed(ctx, conn) })
}

// later runs f on the UI goroutine after d, in the browser (the tests
// call what it would run themselves).
func later(ctx app.Context, d time.Duration, f func(app.Context)) {
	if app.IsClient {
		ctx.After(d, f)
	}
}

// expireUnconfirmed fails the messages that went out on a connection
// before conn and still have no word from the backend.
func (c *Controller) expireUnconfirmed(ctx app.Context, conn int) {
	stale := c.outbox.unconfirmed(conn)
	for _, m := range stale {
		m.State, m.Error = components.OutgoingFailed, c.settings.T("send.unconfirmed")
	}
	if len(stale) > 0 {
		c.announce.say(c.settings.T("outbox.failed", c.settings.T("send.unconfirmed")))
		c.flushQueued(ctx)
	}
}

// onRetryMessage sends a failed message again (queued if the agent runs).
func (c *Controller) onRetryMessage(ctx app.Context, a app.Action) {
	id, _ := a.Value.(int)
	m := c.outbox.find(id)
	if m == nil || m.State != components.OutgoingFailed {
		return
	}
	if c.busy(ctx) {
		m.State, m.Error, m.command = components.OutgoingQueued, "", ""
		return
	}
	c.dispatchMessage(ctx, id)
}

// onEditMessage takes a queued or failed message back into the composer,
// before what is typed there.
func (c *Controller) onEditMessage(ctx app.Context, a app.Action) {
	id, _ := a.Value.(int)
	m := c.outbox.find(id)
	if m == nil || (m.State != components.OutgoingQueued && m.State != components.OutgoingFailed) {
		return
	}
	c.outbox.remove(id)
	c.draft = components.Draft{Text: m.Text, Seq: c.draft.Seq + 1, Focus: true, Merge: true}
}

// onRemoveMessage drops a queued or failed message.
func (c *Controller) onRemoveMessage(ctx app.Context, a app.Action) {
	id, _ := a.Value.(int)
	if m := c.outbox.find(id); m != nil && (m.State == components.OutgoingQueued || m.State == components.OutgoingFailed) {
		c.outbox.remove(id)
	}
}

func (c *Controller) onDismissNotice(ctx app.Context, a app.Action) {
	c.notice = ""
}

// reasonText says why a message was not sent, in the UI language, for its
// status line ("Not sent: ..."). A backend's own message is shown as it is.
func (c *Controller) reasonText(err error) string {
	var tooLarge *TooLargeError
	switch {
	case errors.Is(err, ErrOffline):
		return c.settings.T("send.queue_full")
	case errors.As(err, &tooLarge):
		return c.settings.T("send.too_large", components.FormatBytes(c.settings, tooLarge.Size), components.FormatBytes(c.settings, tooLarge.Limit))
	}
	return err.Error()
}

// agentRequestFits checks the request a run with text would make against
// the backend's limit: it carries the whole conversation.
func agentRequestFits(cfg Config, store *state.Store, text string) error {
	if cfg.MaxRequestBytes <= 0 {
		return nil
	}
	var conv any
	if cfg.Protocol == ProtocolAISDK {
		conv = store.UIConversation()
	} else {
		conv = store.AGUIConversation()
	}
	b, _ := json.Marshal(conv)
	t, _ := json.Marshal(text)
	size := len(b) + len(t) + 512 // the request's own fields, the message's
	if size > cfg.MaxRequestBytes {
		return &TooLargeError{Size: size, Limit: cfg.MaxRequestBytes}
	}
	return nil
}
