package components

import (
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components/i18n"
	"stepwise/state"
	"stepwise/state/wire"
)

// storeOf applies JSONL events to a new store.
func storeOf(t *testing.T, events ...string) *state.Store {
	t.Helper()
	s := state.New(state.DefaultOptions())
	for _, e := range events {
		ch := s.ApplyJSON([]byte(e))
		require.NotEqual(t, state.Skipped, ch.Outcome, e)
	}
	return s
}

// render mounts a component in go-app's test engine and returns its HTML.
func render(t *testing.T, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	return app.HTMLString(c)
}

// expandedTrue matches aria-expanded="true" as go-app's HTML encoder
// writes it (a "true" value is written bare); browsers get "true".
func expandedTrue(html string) bool {
	return strings.Contains(html, `aria-expanded="true"`) || strings.Contains(html, "aria-expanded ") || strings.Contains(html, "aria-expanded>")
}

// in returns the default settings in a language.
func in(lang string) Settings {
	s := DefaultSettings()
	s.Locale = i18n.Match(lang)
	return s
}

func itemHTML(t *testing.T, set Settings, it *state.Item) string {
	t.Helper()
	return render(t, &ItemView{Item: it, Rev: it.Rev, Settings: set})
}

const (
	start = `{"type":"message_start","message":{"id":"m","message_type":"chat"}}`
	gs    = `{"type":"group_start","index":0}`
)

func tool(i, id, label string) string {
	return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"get_price","input":{"symbol":"VNM"},"tool_content_message":"` + label + `"}}`
}

func TestRunningGroupShowsNewestThree(t *testing.T) {
	set := in("en")
	s := storeOf(t, start, gs, tool("1", "a", "A"), tool("2", "b", "B"), tool("3", "c", "C"), tool("4", "d", "D"))
	html := itemHTML(t, set, s.Items()[0])
	assert.Contains(t, html, `data-kind="group"`)
	assert.Contains(t, html, `data-state="running"`)
	assert.True(t, expandedTrue(html))
	assert.Contains(t, html, `class="spinner"`)
	assert.Equal(t, 1, strings.Count(html, "step step-hidden"), "the oldest step is hidden")
	assert.Equal(t, 4, strings.Count(html, `data-kind="tool"`))
	assert.Contains(t, html, `>D</span>`, "title is the newest label")
	assert.NotContains(t, html, `data-testid="group-done"`)
}

func TestGroupFromHistoryStartsCollapsed(t *testing.T) {
	set := in("vi")
	h, err := wire.DecodeHistory([]byte(`{"agent_status":"idle","messages":[
		{"role":"assistant","tool_calls":[{"id":"a","name":"x"}],"display_type":"group_start","summary":"Xong"},
		{"role":"tool","tool_call_id":"a","status":"success","content":"ok","display_type":"group_end","summary":"Xong"}]}`))
	require.NoError(t, err)
	s := state.New(state.DefaultOptions())
	s.LoadHistory(h)
	v := &GroupView{Item: s.Items()[0], Rev: s.Items()[0].Rev, Settings: set}
	html := render(t, v)
	assert.Contains(t, html, `data-state="done"`)
	assert.Contains(t, html, `aria-expanded="false"`)
	assert.NotContains(t, html, `data-kind="tool"`, "collapsed: no steps")
	v.toggle(app.Context{}, app.Event{})
	html = app.HTMLString(v.Render())
	assert.True(t, expandedTrue(html))
	assert.Contains(t, html, `data-testid="group-done"`)
	assert.Contains(t, html, "✓ Hoàn thành")
}

func TestToolStatuses(t *testing.T) {
	set := in("en")
	s := storeOf(t, start, tool("0", "a", "Find VNM"), tool("1", "b", "B"),
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"a","content":"VNM 82,000","status":"success"}}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"tool_result","tool_use_id":"b","content":"boom","status":"error"}}`,
		tool("4", "c", "C"), `{"type":"terminal_user_stopped"}`)
	want := map[string]string{"a": "done", "b": "error", "c": "interrupted"}
	for _, it := range s.Items()[:3] {
		html := itemHTML(t, set, it)
		assert.Contains(t, html, `data-tool-id="`+it.Tool.ID+`"`)
		assert.Contains(t, html, `data-status="`+want[it.Tool.ID]+`"`)
		assert.Contains(t, html, `class="dot dot-`+want[it.Tool.ID]+`"`)
		assert.Contains(t, html, `aria-expanded="false"`)
	}
	v := &ToolView{Item: s.Items()[1], Rev: s.Items()[1].Rev, Settings: set}
	render(t, v)
	v.d.open = true
	html := app.HTMLString(v.Render())
	assert.Contains(t, html, "Request")
	assert.Contains(t, html, `tool-response is-error`)
	assert.Contains(t, html, "&#34;symbol&#34;: &#34;VNM&#34;", "request as indented JSON")
}

func TestWebSearchAndChart(t *testing.T) {
	set := in("en")
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_result","tool_use_id":"w","name":"web_search","status":"success","artifact":{"query":"q","sources":[{"url":"https://a.example/1","title":"One"},{"url":"javascript:alert(1)","title":"Bad"}]}}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_result","tool_use_id":"c","name":"build_chart","status":"success","artifact":{"type":"chart","data":{"labels":["A","B"],"values":[1.5,-2]}}}}`)
	v := &ToolView{Item: s.Items()[0], Rev: s.Items()[0].Rev, Settings: set}
	html := render(t, v)
	assert.Contains(t, html, `data-testid="web-search"`)
	assert.Contains(t, html, ">2 results<")
	v.d.open = true
	html = app.HTMLString(v.Render())
	assert.Contains(t, html, `href="https://a.example/1"`)
	assert.Contains(t, html, `rel="noopener noreferrer"`)
	assert.NotContains(t, html, "javascript:")
	assert.Contains(t, html, `favicons?domain=a.example`)

	c := &ToolView{Item: s.Items()[1], Rev: s.Items()[1].Rev, Settings: set}
	render(t, c)
	c.d.open = true
	html = app.HTMLString(c.Render())
	assert.Contains(t, html, `<svg`)
	assert.Equal(t, 2, strings.Count(html, "<rect"))
	assert.Contains(t, html, "chart-bar negative")
	assert.Contains(t, html, "<title>B: -2</title>")
}

// A countdown is an element of its own, a timer, with the time left as
// m:ss, and 0:00 once the time is up.
func TestCountdownShowsTimeLeft(t *testing.T) {
	set := in("en")
	html := render(t, &Countdown{Until: time.Now().Add(90*time.Second + 500*time.Millisecond), Settings: set, Class: "countdown"})
	assert.Contains(t, html, `role="timer"`)
	assert.Contains(t, html, `class="countdown"`)
	assert.Regexp(t, `>[^<]*1:[23][0-9][^<]*<`, html, "1:30, or a little less on a slow machine")
	assert.Contains(t, render(t, &Countdown{Until: time.Now().Add(-time.Minute), Settings: set}), "0:00")
}

func TestQuestionForm(t *testing.T) {
	set := in("vi")
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[
			{"question":"Q1?","header":"H","multiSelect":false,"options":[{"label":"A","description":"about A"}]},
			{"question":"Q2?","multiSelect":true,"options":[{"label":"X"},{"label":"Y"}]}]}}],"timeout_seconds":90}}`)
	q := s.Items()[0]
	html := itemHTML(t, set, q)
	assert.Contains(t, html, `data-kind="question"`)
	assert.Contains(t, html, `data-state="pending"`)
	assert.Equal(t, 2, strings.Count(html, `type="radio"`), "A and the added free-text option")
	assert.Equal(t, 3, strings.Count(html, `type="checkbox"`))
	assert.Equal(t, 2, strings.Count(html, ">Khác<"), "the free-text option each question gets")
	assert.Equal(t, 2, strings.Count(html, `data-testid="question-skip"`))
	assert.Contains(t, html, `data-testid="question-submit"`)
	assert.Contains(t, html, "about A")
	assert.Contains(t, html, "Còn 1:30")

	applyAll(s, `{"type":"approval_result","approval_key":"k","answers":{"Q1?":"A","Q2?":"X, Y"}}`)
	html = itemHTML(t, set, q)
	assert.Contains(t, html, `data-state="answered"`)
	assert.NotContains(t, html, "<input")
	assert.Contains(t, html, ">X, Y<")
}

func applyAll(s *state.Store, events ...string) {
	for _, e := range events {
		s.ApplyJSON([]byte(e))
	}
}

func TestApprovalCard(t *testing.T) {
	set := in("vi")
	s := storeOf(t, start, gs, tool("1", "t", "Đặt lệnh"),
		`{"type":"content_block_start","index":2,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"get_price","args":{"symbol":"VNM"}}],"review_configs":[{"action_name":"get_price","allowed_decisions":["approve","reject"]}]}}`)
	card := s.Items()[0].Group.Steps[1]
	html := itemHTML(t, set, card)
	assert.Contains(t, html, `data-kind="approval"`)
	assert.Contains(t, html, "Cho phép Đặt lệnh thực hiện?")
	assert.Contains(t, html, `data-decision="approve"`)
	assert.Contains(t, html, `data-decision="reject"`)
	assert.NotContains(t, html, `data-decision="edit"`, "only the allowed decisions")
	applyAll(s, `{"type":"approval_result","approval_key":"k","decisions":[{"type":"reject"}]}`)
	html = itemHTML(t, set, card)
	assert.Contains(t, html, `data-state="rejected"`)
	assert.Contains(t, html, "Đã từ chối")
	assert.NotContains(t, html, "<button")
}

func TestOtherKinds(t *testing.T) {
	set := in("fr")
	s := storeOf(t,
		`{"type":"user_message","content":[{"type":"text","text":"bonjour <b>"}]}`,
		start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"first line\nsecond"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"widget"}}`,
		`{"type":"error","error":{"message":"quota"}}`,
		`{"type":"activity","activity_type":"skill_loading","content":"chargée","timestamp":"2026-03-25T10:30:00","display_info":{"friendly_name":"Chargement","icon":"📥"}}`,
		`{"type":"terminal_error"}`)
	var all string
	for _, it := range s.Items() {
		all += itemHTML(t, set, it)
		if it.Group != nil { // the activity's implicit group, collapsed
			for _, st := range it.Group.Steps {
				all += itemHTML(t, set, st)
			}
		}
	}
	for _, kind := range []string{"user", "thinking", "unknown", "error", "activity", "group"} {
		assert.Contains(t, all, `data-kind="`+kind+`"`, kind)
	}
	assert.Contains(t, all, "bonjour &lt;b&gt;", "user text is text")
	assert.Contains(t, all, "Réflexion")
	assert.Contains(t, all, "first line")
	assert.NotContains(t, all, "second", "thinking starts collapsed")
	assert.Contains(t, all, "Contenu non pris en charge : widget")
	assert.NotContains(t, all, `role="alert"`, "the status region says the run failed, once; the item is no second live region")
	assert.Contains(t, all, "Une erreur s&#39;est produite", "an error without text gets a generic one")
	assert.Contains(t, all, "📥")
	assert.Contains(t, all, ">10:30<")
	assert.Contains(t, all, `class="brand"`, "the turn's first assistant item has the brand header")
}

func TestMarkdownIsElementsNeverMarkup(t *testing.T) {
	html := app.HTMLString(app.Div().Body(Markdown("# Title\n\n" +
		"Text **bold** _em_ `code` ~~old~~ <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n" +
		"[ok](https://e.example \"t\") [bad](javascript:alert(3)) [mail](mailto:a@e.example) <https://auto.example> ![img](https://e.example/i.png)\n\n" +
		"| a | b |\n|:--|--:|\n| 1 | 2 |\n\n```go\nfmt.Println(\"<x>\")\n```\n\n> quote\n\n3. three\n4. four\n\n- [x] done\n\n<div onclick=\"x()\">raw</div>\n")...))
	for _, want := range []string{
		`<h2 class="md-h1">Title</h2>`, "<strong>bold</strong>", "<em>em</em>", "<code>code</code>", "<del>old</del>",
		`href="https://e.example"`, `title="t"`, `href="mailto:a@e.example"`, `href="https://auto.example"`,
		`href="https://e.example/i.png"`, `scope="col"`, `class="align-left"`, `class="align-right"`,
		`class="language-go"`, "<blockquote>", `start="3"`, `type="checkbox"`,
		"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;", "&lt;div onclick=",
	} {
		assert.Contains(t, html, want)
	}
	assert.NotContains(t, html, "<script")
	assert.NotContains(t, html, "<img")
	assert.NotContains(t, html, `javascript:`)
	assert.Contains(t, html, `<span class="md-unsafe-link">bad</span>`)
	assert.Equal(t, 4, strings.Count(html, `rel="noopener noreferrer"`), "ok, mail, autolink, image")
}

func TestSafeLink(t *testing.T) {
	for link, ok := range map[string]bool{
		"https://a.example": true, "http://a.example/x?y": true, "mailto:a@b.example": true,
		"javascript:alert(1)": false, "JAVASCRIPT:alert(1)": false, "data:text/html,x": false,
		"/relative": false, "//proto-relative.example": false, "vbscript:x": false, "https://": false,
	} {
		assert.Equal(t, ok, SafeLink(link), link)
	}
}

func TestPageShowsEmptyStateAndHooks(t *testing.T) {
	p := PageProps{Settings: in("en"), Status: state.StatusIdle, Connection: ConnConnecting}
	html := app.HTMLString(Page(p))
	for _, want := range []string{
		`role="log"`, `aria-live="off"`, `data-testid="conversation"`, `data-agent-status="idle"`,
		`<main class="column">`, `<h1 class="name">Stepwise</h1>`, `data-testid="announcer"`,
		`data-testid="composer"`, `data-testid="send"`, `data-testid="connection"`, `data-state="connecting"`,
		"Start a conversation", `data-scenario="timeline"`, "Connecting…",
	} {
		assert.Contains(t, html, want)
	}
	assert.NotContains(t, html, `data-testid="stop"`, "no stop while idle")
	assert.Regexp(t, `<div (?:[a-z-]+="[^"]*" )*role="status"[^>]*>`, html, "the polite status region")
	assert.Regexp(t, `<div [^>]*data-testid="announcer"[^>]*>`, html)
	s := storeOf(t, start)
	p.Items, p.Status = s.Items(), s.Status()
	html = app.HTMLString(Page(p))
	assert.Contains(t, html, `data-agent-status="running"`)
}

// A form shows what the controller says of its command: on its way
// (read-only, "Sending…"), or refused (editable, with the reason).
func TestFormsFollowTheirCommandOutcome(t *testing.T) {
	set := in("en")
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}]}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"place_order","input":{}}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve","reject"]}]}}`)
	q, ap := s.Approval("k"), s.Approval("ap")
	disabled := `disabled="true"`
	enabled := func(html string) bool {
		return !strings.Contains(html, disabled) && !strings.Contains(html, "disabled ") && !strings.Contains(html, "disabled>")
	}

	html := render(t, &QuestionView{Item: q, Rev: q.Rev, Settings: set, Form: FormState{Sending: true}})
	assert.Contains(t, html, "Sending…")
	assert.False(t, enabled(html))
	html = render(t, &QuestionView{Item: q, Rev: q.Rev, Settings: set, Form: FormState{Error: "Could not send: busy"}})
	assert.Contains(t, html, "Submit answers")
	assert.Contains(t, html, `data-testid="form-error"`)
	assert.Contains(t, html, "Could not send: busy")
	assert.True(t, enabled(html), html)

	html = render(t, &ApprovalView{Item: ap, Rev: ap.Rev, Settings: set, Form: FormState{Sending: true}})
	assert.Contains(t, html, "Sending…")
	assert.False(t, enabled(html))
	html = render(t, &ApprovalView{Item: ap, Rev: ap.Rev, Settings: set, Form: FormState{Error: "Could not send: gone"}})
	assert.Contains(t, html, "Could not send: gone")
	assert.True(t, enabled(html), html)

	// The page hands each form its own state, through its chunk.
	page := app.HTMLString(Page(PageProps{Settings: set, Items: s.Items(), Status: s.Status(),
		Forms: Forms{"ap": {Error: "Could not send: gone"}, "other": {Sending: true}}}))
	assert.Equal(t, 1, strings.Count(page, "Could not send: gone"))
	assert.NotContains(t, page, "Sending…")
}

func TestNoticeItem(t *testing.T) {
	s := storeOf(t, `{"type":"user_message","text":"go"}`, start)
	s.Reset(nil, wire.EventID{})
	n := s.Items()[len(s.Items())-1]
	for lang, want := range map[string]string{"en": "The connection to the agent was reset", "vi": "Kết nối với trợ lý", "fr": "La connexion à l&#39;agent"} {
		html := itemHTML(t, in(lang), n)
		assert.Contains(t, html, `data-kind="notice"`)
		assert.Contains(t, html, `data-reason="reset"`)
		assert.Contains(t, html, `role="status"`)
		assert.Contains(t, html, want, lang)
	}
}

func TestCountdown(t *testing.T) {
	shown := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	assert.Equal(t, shown.Add(90*time.Second), deadline("", shown, 90))
	assert.Equal(t, time.Date(2026, 3, 1, 8, 1, 0, 0, time.UTC), deadline("2026-03-01T08:00:00Z", shown, 60))
	assert.Equal(t, "1:30", formatRemaining(90*time.Second))
	assert.Equal(t, "0:05", formatRemaining(4600*time.Millisecond))
	assert.Equal(t, "0:00", formatRemaining(-time.Minute))
	assert.Equal(t, "61:01", formatRemaining(61*time.Minute+time.Second))
	assert.Equal(t, "10:30", shortTime("2026-03-25T10:30:00"))
	assert.Equal(t, "soon", shortTime("soon"))
	assert.Equal(t, "second", firstLine("\n  second\nthird", 90))
	assert.Equal(t, "ab…", firstLine("abc", 2))
}

func TestApprovalEditExplainsBadArguments(t *testing.T) {
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{"q":1}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve","edit"]}]}}`)
	for text, want := range map[string]string{
		`{"q": 2`: "Invalid JSON: the text is not valid JSON.",
		`[1, 2]`:  "Invalid JSON: the arguments must be a JSON object.",
	} {
		ap := s.Approval("ap")
		v := &ApprovalView{Item: ap, Rev: ap.Rev, Settings: in("en")}
		render(t, v)
		v.chosen[0], v.edit[0] = "edit", text
		v.send(app.Context{}, app.Event{})
		assert.Contains(t, app.HTMLString(v.Render()), want, text)
	}
}

// The demo agent's restart error is server text in English; the page says
// it in the reader's language, by its type.
func TestAgentRestartedErrorIsLocalised(t *testing.T) {
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"terminal_error","error":{"type":"agent_restarted","message":"The agent was restarted; the rest of this run was lost. Send your message again."}}}`)
	items := s.Items()
	it := items[len(items)-1]
	require.Equal(t, state.KindError, it.Kind)
	assert.Equal(t, "agent_restarted", it.ErrorType)
	html := itemHTML(t, in("fr"), it)
	assert.Contains(t, html, "L&#39;agent a redémarré")
	assert.NotContains(t, html, "The agent was restarted")
	// Any other error keeps the backend's own words.
	other := storeOf(t, `{"type":"error","error":{"type":"invalid_request","message":"Bad thing"}}`).Items()[0]
	assert.Equal(t, "invalid_request", other.ErrorType)
	assert.Contains(t, itemHTML(t, in("fr"), other), "Bad thing")
}

// MarkdownWarmUp leaves the parser as Markdown uses it, links and all.
func TestMarkdownWarmUp(t *testing.T) {
	steps := MarkdownWarmUp()
	if len(steps) < 2 {
		t.Fatalf("%d steps: the warm-up is meant to be split", len(steps))
	}
	for _, step := range steps {
		step()
	}
	got := app.HTMLString(app.Div().Body(Markdown("*a* see https://example.com/x")...))
	if !strings.Contains(got, "<em>a</em>") || !strings.Contains(got, `href="https://example.com/x"`) {
		t.Fatalf("Markdown after MarkdownWarmUp: %s", got)
	}
}
