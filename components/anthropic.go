package components

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components/i18n"
	"stepwise/state"
)

// What the Anthropic-native blocks of BACKENDS.md section 1 add to the
// views: notices, redacted reasoning, server tools' errors, the quiet usage
// line at the end of a turn, and the sources panel's own groups.

// noticeKeys say each notice reason in the UI's language.
var noticeKeys = map[string]string{
	state.NoticeReset:           "notice.reset",
	state.NoticeRefusal:         "notice.refusal",
	state.NoticeMaxTokens:       "notice.max_tokens",
	state.NoticeContextWindow:   "notice.context_window",
	state.NoticeCompaction:      "notice.compaction",
	state.NoticeFallback:        "notice.fallback",
	state.NoticeContextCleared:  "notice.context_cleared",
	state.NoticeContainerUpload: "notice.container_upload",
	// The AG-UI and AI SDK modes (BACKENDS.md sections 2 and 3).
	state.NoticeUnsupportedInterrupt: "notice.unsupported_interrupt",
	state.NoticeStreamEnded:          "notice.stream_ended",
	state.NoticeBackendError:         "notice.backend_error",
	state.NoticeNotAStream:           "notice.not_a_stream",
	state.NoticeTimedOut:             "notice.timed_out",
}

// noticeView is a notice item: a short line that says why the answer
// ended or what the provider did, with the provider's explanation under it.
func noticeView(it *state.Item, tr translator) app.UI {
	n := it.Notice
	text := n.Detail
	var details []string
	if key, ok := noticeKeys[n.Reason]; ok {
		text = tr.T(key)
		switch {
		case n.Reason == state.NoticeContextCleared:
			// The detail names the edits (clear_tool_uses_…): said in words.
			text = tr.T(contextClearedKey(n.Detail))
		case n.Detail != "":
			details = append(details, n.Detail)
		}
	}
	if key, ok := refusalCategoryKeys[n.Category]; ok && n.Reason == state.NoticeRefusal {
		// In the reader's language, before the provider's explanation.
		details = append([]string{tr.T(key)}, details...)
	}
	// The icon is a letter in a circle drawn by CSS: symbol glyphs are
	// missing from many fonts.
	icon := "i"
	if n.Reason == state.NoticeRefusal || n.Reason == state.NoticeMaxTokens || n.Reason == state.NoticeContextWindow {
		icon = "!"
	}
	return app.Div().Class("item notice-item").DataSet("kind", "notice").DataSet("reason", n.Reason).
		Attr("role", "status").Body(
		app.Span().Class("notice-icon").Aria("hidden", true).Text(icon),
		app.Div().Class("notice-text").Body(
			app.Span().Text(text),
			app.Range(details).Slice(func(i int) app.UI { return app.Span().Class("notice-detail").Text(details[i]) }),
		),
	)
}

// refusalCategoryKeys word a refusal's policy category for the reader.
var refusalCategoryKeys = map[string]string{
	"cyber":                "notice.refusal.cyber",
	"bio":                  "notice.refusal.bio",
	"frontier_llm":         "notice.refusal.frontier_llm",
	"reasoning_extraction": "notice.refusal.reasoning_extraction",
	"general_harms":        "notice.refusal.general_harms",
}

// contextClearedKey says what context management cleared: tool results,
// reasoning, or earlier context in general.
func contextClearedKey(edits string) string {
	tools, thinking := strings.Contains(edits, "clear_tool_uses"), strings.Contains(edits, "clear_thinking")
	switch {
	case tools && !thinking:
		return "notice.context_cleared.tools"
	case thinking && !tools:
		return "notice.context_cleared.thinking"
	}
	return "notice.context_cleared"
}

// redactedThinkingView is reasoning the provider encrypted: it says so and
// has nothing to open.
func redactedThinkingView(tr translator) app.UI {
	return app.Div().Class("item thinking redacted").DataSet("kind", "thinking").DataSet("redacted", "true").Body(
		app.Span().Class("redacted-icon").Aria("hidden", true).Text("🔒"),
		app.Span().Class("thinking-title").Text(tr.T("thinking.redacted")),
	)
}

// serverToolKeys name Anthropic's server tools in the UI's language, when
// the backend gave no label of its own.
var serverToolKeys = map[string]string{
	"web_search":                 "tool.name.web_search",
	"web_fetch":                  "tool.name.web_fetch",
	"code_execution":             "tool.name.code_execution",
	"bash_code_execution":        "tool.name.bash_code_execution",
	"text_editor_code_execution": "tool.name.text_editor_code_execution",
	"tool_search_tool_regex":     "tool.name.tool_search",
	"tool_search_tool_bm25":      "tool.name.tool_search",
}

// toolLabel is the label a tool row shows.
func toolLabel(t *state.Tool, tr translator) string {
	if key, ok := serverToolKeys[t.Name]; ok && t.Label == state.ReadableName(t.Name) {
		return tr.T(key)
	}
	if t.Label == "" && t.Name == "" {
		// A result for a call this page never saw (an AG-UI
		// TOOL_CALL_RESULT for an unknown call).
		return tr.T("tool.unnamed")
	}
	if t.Label == "" {
		return t.Name
	}
	return t.Label
}

// toolErrorKey is the catalog key of a server tool's error_code: those
// of state.ToolErrorCodes have a sentence of their own in every language
// (the i18n tests check it); "" for another code.
func toolErrorKey(code string) string {
	switch {
	case code == state.UnknownErrorCode:
		return "tool.error.failed"
	case state.KnownToolError(code):
		return "tool.error." + code
	}
	return ""
}

// toolResponse is a tool's response as the UI shows it: a server tool's
// error code in words, else the result text.
func toolResponse(t *state.Tool, tr translator) string {
	if t.Denied { // AI SDK tool-output-denied
		return tr.T("tool.denied")
	}
	if t.Encrypted { // for the model only: never the encrypted content
		return tr.T("tool.encrypted")
	}
	if t.ErrorCode == "" {
		return *t.Result
	}
	if key := toolErrorKey(t.ErrorCode); key != "" {
		return tr.T(key)
	}
	return tr.T("tool.error.code", t.ErrorCode)
}

// toolRequest is a tool's request as indented JSON, or the JSON the model
// was writing when it was cut off, marked as such.
func toolRequest(t *state.Tool, tr translator) app.UI {
	if t.PartialInput == "" {
		return app.Pre().Class("tool-request").Text(state.IndentJSON(t.Input))
	}
	return app.Div().Class("tool-request-cut").Body(
		app.Pre().Class("tool-request partial").Text(t.PartialInput+"…"),
		app.Div().Class("tool-note").Text(tr.T("tool.input_cut")),
	)
}

// sourceGroupTitle names a group of the sources panel: a search by its
// query, the store's own groups in the UI's language.
func sourceGroupTitle(g state.SourceGroup, tr translator) string {
	switch g.Kind {
	case state.SourcesFetched:
		return "📄 " + tr.T("sources.fetched")
	case state.SourcesCited:
		return "🔗 " + tr.T("sources.cited")
	}
	if strings.TrimSpace(g.Query) == "" {
		return tr.T("search.title")
	}
	return "🔍 " + g.Query
}

// sourceMeta is the line under a source's title: its domain, and how old
// the page is when the search said.
func sourceMeta(s state.Source, set Settings) string {
	if s.PageAge == "" {
		return s.Domain
	}
	age := pageAge(s.PageAge, set)
	if s.Domain == "" {
		return age
	}
	return s.Domain + " · " + age
}

// usageLine is the quiet line at the end of a turn: "1,234 in · 510 out ·
// 1 web search", in the UI's language. Screen readers hear what it counts.
func usageLine(u *state.Usage, l i18n.Locale) app.UI {
	parts := []string{l.T("usage.in", l.Int(u.InputTokens))}
	if u.CacheReadInputTokens > 0 {
		parts = append(parts, l.T("usage.cached", l.Int(u.CacheReadInputTokens)))
	}
	parts = append(parts, l.T("usage.out", l.Int(u.OutputTokens)))
	if u.ReasoningTokens > 0 { // among the output: AG-UI runs report it
		parts = append(parts, l.T("usage.reasoning", l.Int(u.ReasoningTokens)))
	}
	if u.WebSearchRequests > 0 {
		parts = append(parts, l.N("usage.web_searches", int(u.WebSearchRequests)))
	}
	if len(u.Models) > 0 { // as the backend names them
		parts = append(parts, strings.Join(u.Models, ", "))
	}
	body := []app.UI{app.Span().Class("sr-only").Text(l.T("usage.label") + " ")}
	for i, p := range parts {
		if i > 0 {
			body = append(body, app.Text(" · "))
		}
		body = append(body, app.Span().Class("usage-part").Text(p)) // wraps between parts only
	}
	return app.Div().Class("usage").DataSet("testid", "usage").Body(body...)
}
