package page

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/app/backend/native"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/components/htmltest"
	"stepwise/components/i18n"
	"stepwise/state"
	"stepwise/state/wire"
)

// harness runs a page as the controller does, without a browser: it
// carries out the commands Update returns (a backend's Do answers with
// doErr; timers wait for the test), and renders the page's props.
type harness struct {
	t     *testing.T
	m     *Model
	now   time.Time
	doErr error
	// sent are the backend commands, in order; after the timers asked
	// for; other the other commands.
	sent  []backend.Command
	after []After
	other []Cmd
}

// nativePage is a page in front of a native backend (which keeps the
// conversation and takes frames of 64 KB at most), in lang.
func nativePage(t *testing.T, lang string) *harness {
	return newHarness(t, lang, backend.Traits{Store: state.Options{Kept: state.KeptByBackend}, Listed: true},
		func(_ *state.Store, text string, _ []wire.ContentBlock) error {
			return native.CheckMessage("s1", 64<<10, text)
		})
}

// agentPage is a page that keeps the conversation as an AG-UI thread.
func agentPage(t *testing.T) *harness {
	h := newHarness(t, "en", backend.Traits{Store: state.Options{Kept: state.KeptAsAGUI}, Listed: true}, nil)
	loaded := state.New(state.Options{Kept: state.KeptAsAGUI})
	ch, err := loaded.ApplyLocal(state.Restored{AGUI: &state.AGUIConversation{ThreadID: "s1"}})
	require.NoError(t, err)
	h.run(backend.Loaded{Store: loaded, Changes: ch})
	h.run(backend.Connection{State: backend.Open})
	h.reset()
	return h
}

func newHarness(t *testing.T, lang string, traits backend.Traits, check func(*state.Store, string, []wire.ContentBlock) error) *harness {
	h := &harness{t: t, now: time.Unix(1000, 0)}
	settings := components.DefaultSettings()
	settings.Locale = i18n.Match(lang)
	base, _ := url.Parse("/?session=s1&lang=" + lang)
	h.m = New(Options{Settings: settings, SessionID: "s1", Traits: traits, Check: check, Base: base,
		Now: func() time.Time { return h.now }})
	return h
}

// run updates the page with msg and carries out what it asks.
func (h *harness) run(msg Msg) {
	for _, c := range append([]Cmd(nil), h.m.Update(msg)...) {
		switch c := c.(type) {
		case backend.Command:
			switch c.(type) {
			case backend.Save, backend.SaveSoon:
				continue
			}
			if h.doErr != nil {
				h.run(Refused{Command: c, Err: h.doErr})
				continue
			}
			h.sent = append(h.sent, c)
		case After:
			h.after = append(h.after, c)
		default:
			h.other = append(h.other, c)
		}
	}
}

// feed applies stream events, one frame at a time.
func (h *harness) feed(jsonl string) {
	for _, l := range strings.Split(jsonl, "\n") {
		h.run(backend.Frames{Frames: [][]byte{[]byte(l)}})
	}
}

func (h *harness) reset() { h.sent, h.after, h.other = nil, nil, nil }

// render renders the page with its props.
func (h *harness) render() *htmltest.Node {
	h.t.Helper()
	return htmltest.Render(h.t, &pageCompo{props: h.m.Props()})
}

// pageCompo renders components.Page as a component, so that its child
// components render too.
type pageCompo struct {
	app.Compo
	props components.PageProps
}

func (p *pageCompo) Render() app.UI { return components.Page(p.props) }

const questionEvents = `{"type":"user_message","text":"go","event_id":1}
{"type":"message_start","message":{"id":"m"},"event_id":2}
{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}],"timeout_seconds":90},"event_id":3}`

func submitButton(t *testing.T, h *harness) *htmltest.Node {
	t.Helper()
	b := h.render().First(htmltest.TestID("question-submit"))
	require.NotNil(t, b, "no submit button")
	return b
}

func noticeText(h *harness) string {
	if n := h.render().First(htmltest.TestID("notice")); n != nil {
		return n.Text()
	}
	return ""
}

// Defect 8: a refused answer returns the form to editable, with the
// reason; a second click while it is on its way sends nothing.
func TestRefusedAnswerReturnsTheForm(t *testing.T) {
	h := nativePage(t, "en")
	h.feed(questionEvents)
	answer := components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}}

	h.run(answer)
	h.run(answer)
	require.Equal(t, []backend.Command{backend.Answer{ID: "c1", Key: "k", Answers: answer.Answers}}, h.sent,
		"one command however often it is clicked")
	btn := submitButton(t, h)
	assert.True(t, btn.Disabled())
	assert.Equal(t, "Sending…", btn.Text())

	h.run(backend.Outcome{CommandID: "c1", Err: &backend.CommandError{Type: "busy", Message: "The agent is busy."}})
	btn = submitButton(t, h)
	assert.False(t, btn.Disabled(), "editable again")
	assert.Equal(t, "Submit answers", btn.Text())
	assert.Contains(t, h.render().Text(), "Could not send: The agent is busy.")

	h.run(answer)
	require.Len(t, h.sent, 2, "it can be sent again")
	assert.NotContains(t, h.render().Text(), "The agent is busy.", "the old reason goes with the new try")
	h.run(backend.Outcome{CommandID: "c2"})
	assert.Equal(t, "Sending…", submitButton(t, h).Text(), "accepted: it waits for the agent")

	h.feed(`{"type":"approval_result","approval_key":"k","answers":{"Q?":"A"},"event_id":4}`)
	assert.Nil(t, h.render().First(htmltest.TestID("question-submit")))
	assert.Empty(t, h.m.forms, "a resolved form keeps no state")
}

// A command the backend cannot even queue is refused at once, in the UI
// language.
func TestAnswerNotSentShowsWhy(t *testing.T) {
	h := nativePage(t, "fr")
	h.feed(questionEvents)
	h.doErr = backend.ErrOffline
	h.run(components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}})
	assert.Contains(t, h.render().Text(), "Envoi impossible : pas de connexion")
	assert.False(t, submitButton(t, h).Disabled())
}

func TestRefusedDecisionReturnsTheCard(t *testing.T) {
	h := nativePage(t, "en")
	h.feed(`{"type":"message_start","message":{"id":"m"},"event_id":1}
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"place_order","input":{}},"event_id":2}
{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve","reject"]}]},"event_id":3}`)
	approve := func() *htmltest.Node {
		b := h.render().First(htmltest.AttrIs("data-decision", "approve"))
		require.NotNil(t, b, "no approve button")
		return b
	}
	h.run(components.DecideCommand{Key: "ap", Decisions: []wire.Decision{{Type: "approve"}}})
	require.Len(t, h.sent, 1)
	assert.True(t, approve().Disabled())
	h.run(backend.Outcome{CommandID: "c1", Err: &backend.CommandError{Message: "No such approval."}})
	assert.False(t, approve().Disabled())
	assert.Contains(t, h.render().Text(), "Could not send: No such approval.")

	// A decision the approval does not allow is not sent.
	h.run(components.DecideCommand{Key: "ap", Decisions: []wire.Decision{{Type: "edit"}}})
	assert.Len(t, h.sent, 1)
	assert.False(t, approve().Disabled())
}

// Item 1 of issue 8, the client's part: a reset ends the run with a
// localised notice, and the next events are shown.
func TestResetEndsTheRunWithANotice(t *testing.T) {
	h := nativePage(t, "en")
	h.feed(questionEvents)
	status := func() string {
		return h.render().First(func(n *htmltest.Node) bool { return n.Has("data-agent-status") }).Attr("data-agent-status")
	}
	require.Equal(t, "running", status())
	h.run(backend.Reset{History: &wire.History{AgentStatus: "idle"}})
	assert.Equal(t, "idle", status())
	notice := h.render().First(htmltest.AttrIs("data-kind", "notice"))
	require.NotNil(t, notice)
	assert.Contains(t, notice.Text(), "The connection to the agent was reset")
	assert.NotNil(t, h.render().First(htmltest.AttrIs("data-state", "expired")), "the question expired")
	assert.Contains(t, h.other, Redraw{}, "the items were replaced")
	h.feed(`{"type":"user_message","text":"next","event_id":1}`)
	assert.NotNil(t, h.render().First(func(n *htmltest.Node) bool { return n.Attr("data-kind") == "user" && n.Text() == "next" }))
	assert.Equal(t, "running", status())
}

// A conversation opened by its address, whose backend replays its first
// message in the stream rather than the history, joins the list titled.
func TestConversationOpenedByLinkIsListedFromTheStream(t *testing.T) {
	h := nativePage(t, "en")
	_, known := h.m.current()
	require.False(t, known)
	h.feed(`{"type":"user_message","text":"Compare two stocks","event_id":1}
{"type":"message_start","message":{"id":"m"},"event_id":2}`)
	conv, known := h.m.current()
	require.True(t, known, "listed once its first message is shown")
	assert.Equal(t, "Compare two stocks", conv.Title)
	assert.Contains(t, h.other, PutConversation{Conversation: conv}, "and kept")
}

func TestTitleFromMessage(t *testing.T) {
	assert.Equal(t, "Plan my trip", TitleFromMessage("  Plan   my\ttrip \nwith details"))
	long := TitleFromMessage(strings.Repeat("á", 200))
	assert.Equal(t, wire.MaxTitleRunes, len([]rune(long)))
	assert.True(t, strings.HasSuffix(long, "…"))
}

func TestConversationHrefKeepsOtherParameters(t *testing.T) {
	base, _ := url.Parse("http://x/?lang=fr&session=OLD&transport=sse")
	assert.Equal(t, "/?lang=fr&session=NEW&transport=sse", conversationHref(base, "NEW"))
	assert.Equal(t, "/?lang=fr&transport=sse", conversationHref(base, ""))
	assert.Equal(t, "/", conversationHref(nil, ""))
}

// Deleting the open conversation leaves for a new one once its entry is
// forgotten, from the backend's list too once it has answered.
func TestDeletingTheOpenConversation(t *testing.T) {
	h := nativePage(t, "en")
	h.run(ListLoaded{List: []entry{{ID: "s1", Title: "mine"}, {ID: "s2", Title: "other"}}})
	h.run(RemoteListed{List: wire.SessionList{}})
	h.reset()
	h.run(DeleteConversation{ID: "s2"})
	assert.Equal(t, []Cmd{ForgetConversation{ID: "s2", Unlist: true}}, h.other)
	h.reset()
	h.run(DeleteConversation{ID: "s1"})
	assert.Equal(t, []Cmd{ForgetConversation{ID: "s1", Unlist: true, Then: "/?lang=en"}}, h.other)
	assert.Empty(t, h.m.Props().Conversations.Entries)
}

// A browser that refuses storage keeps the list in memory, and the
// sidebar says so.
func TestListRefusedGoesOnInMemory(t *testing.T) {
	h := nativePage(t, "en")
	h.run(Send{Text: "hello"})
	h.reset()
	h.run(ListRefused{Err: errors.Join(errors.New("quota"), persist.ErrStorageRefused)})
	require.Len(t, h.other, 1)
	mem, ok := h.other[0].(KeepListInMemory)
	require.True(t, ok)
	assert.Equal(t, "hello", mem.List[0].Title)
	assert.True(t, h.m.Props().Conversations.Refused)
	h.reset()
	h.run(ListRefused{Err: persist.ErrStorageRefused})
	assert.Empty(t, h.other, "once")
}

// A replayed file is not listed.
func TestReplayIsNotListed(t *testing.T) {
	h := newHarness(t, "en", backend.Traits{Store: state.Options{Kept: state.KeptNowhere}}, nil)
	h.run(Send{Text: "hi"})
	for _, c := range h.other {
		_, put := c.(PutConversation)
		assert.False(t, put)
	}
	assert.True(t, h.m.Props().Conversations.Hidden)
	assert.Equal(t, []string{"hi"}, userTexts(h.m.Store()), "shown at once")
	assert.Empty(t, h.m.Props().Outgoing)
}

func TestRefusedCopySaysHowToCopyByHand(t *testing.T) {
	h := nativePage(t, "en")
	h.run(components.CopyCommand{ID: "3", Text: "x"})
	assert.Equal(t, []Cmd{Clipboard{ID: "3", Text: "x"}}, h.other)
	h.run(Copied{ID: "3", Err: errors.New("NotAllowedError")})
	assert.Contains(t, h.m.notice, "Ctrl+C")
	assert.Equal(t, "", h.m.copied, "nothing shows as copied")
	assert.Equal(t, "", strings.TrimSpace(h.m.announce.text))

	h.run(Copied{ID: "3"})
	assert.Equal(t, "", h.m.notice, "the refusal's notice goes")
	assert.Equal(t, "3", h.m.copied)
	require.Len(t, h.after, 1)
	h.run(h.after[0].Msg)
	assert.Equal(t, "", h.m.copied)
}
