package components

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func result(i, id, status, content string) string {
	return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_result","tool_use_id":"` + id + `","tool_name":"get_price","content":"` + content + `","status":"` + status + `"}}`
}

const ge = `{"type":"group_end","index":9,"summary":"Prices"}`

// A cancelled tool is not a failed one: its own words, dot and response.
func TestCancelledToolIsNotFailed(t *testing.T) {
	s := storeOf(t, start, gs, tool("1", "a", "A"), result("2", "a", "cancelled", ""))
	html := itemHTML(t, in("en"), s.Items()[0].Group.Steps[0])
	assert.Contains(t, html, `data-outcome="cancelled"`)
	assert.Contains(t, html, `class="dot dot-cancelled"`)
	assert.Contains(t, html, ", Cancelled<")
	assert.NotContains(t, html, "Failed")

	s = storeOf(t, start, gs, tool("1", "a", "A"), result("2", "a", "error", "boom"))
	html = itemHTML(t, in("en"), s.Items()[0].Group.Steps[0])
	assert.Contains(t, html, `class="dot dot-error"`)
	assert.Contains(t, html, ", Failed<")
	assert.NotContains(t, html, "data-outcome")
}

// A finished group's header says which steps failed, were cancelled, or
// were rejected; a group where all went well says nothing of the kind.
func TestGroupHeaderSaysWhatWentWrong(t *testing.T) {
	approval := `{"type":"content_block_start","index":5,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"get_price","args":{}}],"review_configs":[{"action_name":"get_price","allowed_decisions":["approve","reject"]}]}}`
	rejected := `{"type":"approval_result","approval_key":"k","decisions":[{"type":"reject"}]}`
	s := storeOf(t, start, gs,
		tool("1", "a", "A"), result("2", "a", "error", "boom"),
		tool("3", "b", "B"), result("4", "b", "cancelled", ""),
		tool("6", "c", "C"), approval, rejected,
		ge)
	for lang, want := range map[string][]string{
		"en": {"1 step failed", "1 cancelled", "1 approval rejected"},
		"fr": {"1 étape en échec", "1 annulée", "1 autorisation refusée"},
		"vi": {"1 bước lỗi", "1 bước đã hủy", "1 yêu cầu bị từ chối"},
	} {
		html := itemHTML(t, in(lang), s.Items()[0])
		assert.False(t, expandedTrue(html), "collapsed")
		i := strings.Index(html, `data-testid="group-outcome"`)
		if !assert.True(t, i >= 0 && i < strings.Index(html, `class="chevron"`), "%s: the outcome is in the header", lang) {
			continue
		}
		for _, w := range want {
			assert.Contains(t, html, w, lang)
		}
	}

	s = storeOf(t, start, gs, tool("1", "a", "A"), result("2", "a", "success", "ok"), ge)
	assert.NotContains(t, itemHTML(t, in("en"), s.Items()[0]), "group-outcome")
}

// A search result's age is in the UI's language.
func TestPageAgeInTheUILanguage(t *testing.T) {
	for _, tc := range []struct{ lang, age, want string }{
		{"vi", "2 days ago", "2 ngày trước"},
		{"fr", "2 days ago", "il y a 2 jours"},
		{"fr", "an hour ago", "il y a 1 heure"},
		{"fr", "1 week ago", "il y a 1 semaine"},
		{"vi", "5 hours ago", "5 giờ trước"},
		{"en", "3 days ago", "3 days ago"},
		{"vi", "April 30, 2026", "30/04/2026"},
		{"fr", "January 12, 2026", "12/01/2026"},
		{"en", "April 30, 2026", "April 30, 2026"},
		{"fr", "yesterday", "yesterday"},
	} {
		assert.Equal(t, tc.want, pageAge(tc.age, in(tc.lang)), "%s %q", tc.lang, tc.age)
	}
}

// The header's badge counts sources, not searches; with none, there is no
// Sources button (unless the panel is open).
func TestSourcesBadgeCountsSources(t *testing.T) {
	search := func(i, id string, n int) string {
		var srcs []string
		for j := 0; j < n; j++ {
			srcs = append(srcs, `{"url":"https://e.example/`+id+strings.Repeat("x", j)+`","title":"T"}`)
		}
		return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"web_search","input":{"query":"q"}}}` + "\n" +
			`{"type":"content_block_start","index":` + i + `1,"content_block":{"type":"tool_result","tool_use_id":"` + id + `","tool_name":"web_search","content":"ok","status":"success","artifact":{"query":"q","sources":[` + strings.Join(srcs, ",") + `]}}}`
	}
	events := []string{start}
	for _, l := range strings.Split(search("1", "a", 4)+"\n"+search("2", "b", 3), "\n") {
		events = append(events, l)
	}
	s := storeOf(t, events...)
	assert.Equal(t, 7, SourceCount(s.Sources()))
	html := render(t, &Topbar{Settings: in("en"), SourceCount: SourceCount(s.Sources())})
	assert.Contains(t, html, `<span class="badge">7</span>`)
	assert.NotContains(t, render(t, &Topbar{Settings: in("en")}), `sources-button`)
	assert.Contains(t, render(t, &Topbar{Settings: in("en"), SourcesOpen: true}), `sources-button`)
}

// A skipped question's answer reads as words of the UI, not as the
// protocol's "[No preference]".
func TestSkippedAnswerIsWords(t *testing.T) {
	q := `{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}]}}`
	answered := `{"type":"approval_result","approval_key":"k","answers":{"Q?":"[No preference]"}}`
	s := storeOf(t, start, q, answered)
	for lang, want := range map[string]string{"en": "No preference", "fr": "Sans préférence", "vi": "Không có ưu tiên"} {
		html := itemHTML(t, in(lang), s.Items()[0])
		assert.Contains(t, html, ">"+want+"<", lang)
		assert.NotContains(t, html, "[No preference]", lang)
	}
}

// One copy button an answer: under the turn's last text, once the turn
// has ended; not under what the agent said between its steps, nor while
// the answer streams.
func TestOneCopyButtonPerAnswer(t *testing.T) {
	intro := `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Let me look.","is_part":true}}`
	final := `{"type":"content_block_start","index":5,"content_block":{"type":"text","text":"VNM is at 82.","is_final":true}}`
	delta := `{"type":"content_block_delta","index":5,"delta":{"type":"text_delta","text":" Up 2%."}}`
	s := storeOf(t, start, intro, gs, tool("1", "a", "A"), result("2", "a", "success", "82"), ge, final, delta)
	count := func() int {
		n := 0
		for _, it := range s.Items() {
			n += len(copyButtons(itemHTML(t, in("en"), it)))
		}
		return n
	}
	assert.Zero(t, count(), "no copy button while the answer streams")
	require.NotNil(t, s.ApplyJSON([]byte(`{"type":"message_stop"}`)))
	items := s.Items()
	assert.Empty(t, copyButtons(itemHTML(t, in("en"), items[0])), "none under the words between steps")
	last := items[len(items)-1]
	assert.Equal(t, []string{answerCopyID(last) + "|Copy answer|Copy"}, copyButtons(itemHTML(t, in("en"), last)))
	assert.Equal(t, 1, count())

	// A stream without is_part / is_final (Anthropic): its last text.
	s = storeOf(t, start, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"I'll check."}}`,
		`{"type":"content_block_stop","index":0}`, tool("1", "a", "A"), result("2", "a", "success", "82"),
		`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"It is 82."}}`, `{"type":"message_stop"}`)
	assert.Equal(t, 1, count())
	items = s.Items()
	assert.Len(t, copyButtons(itemHTML(t, in("en"), items[len(items)-1])), 1)
}
