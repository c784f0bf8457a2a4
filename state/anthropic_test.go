package state

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// Events of BACKENDS.md section 1, short.
func textStart(idx int, cited bool) string {
	c := ""
	if cited {
		c = `,"citations":[]`
	}
	return `{"type":"content_block_start","index":` + strconv.Itoa(idx) + `,"content_block":{"type":"text","text":""` + c + `}}`
}

func textDelta(idx int, text string) string {
	b, _ := json.Marshal(text)
	return `{"type":"content_block_delta","index":` + strconv.Itoa(idx) + `,"delta":{"type":"text_delta","text":` + string(b) + `}}`
}

func webCite(idx int, url, title, cited string) string {
	return `{"type":"content_block_delta","index":` + strconv.Itoa(idx) + `,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"` + url + `","title":"` + title + `","cited_text":"` + cited + `","encrypted_index":"E"}}}`
}

func usageStart(in, out int) string {
	return `{"type":"message_start","message":{"id":"m","role":"assistant","usage":{"input_tokens":` + strconv.Itoa(in) + `,"output_tokens":` + strconv.Itoa(out) + `}}}`
}

const endTurn = `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`

func TestCitedBlocksJoinOnlyBesideEachOther(t *testing.T) {
	for name, tc := range map[string]struct {
		lines []string
		texts []string
	}{
		"cited after uncited joins": {
			[]string{textStart(0, false), textDelta(0, "A "), stop(0), textStart(1, true), textDelta(1, "B"), stop(1)},
			[]string{"A B"},
		},
		"uncited after cited joins": {
			[]string{textStart(0, true), textDelta(0, "A"), stop(0), textStart(1, false), textDelta(1, "."), stop(1)},
			[]string{"A."},
		},
		"a block cited by a delta only counts as cited": {
			[]string{textStart(0, false), webCite(0, "https://a.example", "A", "a"), textDelta(0, "A"), stop(0), textStart(1, false), textDelta(1, "."), stop(1)},
			[]string{"A."},
		},
		"two uncited blocks stay apart": {
			[]string{textStart(0, false), textDelta(0, "A"), stop(0), textStart(1, false), textDelta(1, "B"), stop(1)},
			[]string{"A", "B"},
		},
		"a tool between keeps them apart": {
			[]string{textStart(0, true), textDelta(0, "A"), stop(0), toolUse(1, "t", "x", ""), stop(1), textStart(2, true), textDelta(2, "B"), stop(2)},
			[]string{"A", "B"},
		},
		"a group marker between keeps them apart": {
			[]string{textStart(0, true), textDelta(0, "A"), stop(0), `{"type":"group_end","index":1,"summary":"s"}`, textStart(2, true), textDelta(2, "B"), stop(2)},
			[]string{"A", "B"},
		},
		"a block still open is not continued": {
			[]string{textStart(0, true), textDelta(0, "A"), textStart(1, true), textDelta(1, "B"), stop(1), stop(0)},
			[]string{"A", "B"},
		},
		"another message starts a new item": {
			[]string{textStart(0, true), textDelta(0, "A"), stop(0), `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, msgStop, msgStart, textStart(0, true), textDelta(0, "B"), stop(0)},
			[]string{"A", "B"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := apply(t, append([]string{msgStart}, tc.lines...)...)
			var texts []string
			for _, it := range s.Items() {
				if it.Kind == KindText {
					texts = append(texts, it.Text)
				}
			}
			assert.Equal(t, tc.texts, texts)
			assert.Zero(t, s.SkippedCount())
			checkInvariants(t, s)
		})
	}
}

func TestCitationOffsetFollowsItsPassage(t *testing.T) {
	s := apply(t, msgStart, textStart(0, false), textDelta(0, "Xin chào. "), stop(0),
		textStart(1, true), webCite(1, "https://a.example/1", "A", "a"))
	it := s.Items()[0]
	require.Len(t, it.Citations, 1)
	assert.Equal(t, len("Xin chào. "), it.Citations[0].At, "a citation before any text of its passage")

	rev := it.Rev
	applyTo(s, textDelta(1, "Trời mưa"))
	assert.Equal(t, len("Xin chào. Trời mưa"), it.Citations[0].At, "the end moves while the passage streams")
	assert.Greater(t, it.Rev, rev)

	applyTo(s, stop(1), textStart(2, false), textDelta(2, " và lạnh."), stop(2))
	assert.Equal(t, len("Xin chào. Trời mưa"), it.Citations[0].At, "an uncited block after it does not move it")
	assert.Equal(t, "Xin chào. Trời mưa và lạnh.", it.Text)

	applyTo(s, textStart(3, true), textDelta(3, " Gió"), webCite(3, "https://b.example", "B", "b"), stop(3))
	require.Len(t, it.Citations, 2)
	assert.Equal(t, len("Xin chào. Trời mưa"), it.Citations[0].At, "a cited block after it does not move it either")
	assert.Equal(t, len(it.Text), it.Citations[1].At)
}

func TestCitationNumbers(t *testing.T) {
	doc := func(idx int, kind string, docIndex int, title string) string {
		return `{"type":"content_block_delta","index":` + strconv.Itoa(idx) + `,"delta":{"type":"citations_delta","citation":{"type":"` + kind + `","cited_text":"c","document_index":` + strconv.Itoa(docIndex) + `,"document_title":"` + title + `","start_char_index":0,"end_char_index":1}}}`
	}
	s := apply(t, msgStart, textStart(0, true),
		webCite(0, "https://a.example", "A", "a1"),
		doc(0, "char_location", 0, "Báo cáo"),
		webCite(0, "https://b.example", "B", "b"),
		doc(0, "page_location", 0, "Báo cáo"), // the same document, another kind of location
		doc(0, "content_block_location", 1, "Phụ lục"),
		`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"search_result_location","source":"https://c.example/doc","title":"C","cited_text":"c","search_result_index":0,"start_block_index":0,"end_block_index":1}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"search_result_location","source":"kb://policy/7","title":"Policy","cited_text":"p","search_result_index":1,"start_block_index":0,"end_block_index":1}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"hologram_location"}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"hologram_location"}}}`,
		textDelta(0, "x"), stop(0), endTurn, msgStop,
		`{"type":"user_message","content":"again"}`, msgStart, textStart(0, true),
		webCite(0, "https://b.example", "B", "b2"), webCite(0, "https://d.example", "D", "d"), stop(0))
	var got []int
	var urls []string
	for _, it := range s.Items() {
		for _, c := range it.Citations {
			got = append(got, c.N)
			urls = append(urls, c.URL)
		}
	}
	assert.Equal(t, []int{1, 2, 3, 2, 4, 5, 6, 7, 8, 3, 9}, got,
		"per conversation, in order of first use; a URL or document keeps its number; nothing to recognise gets its own")
	assert.Equal(t, "https://c.example/doc", urls[5], "a search result whose source is a page links to it")
	assert.Equal(t, "", urls[6], "a source that is not a web URL is no link")
	assert.Equal(t, "Báo cáo", s.Items()[0].Citations[1].Title, "a document citation shows its document's title")
}

func TestCitedPagesJoinTheSourcesPanel(t *testing.T) {
	search := `{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"mưa"}}}`
	results := `{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"web_search_result","url":"https://a.example","title":"A","encrypted_content":"x","page_age":"2 days ago"}]}}`
	s := apply(t, msgStart, search, stop(0), results, stop(1), textStart(2, true),
		webCite(2, "https://a.example", "A", "in the results"),
		webCite(2, "https://z.example/p", "Z", "found elsewhere"),
		webCite(2, "https://z.example/p", "Z", "again"),
		webCite(2, "javascript:alert(1)", "bad", "never a link"))
	groups := s.Sources()
	require.Len(t, groups, 2)
	assert.Equal(t, "mưa", groups[0].Query)
	require.Len(t, groups[0].Sources, 1, "a URL already in the panel is not added again")
	assert.Equal(t, "2 days ago", groups[0].Sources[0].PageAge)
	assert.Equal(t, CitedQuery, groups[1].Query)
	assert.Equal(t, SourcesCited, groups[1].Kind)
	require.Len(t, groups[1].Sources, 1, "once, and never a javascript: URL")
	assert.Equal(t, Source{URL: "https://z.example/p", Title: "Z", Snippet: "found elsewhere", Domain: "z.example",
		Favicon: "https://www.google.com/s2/favicons?domain=z.example&sz=16"}, groups[1].Sources[0])

	// A history whose workspace does not list a cited page: it joins the
	// panel under the query of the search that found it.
	h, err := wire.DecodeHistory([]byte(`{"agent_status":"idle","workspace":{"sources":[{"query":"khác","sources":[{"url":"https://o.example"}]}]},
		"messages":[{"role":"assistant","content":[
			{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"mưa"}},
			{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"web_search_result","url":"https://a.example","title":"A"}]},
			{"type":"text","text":"Mưa.","citations":[{"type":"web_search_result_location","url":"https://a.example","title":"A","cited_text":"a"}]}]}]}`))
	require.NoError(t, err)
	s = New(DefaultOptions())
	s.LoadHistory(h)
	groups = s.Sources()
	require.Len(t, groups, 2)
	assert.Equal(t, "khác", groups[0].Query)
	assert.Equal(t, "mưa", groups[1].Query)
	assert.Equal(t, "https://a.example", groups[1].Sources[0].URL)
}

func TestSourcesRevMovesWhenAGroupGrows(t *testing.T) {
	s := apply(t, msgStart, textStart(0, true), webCite(0, "https://a.example", "A", "a"))
	rev := s.SourcesRev()
	ch := s.ApplyJSON([]byte(webCite(0, "https://b.example", "B", "b")))
	assert.True(t, ch.Sources)
	assert.Greater(t, s.SourcesRev(), rev)
	require.Len(t, s.Sources(), 1)
	assert.Len(t, s.Sources()[0].Sources, 2)
	ch = s.ApplyJSON([]byte(webCite(0, "https://b.example", "B", "b")))
	assert.False(t, ch.Sources, "nothing new")
}

func TestFetchedPagesOnce(t *testing.T) {
	fetch := func(i int, id, url string) []string {
		return []string{
			`{"type":"content_block_start","index":` + strconv.Itoa(i) + `,"content_block":{"type":"server_tool_use","id":"` + id + `","name":"web_fetch","input":{"url":"` + url + `"}}}`,
			stop(i),
			`{"type":"content_block_start","index":` + strconv.Itoa(i+1) + `,"content_block":{"type":"web_fetch_tool_result","tool_use_id":"` + id + `","content":{"type":"web_fetch_result","url":"` + url + `","content":{"type":"document","title":"Page","source":{"type":"text","media_type":"text/plain","data":"THE WHOLE BODY"}}}}}`,
			stop(i + 1),
		}
	}
	lines := []string{msgStart}
	lines = append(lines, fetch(0, "f1", "https://a.example/x")...)
	lines = append(lines, fetch(2, "f2", "https://a.example/x")...)
	lines = append(lines, fetch(4, "f3", "https://b.example/y")...)
	s := apply(t, lines...)
	require.Len(t, s.Sources(), 1)
	g := s.Sources()[0]
	assert.Equal(t, FetchedQuery, g.Query)
	assert.Equal(t, SourcesFetched, g.Kind)
	assert.Len(t, g.Sources, 2)
	f := s.Tool("f1").Tool
	assert.Equal(t, ToolDone, f.Status)
	assert.Equal(t, "Page\nhttps://a.example/x", *f.Result)
	assert.NotContains(t, *f.Result, "BODY", "never the document's body")
}

func TestServerToolResultsAndErrors(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"w","name":"web_search","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"q\"}"}}`,
		// The result before the tool's stop: its input is read by then.
		`{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"w","content":{"type":"web_search_tool_result_error","error_code":"too_many_requests"}}}`,
		stop(1), stop(0),
		`{"type":"content_block_start","index":2,"content_block":{"type":"code_execution_tool_result","tool_use_id":"c","content":{"type":"code_execution_result","stdout":"","stderr":"Traceback: boom","return_code":1}}}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"code_execution_tool_result","tool_use_id":"e","content":{"type":"code_execution_result","stdout":"","stderr":"","return_code":0}}}`,
		`{"type":"content_block_start","index":4,"content_block":{"type":"mcp_tool_result","tool_use_id":"m","content":{"is_error":true,"text":"denied"}}}`,
		`{"type":"content_block_start","index":5,"content_block":{"type":"code_execution_tool_result","tool_use_id":"u","content":{"type":"code_execution_tool_result_error","error_code":"teapot"}}}`,
	)
	w := s.Tool("w").Tool
	assert.Equal(t, ToolError, w.Status)
	assert.Equal(t, "too_many_requests", w.ErrorCode)
	assert.Equal(t, "The tool was rate-limited: too many requests.", *w.Result)
	assert.JSONEq(t, `{"query":"q"}`, string(w.Input))
	assert.Nil(t, w.Artifact, "an error is no search block")

	c := s.Tool("c").Tool
	assert.Equal(t, ToolDone, c.Status, "a failing program is a tool that ran")
	assert.Equal(t, "Traceback: boom", *c.Result)
	assert.Equal(t, "Code execution", c.Label)
	assert.Contains(t, *s.Tool("e").Tool.Result, `"return_code": 0`, "nothing printed: the result as JSON")

	m := s.Tool("m").Tool
	assert.Equal(t, ToolError, m.Status, "is_error in the content")
	assert.Equal(t, "denied", *m.Result)
	assert.Equal(t, "Mcp tool", m.Label)

	u := s.Tool("u").Tool
	assert.Equal(t, "The tool failed (teapot).", *u.Result)
	assert.Equal(t, "teapot", u.ErrorCode)
}

func TestCutToolJSONKeptForDisplay(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"write_file","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a.md\", \"body\": \"# Ti"}}`,
		`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, msgStop)
	tl := s.Tool("t").Tool
	assert.Equal(t, `{}`, string(tl.Input))
	assert.Equal(t, `{"path": "a.md", "body": "# Ti`, tl.PartialInput)
	assert.Equal(t, ToolInterrupted, tl.Status)
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, KindNotice, last.Kind)
	assert.Equal(t, NoticeMaxTokens, last.Notice.Reason)
	assert.Zero(t, s.SkippedCount(), "the deltas were valid events")
}

func TestStopNotices(t *testing.T) {
	// stop_details is read in the delta, as Anthropic sends it, and beside it.
	s := apply(t, msgStart,
		`{"type":"message_delta","delta":{"stop_reason":"refusal"},"stop_details":{"type":"refusal","explanation":"Không thể giúp việc này."}}`,
		`{"type":"message_delta","delta":{"stop_reason":"refusal"}}`, msgStop)
	require.Len(t, s.Items(), 1, "one notice per message")
	n := s.Items()[0]
	assert.Equal(t, NoticeRefusal, n.Notice.Reason)
	assert.Equal(t, "Không thể giúp việc này.", n.Notice.Detail)
	assert.True(t, n.Brand)
	assert.Equal(t, StatusIdle, s.Status())

	for _, reason := range []string{"end_turn", "stop_sequence", "tool_use", "pause_turn", "something_new"} {
		s := apply(t, msgStart, `{"type":"message_delta","delta":{"stop_reason":"`+reason+`"}}`, msgStop)
		assert.Empty(t, s.Items(), reason)
	}

	// A notice closes the open group and stands alone.
	s = apply(t, msgStart, groupStart, toolUse(1, "a", "x", "A"), `{"type":"message_delta","delta":{"stop_reason":"model_context_window_exceeded"}}`)
	require.Len(t, s.Items(), 2)
	assert.False(t, s.Items()[0].Group.Open)
	assert.Equal(t, NoticeContextWindow, s.Items()[1].Notice.Reason)

	// History keeps why a message stopped.
	h, err := wire.DecodeHistory([]byte(`{"agent_status":"idle","messages":[{"role":"user","content":"x"},
		{"role":"assistant","content":[{"type":"text","text":""}],"stop_reason":"refusal","stop_details":{"type":"refusal","explanation":null}}]}`))
	require.NoError(t, err)
	s = New(DefaultOptions())
	s.LoadHistory(h)
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, KindNotice, last.Kind)
	assert.Equal(t, "", last.Notice.Detail)
}

func TestProviderErrorEndsTheTurn(t *testing.T) {
	s := apply(t, msgStart, groupStart, toolUse(1, "a", "x", "A"), textStart(2, false), textDelta(2, "Hi"),
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	assert.Equal(t, StatusError, s.Status())
	assert.Equal(t, ToolInterrupted, s.Tool("a").Tool.Status)
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, KindError, last.Kind)
	assert.Equal(t, "Overloaded", last.Text)
	assert.Equal(t, Skipped, s.ApplyJSON([]byte(textDelta(2, " there"))).Outcome, "its blocks ended with it")

	applyTo(s, msgStart)
	assert.Equal(t, StatusRunning, s.Status(), "a later message_start runs again")

	for _, e := range []string{`{"type":"busy","message":"m"}`, `{"message":"m"}`, `"m"`, `{"type":"error_budget","message":"m"}`} {
		s := apply(t, msgStart, `{"type":"error","error":`+e+`}`)
		assert.Equal(t, StatusRunning, s.Status(), "%s is not Anthropic's", e)
	}
}

func TestTurnUsage(t *testing.T) {
	s := apply(t, usageStart(100, 1), textStart(0, false), textDelta(0, "Tìm"), stop(0),
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":30,"server_tool_use":{"web_search_requests":2}}}`,
		msgStop)
	assert.Nil(t, s.Items()[0].Usage, "not while the turn runs")
	u, ok := s.Usage()
	require.True(t, ok)
	assert.Equal(t, Usage{InputTokens: 100, OutputTokens: 30, WebSearchRequests: 2}, u)

	applyTo(s, usageStart(150, 1), textStart(0, false), textDelta(0, "Xong"), stop(0),
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":160,"output_tokens":12,"cache_read_input_tokens":90}}`,
		msgStop)
	items := s.Items()
	require.Len(t, items, 2)
	assert.Nil(t, items[0].Usage)
	require.NotNil(t, items[1].Usage, "the last item of the turn")
	assert.Equal(t, Usage{InputTokens: 260, OutputTokens: 42, CacheReadInputTokens: 90, WebSearchRequests: 2}, *items[1].Usage)

	applyTo(s, `{"type":"user_message","content":"nữa"}`, msgStart, textStart(0, false), textDelta(0, "Không có số"), stop(0), endTurn, msgStop)
	assert.Nil(t, s.Items()[3].Usage, "a turn that reported nothing shows nothing")
	u, _ = s.Usage()
	assert.Equal(t, Usage{InputTokens: 260, OutputTokens: 42, CacheReadInputTokens: 90, WebSearchRequests: 2}, u)

	applyTo(s, `{"type":"user_message","content":"lỗi"}`, usageStart(5, 1),
		`{"type":"error","error":{"type":"api_error","message":"Internal"}}`)
	last := s.Items()[len(s.Items())-1]
	require.NotNil(t, last.Usage, "an error ends the turn too")
	assert.Equal(t, Usage{InputTokens: 5, OutputTokens: 1}, *last.Usage)

	applyTo(s, `{"type":"user_message","content":"tiếp"}`, usageStart(7, 1), textStart(0, false), stop(0), endTurn, msgStop)
	last = s.Items()[len(s.Items())-1]
	require.NotNil(t, last.Usage)
	assert.Equal(t, Usage{InputTokens: 7, OutputTokens: 1}, *last.Usage, "a turn counts its own messages only")
	u, _ = s.Usage()
	assert.Equal(t, Usage{InputTokens: 272, OutputTokens: 44, CacheReadInputTokens: 90, WebSearchRequests: 2}, u)

	_, ok = New(DefaultOptions()).Usage()
	assert.False(t, ok)
}

func TestRedactedThinkingNeverShowsItsData(t *testing.T) {
	s := apply(t, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"SECRET"}}`, stop(0))
	it := s.Items()[0]
	assert.Equal(t, KindThinking, it.Kind)
	assert.True(t, it.Redacted)
	assert.Empty(t, it.Text)
	b, _ := json.Marshal(s.View())
	assert.NotContains(t, string(b), "SECRET")
	assert.Contains(t, string(b), `"redacted":true`)
}

func TestMCPToolUseIsATool(t *testing.T) {
	s := apply(t, msgStart, groupStart,
		`{"type":"content_block_start","index":1,"content_block":{"type":"mcp_tool_use","id":"m1","name":"list_issues","server_name":"github","input":{"repo":"x/y"}}}`, stop(1),
		`{"type":"content_block_start","index":2,"content_block":{"type":"mcp_tool_result","tool_use_id":"m1","is_error":false,"content":[{"type":"text","text":"#1 bug"},{"type":"text","text":"#2 idea"}]}}`, stop(2))
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 1, "inside the open group, as tool_use")
	m := g.Steps[0].Tool
	assert.Equal(t, "List issues", m.Label)
	assert.Equal(t, "List issues", g.Title())
	assert.Equal(t, ToolDone, m.Status)
	assert.Equal(t, "#1 bug\n#2 idea", *m.Result)
}
