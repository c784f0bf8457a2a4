package state

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"stepwise/state/wire"
)

// Anthropic-native blocks that are not text (BACKENDS.md section 1): the
// results of server tools, stop reasons that deserve a notice, and the
// provider's own errors.

// The reasons of the notices of BACKENDS.md section 1; the UI shows a
// sentence of its own for each.
const (
	NoticeRefusal       = "refusal"        // stop_reason refusal: the model declined
	NoticeMaxTokens     = "max_tokens"     // the answer was cut at the length limit
	NoticeContextWindow = "context_window" // model_context_window_exceeded
	NoticeCompaction    = "compaction"     // earlier context was summarised
	// NoticeFallback: the model handed over to another, which answers from
	// there on; Detail is that model's name.
	NoticeFallback = "fallback"
	// NoticeContextCleared: context management cleared earlier tool
	// results or reasoning before this message (message_delta's
	// context_management.applied_edits); Detail is the edit's type.
	NoticeContextCleared = "context_cleared"
	// NoticeContainerUpload: a file the model works on was uploaded to its
	// code execution container; Detail is the file's id.
	NoticeContainerUpload = "container_upload"
)

// isServerToolResult reports whether a block type is a server tool's result
// (web_search_tool_result, code_execution_tool_result, mcp_tool_result, ...);
// the native tool_result is not one.
func isServerToolResult(blockType string) bool {
	return blockType != "tool_result" && strings.HasSuffix(blockType, "_tool_result")
}

// serverToolName is the tool name a result implies, for a result whose tool
// was never seen.
func serverToolName(blockType string) string {
	name := strings.TrimSuffix(blockType, "_tool_result")
	if name == "mcp" {
		return "mcp_tool"
	}
	return name
}

// serverToolResult merges a server tool's result into its tool (or, with
// no tool yet, shows it where it arrived, as a tool_result does). It
// reports false when the block names no tool.
func (s *Store) serverToolResult(b *wire.Block) bool {
	if b.ToolUseID == "" {
		return false
	}
	if it := s.tools[b.ToolUseID]; it != nil && it.Tool.partialJSON != nil && json.Valid(it.Tool.partialJSON) {
		// The result came before the block's stop: its input is complete.
		it.Tool.Input = json.RawMessage(bytes.Clone(it.Tool.partialJSON))
	}
	content := readContent(b.Content)
	status, text, code := "success", "", ""
	var artifact json.RawMessage
	var fetchedURL, fetchedTitle string
	switch {
	case content.errorType:
		status, code = "error", content.errorCode
		if code == "" {
			code = UnknownErrorCode
		}
		text = ToolErrorMessage(code)
	case b.IsError || content.isError:
		status, text = "error", resultText(b.Content)
	case content.encrypted:
		text = EncryptedResult
	case b.Type == "web_search_tool_result" && content.list != nil:
		artifact, text = s.searchArtifact(b.ToolUseID, content.list)
	case b.Type == "web_fetch_tool_result" && content.typ == "web_fetch_result":
		// The response is the page's title and URL, never its body.
		var page struct {
			URL     string `json:"url"`
			Content struct {
				Title string `json:"title"`
			} `json:"content"`
		}
		json.Unmarshal(b.Content, &page)
		fetchedURL, fetchedTitle = page.URL, page.Content.Title
		text = strings.TrimPrefix(fetchedTitle+"\n"+fetchedURL, "\n")
	default:
		text = resultText(b.Content)
	}
	it := s.toolResult(b.ToolUseID, serverToolName(b.Type), status, text, artifact, "")
	if it == nil {
		return true
	}
	it.Tool.ErrorCode = code
	it.Tool.Encrypted = content.encrypted && status != "error"
	if status == "success" && !content.encrypted {
		it.Tool.setCodeResult(content.typ, b.Content)
	} else {
		it.Tool.setCodeResult("", nil)
	}
	s.addFetchedPage(fetchedURL, fetchedTitle)
	return true
}

// resultContent is what the store needs to know of a result's content.
type resultContent struct {
	typ       string
	errorType bool // an error object: its type ends in _error
	errorCode string
	isError   bool
	// encrypted: an object only the model can read (advisor_redacted_result,
	// encrypted_code_execution_result: encrypted_content and nothing to show).
	encrypted bool
	list      []json.RawMessage // when the content is a list
}

// EncryptedResult is the result a tool shows when its content is encrypted
// for the model; the UI says it in the reader's language.
const EncryptedResult = "The result is encrypted: only the model can read it."

func readContent(raw json.RawMessage) resultContent {
	var c resultContent
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return c
	}
	switch t[0] {
	case '[':
		if json.Unmarshal(t, &c.list) == nil && c.list == nil {
			c.list = []json.RawMessage{}
		}
	case '{':
		var obj struct {
			Type             json.RawMessage `json:"type"`
			ErrorCode        json.RawMessage `json:"error_code"`
			IsError          bool            `json:"is_error"`
			EncryptedContent json.RawMessage `json:"encrypted_content"`
			EncryptedStdout  json.RawMessage `json:"encrypted_stdout"`
			Text             json.RawMessage `json:"text"`
			Stdout           json.RawMessage `json:"stdout"`
		}
		if json.Unmarshal(t, &obj) == nil {
			c.typ, _ = wire.StringValue(obj.Type)
			c.errorCode, _ = wire.StringValue(obj.ErrorCode)
			c.errorType = strings.HasSuffix(c.typ, "_error")
			c.isError = obj.IsError
			// An advisor's redacted result holds encrypted_content; an
			// encrypted code execution result (code execution run on web
			// search results) encrypted_stdout, its output for the model.
			encrypted := !wire.IsNull(obj.EncryptedContent) || !wire.IsNull(obj.EncryptedStdout)
			c.encrypted = encrypted && wire.IsNull(obj.Text) && wire.IsNull(obj.Stdout)
		}
	}
	return c
}

// resultText is the response a server tool's result shows: a string as is;
// the text, stdout and stderr of an object, or the text of a list's
// entries, when there are any; else the content as indented JSON.
func resultText(raw json.RawMessage) string {
	if wire.IsNull(raw) {
		return ""
	}
	if str, ok := wire.StringValue(raw); ok {
		return str
	}
	t := bytes.TrimSpace(raw)
	var parts []string
	field := func(m map[string]json.RawMessage, k string) {
		if v, ok := wire.StringValue(m[k]); ok && v != "" {
			parts = append(parts, v)
		}
	}
	switch t[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(t, &m) == nil {
			field(m, "text")
			field(m, "stdout")
			field(m, "stderr")
		}
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(t, &list) == nil {
			for _, e := range list {
				var m map[string]json.RawMessage
				if json.Unmarshal(e, &m) == nil {
					field(m, "text")
				}
			}
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, "\n")
	}
	return IndentJSON(t)
}

// searchArtifact turns Anthropic's web search results into the web_search
// artifact of PROTOCOL.md section 7 (query from the tool's input), so the
// tool renders as the inline search block and feeds the sources panel. The
// response text lists each result's title and URL; encrypted_content is
// never kept.
func (s *Store) searchArtifact(toolID string, results []json.RawMessage) (json.RawMessage, string) {
	type source struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		PageAge string `json:"page_age,omitempty"`
	}
	art := struct {
		Query   string   `json:"query"`
		Sources []source `json:"sources"`
	}{Sources: []source{}}
	if it := s.tools[toolID]; it != nil {
		var in struct {
			Query json.RawMessage `json:"query"`
		}
		if json.Unmarshal(it.Tool.Input, &in) == nil {
			art.Query, _ = wire.StringValue(in.Query)
		}
	}
	var text []string
	for _, raw := range results {
		var r struct {
			URL     json.RawMessage `json:"url"`
			Title   json.RawMessage `json:"title"`
			PageAge json.RawMessage `json:"page_age"`
		}
		if json.Unmarshal(raw, &r) != nil {
			continue
		}
		var src source
		src.URL, _ = wire.StringValue(r.URL)
		src.Title, _ = wire.StringValue(r.Title)
		src.PageAge, _ = wire.StringValue(r.PageAge)
		if src.URL == "" {
			continue
		}
		art.Sources = append(art.Sources, src)
		text = append(text, strings.TrimPrefix(src.Title+"\n"+src.URL, "\n"))
	}
	b, _ := json.Marshal(art)
	return b, strings.Join(text, "\n\n")
}

// toolErrorMessages say in English what a server tool's error_code means
// (the view model's text): the one list of the codes Stepwise knows. The
// UI shows its own sentence for each (components' toolErrorKey; the i18n
// tests check every language has one).
var toolErrorMessages = map[string]string{
	"invalid_tool_input":       "The tool was called with invalid input.",
	"unavailable":              "The tool is unavailable right now.",
	"max_uses_exceeded":        "The tool reached its limit of uses for this request.",
	"too_many_requests":        "The tool was rate-limited: too many requests.",
	"query_too_long":           "The search query is too long.",
	"request_too_large":        "The request is too large.",
	"execution_time_exceeded":  "The run took too long and was stopped.",
	"output_file_too_large":    "The output file is too large to return.",
	"file_not_found":           "The file was not found.",
	"url_too_long":             "The URL is too long.",
	"url_not_allowed":          "Fetching this URL is not allowed.",
	"url_not_in_prior_context": "The URL did not appear earlier in the conversation, so it was not fetched.",
	"url_not_accessible":       "The page could not be reached.",
	"unsupported_content_type": "This type of content cannot be fetched.",
	UnknownErrorCode:           "The tool failed.",
}

// UnknownErrorCode is the ErrorCode of an error result that sent none.
const UnknownErrorCode = "unknown"

// ToolErrorCodes lists the error codes with a sentence of their own, for
// the UI's catalogs (UnknownErrorCode among them).
func ToolErrorCodes() []string {
	return slices.Sorted(maps.Keys(toolErrorMessages))
}

// KnownToolError reports whether code is one of ToolErrorCodes.
func KnownToolError(code string) bool {
	_, ok := toolErrorMessages[code]
	return ok
}

// ToolErrorMessage is the English sentence for a server tool's error_code.
func ToolErrorMessage(code string) string {
	if m, ok := toolErrorMessages[code]; ok {
		return m
	}
	return "The tool failed (" + code + ")."
}

// isProviderError reports whether an error event's error is one of
// Anthropic's (overloaded_error, api_error, ...: a type ending in _error),
// which ends the turn.
func isProviderError(raw json.RawMessage) bool {
	var e struct {
		Type json.RawMessage `json:"type"`
	}
	if wire.IsNull(raw) || json.Unmarshal(raw, &e) != nil {
		return false
	}
	typ, _ := wire.StringValue(e.Type)
	return strings.HasSuffix(typ, "_error")
}

// stopNotice adds the notice a message_delta's stop reason deserves, once
// per message.
func (s *Store) stopNotice(reason string, details *wire.StopDetails) {
	var r string
	switch reason {
	case "refusal":
		r = NoticeRefusal
	case "max_tokens":
		r = NoticeMaxTokens
	case "model_context_window_exceeded":
		r = NoticeContextWindow
	default:
		return
	}
	if s.noticed {
		return
	}
	s.noticed = true
	s.dropEmptyText()
	detail, category := "", ""
	if r == NoticeRefusal && details != nil {
		if details.Explanation != nil {
			detail = *details.Explanation
		}
		if details.Category != nil {
			category = *details.Category
		}
	}
	s.addNotice(r, detail)
	if category != "" {
		s.items[len(s.items)-1].Notice.Category = category
	}
}

// addNotice adds a notice: like an error, it closes the open group and
// stands alone.
func (s *Store) addNotice(reason, detail string) {
	it := s.newItem(KindNotice)
	it.Notice = &Notice{Reason: reason, Detail: detail}
	s.standalone(it)
	s.keepShown(it)
}

// loopWentOn applies a message_start to the tools of the message before it.
// An agent loop forwarded as is (the Anthropic SDKs' tool runners) stops a
// message for tool_use, runs the client tools and sends their results in the
// next request, never in the stream: a later message_start of the same turn
// means those tools ran. They are done, with no result to show (it went to
// the model), rather than left running and then interrupted.
func (s *Store) loopWentOn() {
	if s.status == StatusRunning {
		for _, it := range s.loopTools {
			if it.Tool.Status == ToolActive && !it.Tool.hasResult {
				s.setToolStatus(it, ToolDone)
			}
		}
	}
	clear(s.loopTools)
	s.loopTools = s.loopTools[:0]
	clear(s.msgTools)
	s.msgTools = s.msgTools[:0]
}

// startContent applies the blocks a message_start already carries, each
// complete, and the stop reason it already has. Programmatic tool calling
// sends the client tool calls that code execution makes this way: one
// message each, with no content_block events and no message_delta.
func (s *Store) startContent(content json.RawMessage, stopReason string) {
	var raws []json.RawMessage
	if t := bytes.TrimSpace(content); len(t) > 0 && t[0] == '[' {
		_ = json.Unmarshal(t, &raws)
	}
	for _, raw := range raws {
		var b wire.Block
		if json.Unmarshal(raw, &b) != nil || b.Type == "" || !s.startBlock(0, false, &b) {
			continue
		}
		if it := s.tools[b.ID]; b.Type == "tool_use" && it != nil {
			s.msgTools = append(s.msgTools, it)
		}
	}
	if stopReason != "" {
		s.stopReason = stopReason
		s.stopNotice(stopReason, nil)
	}
}

// fallbackNotice is a fallback block's notice: the answer from here on is
// another model's, named in the detail (the "to" model).
func (s *Store) fallbackNotice(b *wire.Block) {
	var to struct {
		Model json.RawMessage `json:"model"`
	}
	_ = json.Unmarshal(b.To, &to)
	model, _ := wire.StringValue(to.Model)
	s.addNotice(NoticeFallback, model)
}

// dropEmptyText removes the turn's last item when it is a text item that
// never got any text (a refusal's empty text block): the notice that
// follows says what there is to say.
func (s *Store) dropEmptyText() {
	n := len(s.items)
	if n == 0 || s.group != nil || (s.turn != nil && n-1 < s.turn.first) {
		return
	}
	it := s.items[n-1]
	if it.Kind != KindText || it.Text != "" || len(it.Citations) > 0 {
		return
	}
	for _, ob := range s.blocks {
		if ob.item == it {
			return // still streaming
		}
	}
	s.items = s.items[:n-1]
	s.changes.Items = slices.DeleteFunc(s.changes.Items, func(c *Item) bool { return c == it })
	s.changes.List = true
	if it.Brand {
		s.brandPending = true
	}
	if s.lastText == it {
		s.lastText = nil
	}
}

// contextEdits shows the context management edits a message_delta reports
// (clearing earlier tool results or reasoning to make room): one quiet
// notice, placed before the message they made room for.
func (s *Store) contextEdits(raw json.RawMessage) {
	if wire.IsNull(raw) {
		return
	}
	var cm struct {
		AppliedEdits []struct {
			Type string `json:"type"`
		} `json:"applied_edits"`
	}
	if json.Unmarshal(raw, &cm) != nil || len(cm.AppliedEdits) == 0 {
		return
	}
	types := make([]string, 0, len(cm.AppliedEdits))
	for _, e := range cm.AppliedEdits {
		types = append(types, e.Type)
	}
	it := s.newItem(KindNotice)
	it.Notice = &Notice{Reason: NoticeContextCleared, Detail: strings.Join(types, ", ")}
	at := s.msgFirst
	if at < 0 || at > len(s.items) || s.group != nil || (s.turn != nil && at < s.turn.first) {
		s.addNotice(NoticeContextCleared, it.Notice.Detail)
		return
	}
	if at < len(s.items) && s.items[at].Brand {
		s.items[at].Brand = false // the header goes above the notice
		s.touch(s.items[at])
		it.Brand = true
	}
	s.items = slices.Insert(s.items, at, it)
	s.changes.List = true
	s.touch(it)
}
