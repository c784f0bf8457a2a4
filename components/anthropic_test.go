package components

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components/htmltest"
	"stepwise/state"
)

// storeFromFile replays a case of server/replay/testdata, as the browser
// would apply its lines.
func storeFromFile(t *testing.T, path string) *state.Store {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s := state.New(state.DefaultOptions())
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			s.ApplyJSON([]byte(line))
		}
	}
	return s
}

// itemOf returns the first top-level item of that kind.
func itemOf(t *testing.T, s *state.Store, kind state.Kind) *state.Item {
	t.Helper()
	for _, it := range s.Items() {
		if it.Kind == kind {
			return it
		}
	}
	t.Fatalf("no %s item", kind)
	return nil
}

// usageText is the text of the usage line in html, spaces collapsed.
func usageText(html string) string {
	i := strings.Index(html, `data-testid="usage"`)
	if i < 0 {
		return ""
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(html[i:], " ")
	return strings.TrimSpace(regexp.MustCompile(`[ \t\n]+`).ReplaceAllString(text, " ")) // not the narrow no-break space
}

var describedBy = regexp.MustCompile(`aria-describedby="([^"]+)"`)

func TestCitationMarkers(t *testing.T) {
	set := in("en")
	s := storeFromFile(t, "../server/replay/testdata/anthropic/cited-answer.jsonl")
	html := itemHTML(t, set, itemOf(t, s, state.KindText))

	// Markers after their passages, inside the rendered Markdown.
	markers := regexp.MustCompile(`(?s)<(a|button)[^>]*data-testid="citation"[^>]*>([^<]*)</(a|button)>`).FindAllStringSubmatch(html, -1)
	var numbers []string
	for _, m := range markers {
		numbers = append(numbers, m[2])
	}
	assert.Equal(t, []string{"1", "1", "2", "3"}, numbers, "one marker per source and passage, its text its number")
	assert.Contains(t, html, "<strong>breezy</strong>", "Markdown still renders around the markers")
	assert.Regexp(t, `(?s)52°F\.\s*<span class="citations">`, html, "the first marker follows its passage")
	assert.Equal(t, 4, strings.Count(html, `target="_blank"`))
	assert.Equal(t, 4, strings.Count(html, `rel="noopener noreferrer"`))
	assert.Contains(t, html, `href="https://www.sf.gov/flood-preparedness"`)
	assert.Contains(t, html, `aria-label="Source 3"`)

	// Each marker is described by its tooltip: title, domain, cited text.
	ids := describedBy.FindAllStringSubmatch(html, -1)
	require.Len(t, ids, 4)
	seen := map[string]bool{}
	for _, id := range ids {
		assert.False(t, seen[id[1]], "ids are unique")
		seen[id[1]] = true
		assert.Contains(t, html, `id="`+id[1]+`"`)
	}
	assert.Contains(t, html, `role="tooltip"`)
	assert.Contains(t, html, "Flood preparedness | SF.gov")
	assert.Contains(t, html, "www.sf.gov")
	assert.Contains(t, html, "“Avoid low-lying roads and underpasses during heavy rain.”")
	assert.NotContains(t, html, "Eo8BCioIDB", "never the encrypted index")
}

func TestCitationWithoutLink(t *testing.T) {
	set := in("vi")
	s := storeOf(t, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Doanh thu tăng 12%.","citations":[{"type":"page_location","document_index":0,"document_title":"Báo cáo quý 3","cited_text":"Doanh thu tăng 12%","start_page_number":4,"end_page_number":5}]}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":" Xem thêm.","citations":[{"type":"web_search_result_location","url":"javascript:alert(1)","title":"Xấu","cited_text":"x"}]}}`,
	)
	html := itemHTML(t, set, s.Items()[0])
	assert.Equal(t, 2, strings.Count(html, `data-testid="citation"`))
	assert.NotContains(t, html, "<a ", "a document without URL, and a javascript: URL, are no links")
	assert.NotContains(t, html, "javascript:")
	assert.Len(t, regexp.MustCompile(`<button[^>]*class="citation no-link"`).FindAllString(html, -1), 2, "still reachable with the keyboard")
	assert.Contains(t, html, "Báo cáo quý 3")
	assert.Contains(t, html, `aria-label="Nguồn 1"`)
}

func TestAnthropicWebSearchBlockAndSources(t *testing.T) {
	set := in("en")
	s := storeFromFile(t, "../server/replay/testdata/streams/anthropic-docs-web-search.jsonl")
	it := itemOf(t, s, state.KindTool)
	v := &ToolView{Item: it, Rev: it.Rev, Settings: set}
	html := render(t, v)
	assert.Contains(t, html, `data-testid="web-search"`)
	assert.Contains(t, html, ">1 result<")
	v.d.open = true
	html = app.HTMLString(v.Render())
	assert.Contains(t, html, "weather NYC today", "the query of the tool's input")
	assert.Contains(t, html, `href="https://world-weather.info/forecast/usa/new_york/may-2025/"`)
	assert.NotContains(t, html, "Ev0DCioIAxgCIiQ3NmU4ZmI4OC1k", "never the encrypted content")

	s = storeFromFile(t, "../server/replay/testdata/anthropic/cited-answer.jsonl")
	p := &SourcesPanel{Settings: set, Groups: s.Sources(), Rev: s.SourcesRev()}
	html = render(t, p)
	assert.Equal(t, 2, strings.Count(html, `data-testid="sources-group"`))
	assert.Contains(t, html, "🔍 San Francisco weather today")
	assert.Contains(t, html, "🔗 Cited")
	assert.Contains(t, html, "www.accuweather.com · 6 hours ago", "page_age beside the domain")
	assert.Contains(t, html, ">www.wunderground.com<", "no page_age, the domain alone")

	set = in("fr")
	s = storeFromFile(t, "../server/replay/testdata/anthropic/server-tools.jsonl")
	html = render(t, &SourcesPanel{Settings: set, Groups: s.Sources(), Rev: s.SourcesRev()})
	assert.Contains(t, html, "📄 Pages consultées")
}

func TestNotices(t *testing.T) {
	for _, tc := range []struct {
		lang, reason, want string
	}{
		{"en", "refusal", "The model declined to answer"},
		{"vi", "refusal", "Mô hình đã từ chối trả lời"},
		{"fr", "max_tokens", "La réponse a été coupée à la limite de longueur"},
		{"en", "model_context_window_exceeded", "The conversation is too long for the model"},
		{"vi", "model_context_window_exceeded", "Cuộc trò chuyện quá dài so với mô hình"},
	} {
		set := in(tc.lang)
		s := storeOf(t, start, `{"type":"message_delta","delta":{"stop_reason":"`+tc.reason+`","stop_details":{"type":"refusal","explanation":"Policy <b>x</b>"}}}`)
		html := itemHTML(t, set, s.Items()[0])
		assert.Contains(t, html, `data-kind="notice"`)
		assert.Contains(t, html, `role="status"`)
		assert.Contains(t, html, tc.want, tc.lang+" "+tc.reason)
		if tc.reason == "refusal" {
			assert.Contains(t, html, "Policy &lt;b&gt;x&lt;/b&gt;", "the explanation, as text")
		} else {
			assert.NotContains(t, html, "Policy", "only a refusal has an explanation")
		}
	}
	set := in("fr")
	s := storeFromFile(t, "../server/replay/testdata/streams/anthropic-sdk-compaction.jsonl")
	html := itemHTML(t, set, itemOf(t, s, state.KindNotice))
	assert.Contains(t, html, `data-reason="compaction"`)
	assert.Contains(t, html, "Le contexte précédent a été résumé")
	assert.NotContains(t, html, "Earlier conversation summarized", "the summary is not shown")
}

func TestRedactedThinking(t *testing.T) {
	set := in("fr")
	s := storeOf(t, start, `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3p"}}`)
	html := itemHTML(t, set, s.Items()[0])
	assert.Contains(t, html, `data-kind="thinking"`)
	assert.Contains(t, html, "Raisonnement masqué par le fournisseur du modèle")
	assert.NotContains(t, html, "EmwKAhgBEgy3va3p")
	assert.NotContains(t, html, "<button", "nothing to open")
}

func TestServerToolErrorsAndCutInput(t *testing.T) {
	set := in("fr")
	s := storeFromFile(t, "../server/replay/testdata/anthropic/server-tools.jsonl")
	open := func(id string) string {
		it := s.Tool(id)
		v := &ToolView{Item: it, Rev: it.Rev, Settings: set}
		render(t, v)
		v.d.open = true
		return app.HTMLString(v.Render())
	}
	html := open("srvtoolu_bash1")
	assert.Contains(t, html, `data-status="error"`)
	assert.Contains(t, html, "Le fichier produit est trop volumineux pour être renvoyé.")
	assert.Contains(t, html, "tool-response is-error")
	assert.Contains(t, open("srvtoolu_fetch2"), "La page est inaccessible.")
	code := open("srvtoolu_code1")
	assert.Contains(t, code, "12231")
	assert.Contains(t, code, ">Exécution de code<", "Anthropic's server tools are named in the UI's language")
	assert.Contains(t, open("srvtoolu_search1"), ">Recherche web<")
	assert.Contains(t, open("mcptoolu_forecast"), ">Get forecast<", "other tools keep the label from their name")
	fetch := open("srvtoolu_fetch1")
	assert.Contains(t, fetch, "Effective Go\nhttps://go.dev/doc/effective_go")
	assert.NotContains(t, fetch, "Introduction. Go is a new language", "never the page's body")

	set = in("en")
	s = storeFromFile(t, "../server/replay/testdata/streams/anthropic-sdk-cut-tool-json.jsonl")
	it := itemOf(t, s, state.KindTool)
	v := &ToolView{Item: it, Rev: it.Rev, Settings: set}
	render(t, v)
	v.d.open = true
	html = app.HTMLString(v.Render())
	assert.Contains(t, html, `data-status="interrupted"`)
	assert.Contains(t, html, "Cut off before it was complete")
	assert.Contains(t, html, "Filing taxes…", "the JSON the model was writing")
	html = itemHTML(t, set, s.Items()[len(s.Items())-1])
	assert.Contains(t, html, "The answer was cut off at the length limit")
}

func TestUsageAtTheEndOfTheTurn(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "10,682 in · 510 out · 1 web search",
		"vi": "10.682 token vào · 510 token ra · 1 lượt tìm kiếm web",
		"fr": "10\u202f682 en entrée · 510 en sortie · 1 recherche web",
	} {
		set := in(lang)
		s := storeFromFile(t, "../server/replay/testdata/streams/anthropic-docs-web-search.jsonl")
		items := s.Items()
		for _, it := range items[:len(items)-1] {
			assert.NotContains(t, itemHTML(t, set, it), `data-testid="usage"`)
		}
		html := itemHTML(t, set, items[len(items)-1])
		assert.Contains(t, html, `data-testid="usage"`)
		assert.Contains(t, usageText(html), want, lang)
		assert.Contains(t, html, `class="sr-only"`, "screen readers hear what the numbers count")
	}

	set := in("en")
	s := storeFromFile(t, "../server/replay/testdata/anthropic/cited-answer.jsonl")
	items := s.Items()
	assert.Contains(t, usageText(itemHTML(t, set, items[1])), "11,306 in · 163 out · 1 web search")
	assert.Contains(t, usageText(itemHTML(t, set, items[3])), "11,600 in · 11,000 cached · 58 out", "cache reads when there are any")
	assert.NotContains(t, usageText(itemHTML(t, set, items[3])), "web search", "no searches, no count")

	s = storeOf(t, `{"type":"message_start","message":{"id":"m","usage":{"input_tokens":5,"output_tokens":2}}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9,"server_tool_use":{"web_search_requests":3}}}`)
	assert.Empty(t, s.Items())
	s = storeOf(t, `{"type":"message_start","message":{"id":"m","usage":{"input_tokens":5,"output_tokens":2}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"x"}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9,"server_tool_use":{"web_search_requests":3}}}`,
		`{"type":"message_stop"}`)
	assert.Contains(t, usageText(itemHTML(t, set, s.Items()[0])), "5 in · 9 out · 3 web searches")
}

func TestFallbackNotice(t *testing.T) {
	s := storeFromFile(t, "../state/testdata/upstream/vercel-ai/anthropic/anthropic-fallback.chunks.txt")
	html := itemHTML(t, in("fr"), itemOf(t, s, state.KindNotice))
	assert.Contains(t, html, `data-reason="fallback"`)
	assert.Contains(t, html, "Un autre modèle a pris le relais")
	assert.Contains(t, html, "claude-opus-4-8", "names the model that answered")
}

// An advisor's redacted result is for the model only: the page says so and
// never shows the encrypted content.
func TestEncryptedResultNotShown(t *testing.T) {
	s := storeFromFile(t, "../state/testdata/upstream/vercel-ai/anthropic/anthropic-advisor-stop-reasons.chunks.txt")
	it := s.Tool("srvtoolu_advisor_redacted")
	v := &ToolView{Item: it, Rev: it.Rev, Settings: in("vi")}
	render(t, v)
	v.d.open = true
	html := app.HTMLString(v.Render())
	assert.Contains(t, html, "Kết quả đã được mã hóa: chỉ mô hình đọc được.")
	assert.NotContains(t, html, "opaque-encrypted-advice")
}

// AG-UI runs report their usage on RUN_FINISHED: the same quiet line, with
// the reasoning tokens and the model (a recorded .NET run).
func TestAGUIRunUsageLine(t *testing.T) {
	s := storeFromFile(t, "../state/testdata/upstream/ag-ui/dotnet-thinking-turn1.jsonl")
	items := s.Items()
	last := items[len(items)-1]
	require.NotNil(t, last.Usage)
	assert.Contains(t, usageText(itemHTML(t, in("en"), last)), "39 in · 345 out · 128 reasoning · gpt-5-mini")
	assert.Contains(t, usageText(itemHTML(t, in("vi"), last)), "39 token vào · 345 token ra · 128 token suy luận · gpt-5-mini")
	for _, it := range items[:len(items)-1] {
		assert.Nil(t, it.Usage, "only the turn's last item")
	}
}

// A refusal's category in the reader's words, before the provider's own
// explanation; context management edits and a container upload said in
// words, never as the edit's technical type.
func TestRefusalCategoryAndContextNotices(t *testing.T) {
	s := storeFromFile(t, "../state/testdata/upstream/vercel-ai/anthropic/anthropic-refusal.chunks.txt")
	html := itemHTML(t, in("vi"), itemOf(t, s, state.KindNotice))
	assert.Contains(t, html, "Yêu cầu có thể tiếp tay cho tấn công mạng")
	assert.Contains(t, html, "violative cyber content", "the provider's explanation stays")
	assert.Less(t, strings.Index(html, "tấn công mạng"), strings.Index(html, "violative"))

	s = storeFromFile(t, "../state/testdata/handmade/anthropic-context-cleared-and-upload.jsonl")
	html = itemHTML(t, in("fr"), s.Items()[0])
	assert.Contains(t, html, "Des résultats d&#39;outils précédents ont été effacés ici")
	assert.NotContains(t, html, "clear_tool_uses")
	html = itemHTML(t, in("en"), s.Items()[1])
	assert.Contains(t, html, "A file was uploaded to the code container")
	assert.Contains(t, html, "file_011CNha8iCJcU1wXNR6q4V8w")
}

// An AI SDK approval the route's policy decided says so (the SDK's own
// toUIMessageStream output), with no buttons.
func TestAutomaticApprovalMark(t *testing.T) {
	s := storeFromFile(t, "../state/testdata/upstream/vercel-ai/ui/to-ui-message-stream-automatically-approved.jsonl")
	html := itemHTML(t, in("fr"), s.Approval("id-1"))
	assert.Contains(t, html, "Autorisé par la règle")
	assert.Contains(t, html, `data-automatic`)
	decisions := htmltest.Parse(t, html).All(func(n *htmltest.Node) bool { return n.Tag == "button" && n.Has("data-decision") })
	assert.Empty(t, decisions, "no decision buttons")
	s = storeFromFile(t, "../state/testdata/upstream/vercel-ai/ui/to-ui-message-stream-automatically-rejected.jsonl")
	assert.Contains(t, itemHTML(t, in("en"), s.Approval("id-1")), "Rejected by policy")
}
