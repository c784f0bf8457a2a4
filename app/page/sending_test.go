package page

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/components/htmltest"
	"stepwise/state"
	"stepwise/state/wire"
)

// The decisions of docs/interaction.md, "Sending", without a browser;
// server/browsertest/sending_test.go shows them in one.

// outgoingShown is what the page shows of the outbox: state, text, status.
func outgoingShown(h *harness) [][3]string {
	var shown [][3]string
	for _, o := range h.render().All(htmltest.TestID("outgoing")) {
		bubble := o.First(func(n *htmltest.Node) bool { return n.Attr("class") == "bubble" })
		status := o.First(func(n *htmltest.Node) bool { return n.Attr("class") == "outgoing-text" })
		if bubble == nil || status == nil {
			shown = append(shown, [3]string{"?"})
			continue
		}
		shown = append(shown, [3]string{o.Attr("data-state"), bubble.Text(), status.Text()})
	}
	return shown
}

// sentTexts are the texts of the messages sent, in order.
func sentTexts(h *harness) []string {
	var out []string
	for _, c := range h.sent {
		if s, ok := c.(backend.Send); ok {
			out = append(out, s.Text)
		}
	}
	return out
}

const runEnd = `{"type":"message_stop","event_id":90}`

// #37.4: a message shows at once as sending, then sent; its echo takes its
// place, once.
func TestMessageShowsSendingThenSentThenItsEcho(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: " hello "})
	require.Equal(t, []backend.Command{backend.Send{ID: "c1", Text: "hello"}}, h.sent)
	assert.Equal(t, [][3]string{{"sending", "hello", "Sending…"}}, outgoingShown(h))
	h.run(backend.Outcome{CommandID: "c1"})
	assert.Equal(t, [][3]string{{"sent", "hello", "Sent"}}, outgoingShown(h))
	h.feed(`{"type":"user_message","content":[{"type":"text","text":"hello"}],"event_id":1}`)
	assert.Empty(t, outgoingShown(h))
	assert.Equal(t, []string{"hello"}, userTexts(h.m.Store()))
}

// The echo may come before the command's result (the demo agent writes it
// first): the result then finds nothing to mark.
func TestEchoBeforeResult(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: "hello"})
	h.feed(`{"type":"user_message","content":"hello","event_id":1}`)
	assert.Empty(t, outgoingShown(h))
	h.run(backend.Outcome{CommandID: "c1"})
	assert.Empty(t, outgoingShown(h))
}

// #37.4: a message the backend refuses says so on itself, with a retry;
// retried, it goes out again; removed, it is gone.
func TestRefusedMessageFailsWithRetry(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: "hello"})
	h.run(backend.Outcome{CommandID: "c1", Err: &backend.CommandError{Type: "invalid_request", Message: "No thanks."}})
	assert.Equal(t, [][3]string{{"failed", "hello", "Not sent: No thanks."}}, outgoingShown(h))
	page := h.render()
	assert.NotNil(t, page.First(htmltest.TestID("outgoing-retry")))
	assert.Contains(t, h.m.announce.text, "Not sent: No thanks.", "announced too")
	assert.Empty(t, h.m.draft.Text, "the message stays where it was, not in the composer")

	id := h.m.outbox.list[0].ID
	h.run(RetryMessage{ID: id})
	require.Equal(t, []string{"hello", "hello"}, sentTexts(h))
	assert.Equal(t, [][3]string{{"sending", "hello", "Sending…"}}, outgoingShown(h))
	h.run(backend.Outcome{CommandID: "c2", Err: &backend.CommandError{Message: "Still no."}})
	h.run(RemoveMessage{ID: id})
	assert.Empty(t, outgoingShown(h))
}

// A frame the transport cannot even queue fails at once, on the message.
func TestMessageNotQueuedFails(t *testing.T) {
	h := nativePage(t, "fr")
	h.doErr = backend.ErrOffline
	h.run(Send{Text: "bonjour"})
	assert.Equal(t, [][3]string{{"failed", "bonjour", "Non envoyé : trop de messages attendent la connexion"}}, outgoingShown(h))
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
	h := nativePage(t, "en")
	h.feed(`{"type":"user_message","content":"go","event_id":1}` + "\n" + `{"type":"message_start","message":{"id":"m"},"event_id":2}`)
	require.Equal(t, state.StatusRunning, h.m.Store().Status())
	h.run(Send{Text: "also this"})
	h.run(Send{Text: "and that"})
	h.run(Send{Text: "not this"})
	assert.Empty(t, h.sent, "nothing goes out during the run")
	assert.Equal(t, [][3]string{
		{"queued", "also this", "Queued: sent when the agent finishes"},
		{"queued", "and that", "Queued: sent when the agent finishes"},
		{"queued", "not this", "Queued: sent when the agent finishes"},
	}, outgoingShown(h))
	page := h.render()
	assert.Nil(t, page.First(htmltest.TestID("notice")), "no refusal")
	stop := page.First(htmltest.TestID("stop"))
	require.NotNil(t, stop)
	assert.Equal(t, "stop primary", stop.Attr("class"), "Stop is the primary button")
	assert.NotNil(t, page.First(htmltest.AttrIs("class", "send queue")))

	h.run(RemoveMessage{ID: h.m.outbox.list[2].ID})
	h.run(EditMessage{ID: h.m.outbox.list[1].ID})
	assert.Equal(t, components.Draft{Text: "and that", Seq: 1, Focus: true, Merge: true}, h.m.draft)
	h.run(Send{Text: "and that, edited"})

	h.feed(runEnd)
	require.Equal(t, []string{"also this\n\nand that, edited"}, sentTexts(h), "the run ended: what was queued went out")
	assert.Equal(t, [][3]string{{"sending", "also this and that, edited", "Sending…"}}, outgoingShown(h))
}

// A message is not sent while one before it waits for its echo: they reach
// the agent one at a time, in order.
func TestNextMessageWaitsForTheEcho(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: "one"})
	h.run(Send{Text: "two"})
	require.Len(t, h.sent, 1)
	h.feed(`{"type":"user_message","content":"one","event_id":1}`)
	assert.Len(t, h.sent, 1, "its run started")
	h.feed(runEnd)
	assert.Equal(t, []string{"one", "two"}, sentTexts(h))
}

// A backend that refuses because a run is going on (another tab started
// it) gets the message again when that run ends.
func TestBusyRefusalQueuesAgain(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: "hello"})
	h.feed(`{"type":"user_message","content":"from another tab","event_id":1}`)
	h.run(backend.Outcome{CommandID: "c1", Err: &backend.CommandError{Type: "busy", Message: "The agent is already running."}})
	assert.Equal(t, "queued", outgoingShown(h)[0][0])
	h.feed(runEnd)
	require.Len(t, h.sent, 2)
	assert.Equal(t, "sending", outgoingShown(h)[0][0])
}

// #38.9: a message larger than the backend takes is not sent: it stays in
// the composer, and the notice says why and how large it may be.
func TestTooLargeMessageStaysInTheComposer(t *testing.T) {
	h := nativePage(t, "en")
	big := strings.Repeat("a", 70<<10)
	h.run(Send{Text: big})
	assert.Empty(t, h.sent)
	assert.Empty(t, outgoingShown(h))
	assert.Equal(t, components.Draft{Text: big, Seq: 1, Focus: true}, h.m.draft)
	assert.Contains(t, noticeText(h), "This message is too long to send: it is 70 KB, and the server takes at most 64 KB.")

	// Also while a run goes on: it is checked as it is queued.
	h.feed(`{"type":"user_message","content":"go","event_id":1}`)
	h.run(Send{Text: big})
	assert.Empty(t, outgoingShown(h))
	assert.Equal(t, 2, h.m.draft.Seq)

	// The frame's whole encoded size counts, not the text's: quotes and
	// newlines take more room as JSON.
	h2 := nativePage(t, "en")
	h2.run(Send{Text: strings.Repeat("\"\n", 20<<10)})
	assert.Empty(t, h2.m.outbox.list)
	assert.Contains(t, noticeText(h2), "too long to send")
}

// The notice has a close button, and a message that goes out clears it.
func TestNoticeIsDismissed(t *testing.T) {
	h := nativePage(t, "en")
	h.m.notice = "Something happened."
	closeButton := h.render().First(htmltest.TestID("notice-close"))
	require.NotNil(t, closeButton)
	assert.Equal(t, "Dismiss", closeButton.Attr("aria-label"))
	assert.Equal(t, "button", closeButton.Attr("type"))
	h.run(DismissNotice{})
	assert.Equal(t, "", noticeText(h))
	h.m.notice = "Again."
	h.run(Send{Text: "hi"})
	assert.Equal(t, "", noticeText(h))
}

// The header says "Offline" as soon as the browser does.
func TestConnectionFollowsTheBrowser(t *testing.T) {
	h := nativePage(t, "en")
	h.run(backend.Connection{State: backend.Open})
	assert.Equal(t, backend.Open, h.m.connection())
	h.run(backend.Network{Online: false})
	assert.Equal(t, backend.Closed, h.m.connection())
	assert.True(t, h.m.Props().Offline)
	h.run(backend.Network{Online: true})
	assert.Equal(t, backend.Open, h.m.connection())
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
	fits := func(s string, _ []draftFile) bool { return len(s) <= 10 }
	text, _ := o.takeQueued(fits)
	assert.Equal(t, "aaaa\n\nbbbb", text)
	text, _ = o.takeQueued(fits)
	assert.Equal(t, "cc", text)
	assert.Empty(t, o.list)
}

// A message that went out on a connection that was then lost, and that the
// backend never confirmed, is said not to be sent (with its retry) once the
// new connection has had echoWait to bring its echo; one the new
// connection's backlog echoes is simply shown.
func TestMessageLostWithItsConnection(t *testing.T) {
	h := nativePage(t, "en")
	h.run(backend.Connection{State: backend.Open})
	h.run(Send{Text: "lost"})
	h.run(backend.Connection{State: backend.Reconnecting})
	h.run(Send{Text: "waits"}) // queued behind "lost"
	h.run(backend.Connection{State: backend.Open})
	settled := h.after[len(h.after)-1]
	assert.Equal(t, After{Delay: echoWait, Msg: ConnectionSettled{Conn: 2}}, settled)
	h.run(settled.Msg)
	assert.Equal(t, [][3]string{
		{"failed", "lost", "Not sent: the connection dropped before the server confirmed it; it may not have arrived"},
		{"sending", "waits", "Sending…"},
	}, outgoingShown(h), "the queued one went out")

	h2 := nativePage(t, "en")
	h2.run(backend.Connection{State: backend.Open})
	h2.run(Send{Text: "arrived"})
	h2.run(backend.Connection{State: backend.Reconnecting})
	h2.run(backend.Connection{State: backend.Open})
	h2.feed(`{"type":"user_message","content":"arrived","event_id":1}`)
	h2.run(h2.after[len(h2.after)-1].Msg)
	assert.Empty(t, outgoingShown(h2))
}

// An accepted message whose echo never comes holds the next ones back for
// echoWait only.
func TestAcceptedMessageHoldsTheQueueForAWhile(t *testing.T) {
	var o outbox
	m := o.add("a", components.OutgoingSent)
	m.accepted = time.Unix(100, 0)
	assert.True(t, o.inFlight(time.Unix(100, 0).Add(echoWait-time.Second)))
	assert.False(t, o.inFlight(time.Unix(100, 0).Add(echoWait)))

	h := nativePage(t, "en")
	h.run(Send{Text: "one"})
	h.run(backend.Outcome{CommandID: "c1"})
	h.run(Send{Text: "two"})
	assert.Equal(t, []string{"one"}, sentTexts(h), "one waits for the other's echo")
	require.Equal(t, []After{{Delay: echoWait, Msg: EchoWaitOver{}}}, h.after)
	h.now = h.now.Add(echoWait)
	h.run(h.after[0].Msg)
	assert.Equal(t, []string{"one", "two"}, sentTexts(h), "no echo came: the next goes")
}

// What was typed before the app ran goes out, in order, and the rest
// stays in the composer.
func TestBootInputIsTakenOver(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Boot{Messages: []string{"first", "second"}, Draft: "draft", Focused: true})
	assert.Equal(t, []string{"first"}, sentTexts(h), "the second waits for the first's echo")
	assert.Equal(t, "queued", outgoingShown(h)[1][0])
	assert.Equal(t, components.Draft{Text: "draft", Seq: 1, Focus: true}, h.m.draft)
}

// Where the page keeps the conversation (AG-UI, AI SDK), a message shows
// at once and its run starts; what is sent during the run waits for its
// end; Stop ends the run here and sends what was queued.
func TestAgentSendStopAndQueue(t *testing.T) {
	h := agentPage(t)
	h.run(Send{Text: "hello"})
	assert.Equal(t, []backend.Command{backend.Send{ID: "c1", Text: "hello"}}, h.sent)
	assert.Equal(t, []string{"hello"}, userTexts(h.m.Store()), "shown at once")
	assert.Empty(t, outgoingShown(h))
	assert.Equal(t, state.StatusRunning, h.m.Store().Status())
	_, ok := h.m.Store().NextAGUIRun()
	assert.True(t, ok, "the backend reads the run's request")
	assert.Contains(t, h.m.Props().Conversations.Entries[0].Title, "hello", "listed")

	h.run(Send{Text: "more"})
	assert.Len(t, h.sent, 1)
	assert.Equal(t, "queued", outgoingShown(h)[0][0])

	h.run(Stop{})
	var kinds []state.Kind
	for _, it := range h.m.Store().Items() {
		kinds = append(kinds, it.Kind)
	}
	assert.Equal(t, []state.Kind{state.KindUser, state.KindStopped, state.KindUser}, kinds, "stopped, then the queued message's run")
	require.Len(t, h.sent, 3)
	assert.Equal(t, backend.Stop{ID: "c2"}, h.sent[1])
	assert.Equal(t, backend.Send{ID: "c3", Text: "more"}, h.sent[2], "the run is over: what was queued goes")
}

// An agent's stream: its frames are paced and saved soon; its end saves
// and sends what was queued; its ends are said.
func TestAgentStreamEvents(t *testing.T) {
	h := agentPage(t)
	h.run(Send{Text: "hello"})
	h.run(Send{Text: "queued"})
	cmds := h.m.Update(backend.Frames{Frames: [][]byte{[]byte(`{"type":"RUN_STARTED","threadId":"s1","runId":"r"}`)}, Paced: true})
	assert.Equal(t, []Cmd{backend.SaveSoon{}, PaceRender{}}, cmds)
	assert.Equal(t, []Cmd{backend.Save{}}, h.m.Update(backend.SaveDue{}))

	h.run(backend.Happened{Event: state.StreamEnded{Detail: "cut"}})
	assert.Equal(t, state.StatusError, h.m.Store().Status())
	h.run(backend.StreamClosed{})
	assert.Equal(t, "queued", sentTexts(h)[1], "the run is over: what was queued goes")

	h.run(backend.Oversized{Limit: 8 << 20})
	assert.Contains(t, noticeText(h), "8 MB")
	h.run(backend.StorageRefused{})
	assert.NotEmpty(t, noticeText(h))
}

// Where the page keeps the conversation, an answer shows at once; once
// every card has its answer, the run goes on.
func TestAgentAnswersContinueTheRun(t *testing.T) {
	h := agentPage(t)
	h.run(Send{Text: "mail it"})
	in, _ := h.m.Store().NextAGUIRun()
	h.feed(`{"type":"RUN_STARTED","threadId":"s1","runId":"` + in.RunID + `"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"send_email"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"RUN_FINISHED","threadId":"s1","runId":"` + in.RunID + `","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"tool_call","toolCallId":"c1","message":"Send it?"},{"id":"i2","reason":"tool_call","toolCallId":"c1","message":"Really?"}]}}`)
	require.NotNil(t, h.m.Store().Pending())
	h.reset()
	h.run(components.DecideCommand{Key: "i1", Decisions: []wire.Decision{{Type: "approve"}}})
	assert.Equal(t, []backend.Command{backend.Decide{ID: "c2", Key: "i1", Decisions: []wire.Decision{{Type: "approve"}}}}, h.sent,
		"one card of two: nothing goes on yet")
	assert.False(t, h.m.forms["i1"].Sending, "answered here: nothing to wait for")
	h.run(components.DecideCommand{Key: "i2", Decisions: []wire.Decision{{Type: "reject"}}})
	require.Len(t, h.sent, 3)
	assert.Equal(t, backend.Continue{ID: "c4"}, h.sent[2])
	assert.Equal(t, state.StatusRunning, h.m.Store().Status())

	h.run(components.DecideCommand{Key: "nope", Decisions: []wire.Decision{{Type: "approve"}}})
	assert.Len(t, h.sent, 3, "no card: nothing sent")
	assert.NotEmpty(t, h.m.forms["nope"].Error)
}

// A card whose countdown ends expires where the page keeps the
// conversation; the answers given to the others then go. A native backend
// expires its cards itself.
func TestCardExpiryContinuesTheRun(t *testing.T) {
	h := agentPage(t)
	h.run(Send{Text: "book it"})
	in, _ := h.m.Store().NextAGUIRun()
	h.feed(`{"type":"RUN_STARTED","threadId":"s1","runId":"` + in.RunID + `"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"book","parentMessageId":"m1"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"RUN_FINISHED","threadId":"s1","runId":"` + in.RunID + `","outcome":{"type":"interrupt","interrupts":[{"id":"hold","reason":"input_required","message":"Confirm?","responseSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}},"expiresAt":"2026-03-01T10:00:00Z"},{"id":"ok-book","reason":"tool_call","toolCallId":"c1","expiresAt":"2026-03-01T11:00:00Z"}]}}`)
	h.reset()
	h.now = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	h.run(components.DecideCommand{Key: "ok-book", Decisions: []wire.Decision{{Type: "approve"}}})
	h.run(CardExpired{})
	assert.Len(t, h.sent, 1, "nothing due yet")
	h.now = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	h.run(CardExpired{})
	require.Len(t, h.sent, 2)
	assert.Equal(t, backend.Continue{ID: "c3"}, h.sent[1], "the form expired: the approval goes")

	n := nativePage(t, "en")
	n.feed(questionEvents)
	n.run(CardExpired{})
	assert.Empty(t, n.sent)
	assert.NotNil(t, n.m.Store().Pending(), "the backend says when it expires")
}
