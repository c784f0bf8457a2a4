package app

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components"
	"stepwise/state"
)

// The decisions of docs/interaction.md, "Sending", on the controller
// without a browser; server/browsertest/sending_test.go shows them in one.

var (
	outgoingTagRE   = regexp.MustCompile(`<div[^>]*data-testid="outgoing"[^>]*>`)
	outgoingStateRE = regexp.MustCompile(`data-state="([a-z]+)"`)
	outgoingBodyRE  = regexp.MustCompile(`^\s*<div [^>]*class="bubble"[^>]*>([^<]*)</div>\s*<div class="outgoing-status">\s*<span class="outgoing-text">\s*<span[^>]*></span>([^<]*)</span>`)
)

// outgoingShown is what the page shows of the outbox: state, text, status.
// (go-app writes an element's attributes in any order.)
func outgoingShown(c *Controller) [][3]string {
	out := html(c)
	var shown [][3]string
	for _, loc := range outgoingTagRE.FindAllStringIndex(out, -1) {
		state := outgoingStateRE.FindStringSubmatch(out[loc[0]:loc[1]])
		body := outgoingBodyRE.FindStringSubmatch(out[loc[1]:])
		if state == nil || body == nil {
			shown = append(shown, [3]string{"?", out[loc[0]:min(len(out), loc[1]+200)]})
			continue
		}
		shown = append(shown, [3]string{state[1], body[1], strings.TrimSpace(body[2])})
	}
	return shown
}

func userItems(c *Controller) []string {
	return userTexts(c.sess.Store)
}

const runEnd = `{"type":"message_stop","event_id":90}`

// #37.4: a message shows at once as sending, then sent; its echo takes its
// place, once.
func TestMessageShowsSendingThenSentThenItsEcho(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onSend(app.Context{}, app.Action{Value: " hello "})
	require.Len(t, conn.sent, 1)
	assert.Equal(t, [][3]string{{"sending", "hello", "Sending…"}}, outgoingShown(c))
	c.onResult(app.Context{}, Result{CommandID: "c1"})
	assert.Equal(t, [][3]string{{"sent", "hello", "Sent"}}, outgoingShown(c))
	feed(c, `{"type":"user_message","content":[{"type":"text","text":"hello"}],"event_id":1}`)
	assert.Empty(t, outgoingShown(c))
	assert.Equal(t, []string{"hello"}, userItems(c))
}

// The echo may come before the command's result (the demo agent writes it
// first): the result then finds nothing to mark.
func TestEchoBeforeResult(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onSend(app.Context{}, app.Action{Value: "hello"})
	feed(c, `{"type":"user_message","content":"hello","event_id":1}`)
	assert.Empty(t, outgoingShown(c))
	c.onResult(app.Context{}, Result{CommandID: "c1"})
	assert.Empty(t, outgoingShown(c))
}

// #37.4: a message the backend refuses says so on itself, with a retry;
// retried, it goes out again; removed, it is gone.
func TestRefusedMessageFailsWithRetry(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onSend(app.Context{}, app.Action{Value: "hello"})
	c.onResult(app.Context{}, Result{CommandID: "c1", Err: &CommandError{Type: "invalid_request", Message: "No thanks."}})
	assert.Equal(t, [][3]string{{"failed", "hello", "Not sent: No thanks."}}, outgoingShown(c))
	out := html(c)
	assert.Contains(t, out, `data-testid="outgoing-retry"`)
	assert.Contains(t, out, "Not sent: No thanks.", "announced too")
	assert.Empty(t, c.draft.Text, "the message stays where it was, not in the composer")

	id := c.outbox.list[0].ID
	c.onRetryMessage(app.Context{}, app.Action{Value: id})
	require.Len(t, conn.sent, 2)
	assert.Equal(t, [][3]string{{"sending", "hello", "Sending…"}}, outgoingShown(c))
	c.onResult(app.Context{}, Result{CommandID: "c2", Err: &CommandError{Message: "Still no."}})
	c.onRemoveMessage(app.Context{}, app.Action{Value: id})
	assert.Empty(t, outgoingShown(c))
}

// A frame the transport cannot even queue fails at once, on the message.
func TestMessageNotQueuedFails(t *testing.T) {
	conn := &fakeConn{err: ErrOffline}
	c := newController(t, "fr", conn)
	c.onSend(app.Context{}, app.Action{Value: "bonjour"})
	assert.Equal(t, [][3]string{{"failed", "bonjour", "Non envoyé : trop de messages attendent la connexion"}}, outgoingShown(c))
}

// While the connection is down, a message on its way says it waits for it.
func TestOutboxViewWaitsForTheConnection(t *testing.T) {
	var o outbox
	o.add("a", components.OutgoingSending)
	o.add("b", components.OutgoingQueued)
	v := o.view(true)
	assert.True(t, v[0].Waiting)
	assert.False(t, v[1].Waiting, "a queued message waits for the run, not the connection")
	assert.False(t, o.view(false)[0].Waiting)
}

// #37.5: a message sent while the agent runs is queued, shown, editable
// and removable, and goes out when the run ends, what was queued as one
// message.
func TestMessageQueuedDuringARun(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	feed(c, `{"type":"user_message","content":"go","event_id":1}`+"\n"+`{"type":"message_start","message":{"id":"m"},"event_id":2}`)
	require.Equal(t, state.StatusRunning, c.sess.Store.Status())
	c.onSend(app.Context{}, app.Action{Value: "also this"})
	c.onSend(app.Context{}, app.Action{Value: "and that"})
	c.onSend(app.Context{}, app.Action{Value: "not this"})
	assert.Empty(t, conn.sent, "nothing goes out during the run")
	assert.Equal(t, [][3]string{
		{"queued", "also this", "Queued: sent when the agent finishes"},
		{"queued", "and that", "Queued: sent when the agent finishes"},
		{"queued", "not this", "Queued: sent when the agent finishes"},
	}, outgoingShown(c))
	assert.NotContains(t, html(c), `data-testid="notice"`, "no refusal")
	assert.Regexp(t, `<button[^>]*class="stop primary"[^>]*data-testid="stop"|<button[^>]*data-testid="stop"[^>]*class="stop primary"`, html(c), "Stop is the primary button")
	assert.Contains(t, html(c), `class="send queue"`)

	c.onRemoveMessage(app.Context{}, app.Action{Value: c.outbox.list[2].ID})
	c.onEditMessage(app.Context{}, app.Action{Value: c.outbox.list[1].ID})
	assert.Equal(t, components.Draft{Text: "and that", Seq: 1, Focus: true, Merge: true}, c.draft)
	c.onSend(app.Context{}, app.Action{Value: "and that, edited"})

	feed(c, runEnd)
	require.Len(t, conn.sent, 1, "the run ended: what was queued went out")
	var f map[string]any
	require.NoError(t, json.Unmarshal([]byte(conn.sent[0]), &f))
	assert.Equal(t, "also this\n\nand that, edited", f["content"].([]any)[0].(map[string]any)["text"])
	assert.Equal(t, [][3]string{{"sending", "also this\n\nand that, edited", "Sending…"}}, outgoingShown(c))
}

// A message is not sent while one before it waits for its echo: they reach
// the agent one at a time, in order.
func TestNextMessageWaitsForTheEcho(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onSend(app.Context{}, app.Action{Value: "one"})
	c.onSend(app.Context{}, app.Action{Value: "two"})
	require.Len(t, conn.sent, 1)
	feed(c, `{"type":"user_message","content":"one","event_id":1}`)
	assert.Len(t, conn.sent, 1, "its run started")
	feed(c, runEnd)
	assert.Len(t, conn.sent, 2)
}

// A backend that refuses because a run is going on (another tab started
// it) gets the message again when that run ends.
func TestBusyRefusalQueuesAgain(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onSend(app.Context{}, app.Action{Value: "hello"})
	feed(c, `{"type":"user_message","content":"from another tab","event_id":1}`)
	c.onResult(app.Context{}, Result{CommandID: "c1", Err: &CommandError{Type: "busy", Message: "The agent is already running."}})
	assert.Equal(t, "queued", outgoingShown(c)[0][0])
	feed(c, runEnd)
	require.Len(t, conn.sent, 2)
	assert.Equal(t, "sending", outgoingShown(c)[0][0])
}

// #38.9: a message larger than the backend takes is not sent: it stays in
// the composer, and the notice says why and how large it may be.
func TestTooLargeMessageStaysInTheComposer(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	big := strings.Repeat("a", 70<<10)
	c.onSend(app.Context{}, app.Action{Value: big})
	assert.Empty(t, conn.sent)
	assert.Empty(t, outgoingShown(c))
	assert.Equal(t, components.Draft{Text: big, Seq: 1, Focus: true}, c.draft)
	assert.Contains(t, html(c), "This message is too long to send: it is 70 KB, and the server takes at most 64 KB.")

	// Also while a run goes on: it is checked as it is queued.
	feed(c, `{"type":"user_message","content":"go","event_id":1}`)
	c.onSend(app.Context{}, app.Action{Value: big})
	assert.Empty(t, outgoingShown(c))
	assert.Equal(t, 2, c.draft.Seq)

	// The frame's whole encoded size counts, not the text's: quotes and
	// newlines take more room as JSON.
	c2 := newController(t, "en", &fakeConn{})
	c2.onSend(app.Context{}, app.Action{Value: strings.Repeat("\"\n", 20<<10)})
	assert.Empty(t, c2.outbox.list)
	assert.Contains(t, html(c2), "too long to send")
}

// The notice has a close button, and a message that goes out clears it.
func TestNoticeIsDismissed(t *testing.T) {
	c := newController(t, "en", &fakeConn{})
	c.notice = "Something happened."
	out := html(c)
	closeButton := regexp.MustCompile(`<button[^>]*data-testid="notice-close"[^>]*>`).FindString(out)
	assert.Contains(t, closeButton, `aria-label="Dismiss"`)
	assert.Contains(t, closeButton, `type="button"`)
	c.onDismissNotice(app.Context{}, app.Action{})
	assert.NotContains(t, html(c), `data-testid="notice"`)
	c.notice = "Again."
	c.onSend(app.Context{}, app.Action{Value: "hi"})
	assert.NotContains(t, html(c), `data-testid="notice"`)
}

// The header says "Offline" as soon as the browser does.
func TestConnectionFollowsTheBrowser(t *testing.T) {
	c := newController(t, "en", &fakeConn{})
	c.sess.State = ConnOpen
	assert.Equal(t, ConnOpen, c.connection())
	c.onNetwork(app.Context{}, false)
	assert.Equal(t, ConnClosed, c.connection())
	c.onNetwork(app.Context{}, true)
	assert.Equal(t, ConnOpen, c.connection())
}

// Echoes are matched by text and order, each to one message.
func TestOutboxMatchesEchoesByTextAndOrder(t *testing.T) {
	var o outbox
	sent := func(text string, after int) {
		m := o.add(text, components.OutgoingSending)
		m.command, m.after = "c"+text, after
	}
	sent("same", 1)
	sent("same", 1)
	o.add("queued", components.OutgoingQueued)
	sent("other", 1)
	assert.Equal(t, 0, o.matchEchoes([]string{"same"}), "a message from before it went out is not its echo")
	assert.Equal(t, 1, o.matchEchoes([]string{"same", " same "}))
	assert.Len(t, o.list, 3)
	assert.Equal(t, 2, o.matchEchoes([]string{"same", "same", "same", "other"}))
	require.Len(t, o.list, 1)
	assert.Equal(t, "queued", o.list[0].Text, "never sent: not matched")
}

func TestTakeQueuedKeepsWhatDoesNotFit(t *testing.T) {
	var o outbox
	o.add("aaaa", components.OutgoingQueued)
	o.add("bbbb", components.OutgoingQueued)
	o.add("cc", components.OutgoingQueued)
	fits := func(s string) bool { return len(s) <= 10 }
	assert.Equal(t, "aaaa\n\nbbbb", o.takeQueued(fits))
	assert.Equal(t, "cc", o.takeQueued(fits))
	assert.Empty(t, o.list)
}

// The renders of a streaming run take at most about a quarter of the
// time: after a render of d, the next waits 3d, at most maxRenderGap.
func TestRenderBudget(t *testing.T) {
	var b renderBudget
	t0 := time.Unix(0, 0)
	assert.True(t, b.due(t0))
	b.rendered(t0, 2*time.Millisecond)
	assert.False(t, b.due(t0.Add(5*time.Millisecond)))
	assert.True(t, b.due(t0.Add(6*time.Millisecond)))
	wait, ok := b.schedule(t0.Add(time.Millisecond))
	assert.True(t, ok)
	assert.Equal(t, 5*time.Millisecond, wait)
	_, ok = b.schedule(t0.Add(2 * time.Millisecond))
	assert.False(t, ok, "one render is set at a time")
	b.rendered(t0, 2*time.Second)
	assert.True(t, b.due(t0.Add(maxRenderGap)))
}

// A message that went out on a connection that was then lost, and that the
// backend never confirmed, is said not to be sent (with its retry) once the
// new connection has had echoWait to bring its echo; one the new
// connection's backlog echoes is simply shown.
func TestMessageLostWithItsConnection(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	c.onConnState(app.Context{}, ConnOpen)
	c.onSend(app.Context{}, app.Action{Value: "lost"})
	c.onConnState(app.Context{}, ConnReconnecting)
	c.onSend(app.Context{}, app.Action{Value: "waits"}) // queued behind "lost"
	c.onConnState(app.Context{}, ConnOpen)
	c.expireUnconfirmed(app.Context{}, c.conns)
	assert.Equal(t, [][3]string{
		{"failed", "lost", "Not sent: the connection dropped before the server confirmed it; it may not have arrived"},
		{"sending", "waits", "Sending…"},
	}, outgoingShown(c), "the queued one went out")

	c2 := newController(t, "en", &fakeConn{})
	c2.onConnState(app.Context{}, ConnOpen)
	c2.onSend(app.Context{}, app.Action{Value: "arrived"})
	c2.onConnState(app.Context{}, ConnReconnecting)
	c2.onConnState(app.Context{}, ConnOpen)
	feed(c2, `{"type":"user_message","content":"arrived","event_id":1}`)
	c2.expireUnconfirmed(app.Context{}, c2.conns)
	assert.Empty(t, outgoingShown(c2))
}

// An accepted message whose echo never comes holds the next ones back for
// echoWait only.
func TestAcceptedMessageHoldsTheQueueForAWhile(t *testing.T) {
	var o outbox
	m := o.add("a", components.OutgoingSent)
	m.accepted = time.Unix(100, 0)
	assert.True(t, o.inFlight(time.Unix(100, 0).Add(echoWait-time.Second)))
	assert.False(t, o.inFlight(time.Unix(100, 0).Add(echoWait)))
}
