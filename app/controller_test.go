package app

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components"
	"stepwise/state/wire"
)

// prerender serves path the way the server does: go-app's handler renders
// the routed page on the server.
func prerender(t *testing.T, path string) string {
	t.Helper()
	Routes()
	h := &app.Handler{Name: "Stepwise", Title: "Stepwise", Lang: "vi"}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	require.Equal(t, 200, rec.Code)
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestPrerenderIsInTheAskedLanguage(t *testing.T) {
	for _, tc := range []struct{ path, lang, placeholder, starting, empty string }{
		{"/?lang=en", "en", "Message the assistant", "Starting… you can type already.", "Start a conversation"},
		{"/?lang=fr-CA&session=abc", "fr", "Écrivez à l'assistant", "Démarrage… vous pouvez déjà écrire.", ""},
		{"/", "vi", "Nhắn cho trợ lý", "Đang khởi động… bạn có thể gõ ngay.", "Bắt đầu một cuộc trò chuyện"},
	} {
		html := prerender(t, tc.path)
		assert.Regexp(t, regexp.MustCompile(`<html [^>]*lang="`+tc.lang+`"`), html, tc.path)
		assert.Contains(t, html, `placeholder="`+tc.placeholder, tc.path+": the composer, from the first paint")
		assert.Contains(t, html, tc.starting, tc.path+": the page says the app is starting")
		if tc.empty != "" {
			assert.Contains(t, html, tc.empty, tc.path)
		} else {
			assert.NotContains(t, html, `class="empty"`, tc.path+": a session may have history: no invitation to start one")
		}
	}
}

// The prerendered page is on screen until the app runs: nothing in it looks
// clickable that does nothing. Its buttons are disabled (web/boot.js
// enables the send button as it takes the composer over); the box takes
// text.
func TestPrerenderDisablesWhatNeedsTheApp(t *testing.T) {
	html := prerender(t, "/?lang=en")
	buttons := regexp.MustCompile(`<button[^>]*>`).FindAllString(html, -1)
	require.NotEmpty(t, buttons)
	for _, b := range buttons {
		assert.Regexp(t, `\sdisabled[\s>]`, b, "an enabled button in the prerendered page")
	}
	textarea := regexp.MustCompile(`<textarea[^>]*>`).FindString(html)
	require.NotEmpty(t, textarea)
	assert.NotContains(t, textarea, "disabled")
	assert.NotContains(t, textarea, "readonly")
}

// newController is a controller as OnInit leaves it, with conn for a
// backend.
func newController(t *testing.T, lang string, conn Conn) *Controller {
	t.Helper()
	c := &Controller{}
	c.OnInit()
	c.settings.Locale = components.DefaultSettings().Locale
	c.configure(mustURL(t, "/?session=s1&lang="+lang), "")
	c.sess.Conn = conn
	return c
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func html(c *Controller) string { return app.HTMLString(c.Render()) }

const questionEvents = `{"type":"user_message","text":"go","event_id":1}
{"type":"message_start","message":{"id":"m"},"event_id":2}
{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}],"timeout_seconds":90},"event_id":3}`

func feed(c *Controller, jsonl string) {
	for _, l := range strings.Split(jsonl, "\n") {
		c.applyFrame(app.Context{}, []byte(l))
	}
}

// disabled matches a disabled control as go-app's encoder writes it (it
// writes disabled="false" for an enabled one).
var disabled = regexp.MustCompile(`\sdisabled(="true")?[\s>]`)

var submitRE = regexp.MustCompile(`<button[^>]*data-testid="question-submit"[^>]*>\s*([^<]*)<`)

func submitButton(t *testing.T, c *Controller) string {
	t.Helper()
	m := submitRE.FindStringSubmatch(html(c))
	require.NotNil(t, m, "no submit button")
	return m[0]
}

// Defect 8: a refused answer returns the form to editable, with the
// reason; a second click while it is on its way sends nothing.
func TestRefusedAnswerReturnsTheForm(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	feed(c, questionEvents)
	answer := app.Action{Value: components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}}}

	c.onAnswer(app.Context{}, answer)
	c.onAnswer(app.Context{}, answer)
	require.Len(t, conn.sent, 1, "one frame however often it is clicked")
	var f map[string]any
	require.NoError(t, json.Unmarshal([]byte(conn.sent[0]), &f))
	assert.Equal(t, "c1", f["command_id"])
	btn := submitButton(t, c)
	assert.Regexp(t, disabled, btn)
	assert.Contains(t, btn, "Sending…")

	c.onResult(app.Context{}, Result{CommandID: "c1", Err: &CommandError{Type: "busy", Message: "The agent is busy."}})
	btn = submitButton(t, c)
	assert.NotRegexp(t, disabled, btn, "editable again")
	assert.Contains(t, btn, "Submit answers")
	assert.Contains(t, html(c), "Could not send: The agent is busy.")

	c.onAnswer(app.Context{}, answer)
	require.Len(t, conn.sent, 2, "it can be sent again")
	assert.NotContains(t, html(c), "The agent is busy.", "the old reason goes with the new try")
	c.onResult(app.Context{}, Result{CommandID: "c2"})
	assert.Contains(t, submitButton(t, c), "Sending…", "accepted: it waits for the agent")

	feed(c, `{"type":"approval_result","approval_key":"k","answers":{"Q?":"A"},"event_id":4}`)
	assert.NotContains(t, html(c), `data-testid="question-submit"`)
	assert.Empty(t, c.forms, "a resolved form keeps no state")
}

// A frame the transport cannot even queue is refused at once, in the UI
// language.
func TestAnswerNotSentShowsWhy(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "fr", conn)
	feed(c, questionEvents)
	conn.err = ErrOffline
	c.onAnswer(app.Context{}, app.Action{Value: components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}}})
	assert.Contains(t, html(c), "Envoi impossible : pas de connexion")
	assert.NotRegexp(t, disabled, submitButton(t, c))
}

func TestRefusedDecisionReturnsTheCard(t *testing.T) {
	conn := &fakeConn{}
	c := newController(t, "en", conn)
	feed(c, `{"type":"message_start","message":{"id":"m"},"event_id":1}
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"place_order","input":{}},"event_id":2}
{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve","reject"]}]},"event_id":3}`)
	c.onDecide(app.Context{}, app.Action{Value: components.DecideCommand{Key: "ap", Decisions: []wire.Decision{{Type: "approve"}}}})
	require.Len(t, conn.sent, 1)
	assert.Regexp(t, disabled, approveButton(t, c))
	c.onResult(app.Context{}, Result{CommandID: "c1", Err: &CommandError{Message: "No such approval."}})
	assert.NotRegexp(t, disabled, approveButton(t, c))
	assert.Contains(t, html(c), "Could not send: No such approval.")
}

func approveButton(t *testing.T, c *Controller) string {
	t.Helper()
	m := regexp.MustCompile(`<button[^>]*data-decision="approve"[^>]*>`).FindString(html(c))
	require.NotEmpty(t, m, "no approve button")
	return m
}

// Item 1 of issue 8, the client's part: a reset ends the run with a
// localised notice, and the next events are shown.
func TestResetEndsTheRunWithANotice(t *testing.T) {
	c := newController(t, "en", &fakeConn{})
	feed(c, questionEvents)
	require.Contains(t, html(c), `data-agent-status="running"`)
	c.onReset(app.Context{}, &wire.History{AgentStatus: "idle"}, nil, wire.EventID{})
	out := html(c)
	assert.Contains(t, out, `data-agent-status="idle"`)
	assert.Contains(t, out, `data-kind="notice"`)
	assert.Contains(t, out, "The connection to the agent was reset")
	assert.Contains(t, out, `data-state="expired"`, "the question expired")
	feed(c, `{"type":"user_message","text":"next","event_id":1}`)
	assert.Contains(t, html(c), ">next<")
	assert.Contains(t, html(c), `data-agent-status="running"`)
}
