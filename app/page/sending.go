package page

import (
	"errors"
	"strings"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
)

// What happens when the person sends (docs/interaction.md, "Sending"),
// whatever the backend: a message goes out at once when the agent is
// free, is queued while it runs (shown, editable, removable) and goes out
// when the run ends; it shows at once as sending, then sent, until the
// conversation shows it (the backend's echo, or the page's own where it
// keeps the conversation), or says on itself why it could not be sent,
// with a retry. A message too large for the backend is refused before it
// is sent and stays in the composer.

// sendText sends what was typed now, or queues it while the agent is
// busy. Refused, it goes back to the composer as it was typed.
func (m *Model) sendText(typed string) {
	text := strings.TrimSpace(typed)
	if text == "" && len(m.files) == 0 {
		return
	}
	if err := m.check(m.store, text, blocks(m.files)); err != nil {
		m.giveBack(typed, err)
		return
	}
	files, ok := m.takeFiles()
	if !ok {
		m.giveBack(typed, errUploading)
		return
	}
	if text == "" && len(files) == 0 {
		return // every file was refused: their chips went, nothing to send
	}
	st := components.OutgoingSending
	if m.busy() {
		st = components.OutgoingQueued
	}
	o := m.outbox.add(text, st)
	o.files = files
	if st == components.OutgoingQueued {
		m.do(ScrollToEnd{})
		return
	}
	m.dispatchMessage(o.ID)
}

// giveBack puts a refused message back into the composer and says why.
func (m *Model) giveBack(text string, err error) {
	m.notice = m.errorText(err)
	if err == errUploading {
		m.notice = m.settings.T("attach.wait")
	}
	m.draft = components.Draft{Text: text, Seq: m.draft.Seq + 1, Focus: true}
	m.draftGivenBack(text)
}

// busy is true while what is sent now would have to wait: the agent runs,
// or a message is on its way and its run has not started.
func (m *Model) busy() bool {
	return m.store.Status() == state.StatusRunning || m.outbox.inFlight(m.now())
}

// dispatchMessage sends the outbox's message id: the conversation takes it
// (where the page keeps it, it shows and its run starts), then the
// backend.
func (m *Model) dispatchMessage(id int) {
	o := m.outbox.find(id)
	if o == nil {
		return
	}
	o.after = len(userTexts(m.store))
	ch, err := m.store.ApplyLocal(state.UserSent{Text: o.Text, Files: blocks(o.files)})
	if err != nil {
		o.State, o.Error, o.command = components.OutgoingFailed, m.reasonText(err), ""
		m.announce.say(m.settings.T("outbox.failed", o.Error))
		return
	}
	m.afterApply(ch)
	cmd := m.nextID()
	o.State, o.Error, o.command = components.OutgoingSending, "", cmd
	o.conn = m.conns
	if m.conn != backend.Open {
		o.conn++ // it waits for the next connection
	}
	m.sent(sentCommand{id: cmd, msg: true})
	m.do(backend.Send{ID: cmd, Text: o.Text, Files: blocks(o.files)})
	m.notice = "" // what it said is over: a message went out
	m.noteMessage(o.Text)
	m.matchEchoes() // where the conversation shows it at once
	m.do(ScrollToEnd{})
	m.do(backend.Save{})
}

// matchEchoes takes the messages the conversation now shows out of the
// outbox, then sends what was queued if the agent is free.
func (m *Model) matchEchoes() {
	if len(m.outbox.list) == 0 {
		return
	}
	m.outbox.matchEchoes(userTexts(m.store))
	m.flushQueued()
}

// flushQueued sends what was queued during a run once the agent is free
// and waits for nothing from the person (a card the queued message would
// cancel): one message, its follow-up.
func (m *Model) flushQueued() {
	if !m.outbox.hasQueued() || m.busy() || m.store.Pending() != nil {
		return
	}
	text, files := m.outbox.takeQueued(func(t string, files []draftFile) bool { return m.check(m.store, t, blocks(files)) == nil })
	if text != "" || len(files) > 0 {
		o := m.outbox.add(text, components.OutgoingSending)
		o.files = files
		m.dispatchMessage(o.ID)
	}
}

// messageOutcome is the backend's verdict on a message: accepted (sent,
// its echo to come), refused because a run is going on (queued again, for
// that run's end), or refused (failed, with its reason and a retry).
func (m *Model) messageOutcome(cmd string, err error) {
	o := m.outbox.byCommand(cmd)
	if o == nil {
		return // its echo came first
	}
	if err == nil {
		if o.State == components.OutgoingSending {
			o.State, o.accepted = components.OutgoingSent, m.now()
			// A backend that never echoes holds the queue only so long.
			m.do(After{Delay: echoWait, Msg: EchoWaitOver{}})
		}
		return
	}
	var ce *backend.CommandError
	if errors.As(err, &ce) && ce.Type == "busy" && m.store.Status() == state.StatusRunning {
		o.State, o.command = components.OutgoingQueued, ""
		return
	}
	o.State, o.Error = components.OutgoingFailed, m.reasonText(err)
	m.announce.say(m.settings.T("outbox.failed", o.Error))
}

// connected follows the connection: each time it opens, the messages
// that went out on the one before and have had no word from the backend
// are said not to be sent if none comes within echoWait (the backlog the
// new connection brings may still echo them).
func (m *Model) connected(prev, now backend.ConnState) {
	if now != backend.Open || prev == backend.Open {
		return
	}
	m.conns++
	m.do(After{Delay: echoWait, Msg: ConnectionSettled{Conn: m.conns}})
}

// expireUnconfirmed fails the messages that went out on a connection
// before conn and still have no word from the backend.
func (m *Model) expireUnconfirmed(conn int) {
	stale := m.outbox.unconfirmed(conn)
	for _, o := range stale {
		o.State, o.Error = components.OutgoingFailed, m.settings.T("send.unconfirmed")
	}
	if len(stale) > 0 {
		m.announce.say(m.settings.T("outbox.failed", m.settings.T("send.unconfirmed")))
		m.flushQueued()
	}
}

// retry sends a failed message again (queued if the agent runs).
func (m *Model) retry(id int) {
	o := m.outbox.find(id)
	if o == nil || o.State != components.OutgoingFailed {
		return
	}
	if m.busy() {
		o.State, o.Error, o.command = components.OutgoingQueued, "", ""
		return
	}
	m.dispatchMessage(id)
}

// edit takes a queued or failed message back into the composer, before
// what is typed there.
func (m *Model) edit(id int) {
	o := m.outbox.find(id)
	if o == nil || (o.State != components.OutgoingQueued && o.State != components.OutgoingFailed) {
		return
	}
	for i := range o.files {
		o.files[i].Thumb = "" // released when it was sent: a type icon instead
	}
	m.files = append(o.files, m.files...) // its files go back too
	m.outbox.remove(id)
	m.draft = components.Draft{Text: o.Text, Seq: m.draft.Seq + 1, Focus: true, Merge: true}
}

// remove drops a queued or failed message.
func (m *Model) remove(id int) {
	if o := m.outbox.find(id); o != nil && (o.State == components.OutgoingQueued || o.State == components.OutgoingFailed) {
		m.outbox.remove(id)
	}
}

// reasonText says why a message was not sent, in the UI language, for its
// status line ("Not sent: ..."). A backend's own message is shown as it is.
func (m *Model) reasonText(err error) string {
	var tooLarge *backend.TooLargeError
	switch {
	case errors.Is(err, backend.ErrOffline):
		return m.settings.T("send.queue_full")
	case errors.As(err, &tooLarge):
		return m.settings.T("send.too_large", components.FormatBytes(m.settings, tooLarge.Size), components.FormatBytes(m.settings, tooLarge.Limit))
	}
	return err.Error()
}
