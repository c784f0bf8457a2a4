package components

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components/htmltest"
	"stepwise/state"
)

// A conversation with ids: m1 asked with a picture and a CSV file, m2
// answered, then m4 answered m1 again (a regenerate), so m4 is version 2
// of 2, and rated up.
func branchedStore(t *testing.T) *state.Store {
	return storeOf(t,
		`{"type":"user_message","message_id":"m1","parent_id":null,"created_at":"2026-03-02T09:14:05Z","content":[{"type":"text","text":"What is in these?"},`+
			`{"type":"image","source":{"type":"file","file_id":"f1"},"file":{"name":"chart.png","media_type":"image/png","size":48213,"width":640,"height":480,"url":"https://agent.example/files/f1"}},`+
			`{"type":"document","title":"notes.csv","source":{"type":"file","file_id":"f2"},"file":{"name":"notes.csv","media_type":"text/csv","size":912,"url":"https://agent.example/files/f2"}}]}`,
		`{"type":"answer_start","message_id":"m2","parent_id":"m1","created_at":"2026-03-02T09:14:06Z"}`,
		start, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"A chart."}}`, `{"type":"message_stop"}`,
		`{"type":"answer_start","message_id":"m4","parent_id":"m1","created_at":"2026-03-02T09:15:00Z"}`,
		start, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"A chart and a table."}}`, `{"type":"message_stop"}`,
		`{"type":"feedback","message_id":"m4","rating":"up"}`,
	)
}

func allOffers() Settings {
	s := in("en")
	s.Offers = Offers{Edit: true, Regenerate: true, Branches: true, Feedback: true, Export: true, Jump: true}
	return s
}

func TestSentMessageShowsItsFiles(t *testing.T) {
	s := branchedStore(t)
	u := s.Items()[0]
	require.Equal(t, state.KindUser, u.Kind)
	html := itemHTML(t, in("en"), u)
	assert.Contains(t, html, `data-testid="picture"`)
	assert.Contains(t, html, `aria-label="Open full size: chart.png"`)
	assert.Contains(t, html, `src="https://agent.example/files/f1"`)
	assert.Contains(t, html, `alt="chart.png"`)
	assert.Contains(t, html, `data-testid="attachment"`)
	assert.Contains(t, html, `href="https://agent.example/files/f2"`)
	assert.Contains(t, html, `title="Download notes.csv"`)
	assert.Contains(t, html, `CSV · 912 B`)
	assert.Contains(t, html, `aria-label="Copy message"`, "a user message can be copied")
	assert.NotContains(t, html, `data-testid="edit"`, "no edit the controller does not handle")
	assert.Regexp(t, `<dialog [^>]*class="lightbox"`, html, "the full size in a dialog")
	assert.NotRegexp(t, `<dialog [^>]*\bopen\b`, html, "opened on demand")
	assert.Regexp(t, `<img [^>]*loading="lazy"[^>]*class="lightbox-img"|<img [^>]*class="lightbox-img"[^>]*loading="lazy"`, html, "loaded when opened")
}

func TestMessageActionsWhenOffered(t *testing.T) {
	s := branchedStore(t)
	set := allOffers()
	user := itemHTML(t, set, s.Items()[0])
	assert.Contains(t, user, `data-testid="edit"`)
	assert.Contains(t, user, `aria-label="Edit message"`)
	assert.Contains(t, user, `datetime="2026-03-02T09:14:05Z"`)

	items := s.Items()
	answer := items[len(items)-1]
	require.NotNil(t, answer.Message)
	html := itemHTML(t, set, answer)
	assert.Contains(t, html, `data-testid="regenerate"`)
	assert.Contains(t, html, `aria-label="Regenerate answer"`)
	assert.Contains(t, html, `data-testid="branch"`)
	assert.Contains(t, html, `aria-label="Version 2 of 2"`)
	assert.Contains(t, html, `2 / 2`)
	assert.NotContains(t, startTag(html, "branch-previous"), "disabled", "version 1 is there to go back to")
	assert.Contains(t, startTag(html, "branch-next"), "disabled", "there is no version 3")
	assert.Contains(t, html, `data-rating="up"`)
	assert.Regexp(t, `aria-pressed( |>|="true"|$)`, startTag(html, "feedback-up"))
	assert.Contains(t, html, `aria-label="Copy answer"`, "copy stays beside them")
}

// While a run is going, the actions stay focusable but say why they wait.
func TestMessageActionsWaitForTheRun(t *testing.T) {
	s := branchedStore(t)
	html := render(t, &ItemView{Item: s.Items()[0], Rev: s.Items()[0].Rev, Settings: allOffers(), Busy: true})
	edit := startTag(html, "edit")
	assert.Contains(t, edit, `aria-disabled`)
	assert.Contains(t, edit, `title="Wait until the agent has finished"`)
}

// An answer that ended in an error can be regenerated: the error carries
// the answer's actions.
func TestErrorAnswerCanBeRegenerated(t *testing.T) {
	s := storeOf(t,
		`{"type":"user_message","message_id":"m1","content":"/error"}`,
		`{"type":"answer_start","message_id":"m2","parent_id":"m1"}`,
		start, `{"type":"content_block_start","index":0,"content_block":{"type":"terminal_error","error":"The agent failed."}}`,
	)
	items := s.Items()
	last := items[len(items)-1]
	require.NotNil(t, last.Message, "the error is the answer's last item")
	html := itemHTML(t, allOffers(), last)
	assert.Contains(t, html, `data-kind="error"`)
	assert.Contains(t, html, `data-testid="regenerate"`)
}

// Conversations without ids get none of it (and copy a user message still).
func TestNoIDsNoMessageActions(t *testing.T) {
	s := storeOf(t, `{"type":"user_message","content":"hi"}`, start,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hello."}}`, `{"type":"message_stop"}`)
	for _, it := range s.Items() {
		html := itemHTML(t, allOffers(), it)
		for _, hook := range []string{"edit", "regenerate", "branch", "feedback"} {
			assert.NotContains(t, html, `data-testid="`+hook+`"`)
		}
	}
}

func TestPicturesTheAgentSends(t *testing.T) {
	s := storeOf(t, start,
		tool("1", "c", "Draw"),
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"c","status":"success","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"image","source":{"type":"base64","media_type":"image/svg+xml","data":"PHN2Zz4="}}}`,
	)
	group := itemHTML(t, in("en"), s.Items()[0])
	assert.Contains(t, group, `data-kind="tool"`)
	assert.Contains(t, group, `src="data:image/png;base64,iVBORw0KGgo="`, "a tool's picture shows without opening the step")
	assert.Contains(t, group, `aria-label="Open full size: Image 1 returned by Draw"`)
	svg := itemHTML(t, in("en"), s.Items()[1])
	assert.Contains(t, svg, `data-testid="picture-missing"`, "an SVG is never shown")
	assert.NotContains(t, svg, "<img")
}

func TestComposerChips(t *testing.T) {
	html := render(t, &Composer{Settings: in("en"), Attach: Attach{On: true, Accept: "image/png,.png", Files: []DraftFile{
		{ID: "1", Name: "chart.png", MediaType: "image/png", Size: 48213, Thumb: "blob:x", Progress: 0.42},
		{ID: "2", Name: "notes.csv", Size: 912, Done: true},
		{ID: "3", Name: "big.pdf", Size: 30 << 20, Error: "big.pdf is larger than 20.0 MB"},
	}}})
	assert.Contains(t, html, `data-testid="attach"`)
	assert.Contains(t, html, `aria-label="Attach files"`)
	assert.Contains(t, html, `accept="image/png,.png"`)
	assert.Contains(t, html, `multiple`)
	assert.Equal(t, 3, strings.Count(html, `data-testid="draft-file"`))
	assert.Contains(t, html, `role="progressbar"`)
	assert.Contains(t, html, `aria-valuenow="42"`)
	assert.Contains(t, html, `src="blob:x"`)
	assert.Contains(t, html, `47.0 KB`)
	assert.Contains(t, html, `30.0 MB`)
	assert.Contains(t, html, `data-state="done"`)
	assert.Contains(t, html, `data-testid="draft-file-error"`)
	assert.Contains(t, html, `aria-label="Remove notes.csv"`)

	off := render(t, &Composer{Settings: in("en")})
	assert.NotContains(t, off, `data-testid="attach"`, "no attach button where files are not taken")
}

// In the prerendered page nothing but the send button (boot.js's) can be
// used: the file picker waits for the app too (its button disabled, its
// input not there yet).
func TestComposerAttachWaitsForTheApp(t *testing.T) {
	for _, starting := range []bool{true, false} {
		doc := htmltest.Parse(t, render(t, &Composer{Settings: in("en"), Starting: starting, Attach: Attach{On: true}}))
		button := doc.First(htmltest.TestID("attach"))
		require.NotNil(t, button)
		assert.Equal(t, starting, button.Disabled(), "the attach button disabled while starting, enabled once the app runs")
		input := doc.First(htmltest.TestID("attach-input"))
		assert.Equal(t, starting, input == nil, "the picker's input only once the app runs")
		if input != nil {
			assert.False(t, input.Disabled())
		}
	}
}

func TestFileSizesInEachLanguage(t *testing.T) {
	assert.Equal(t, "912 B", fileSize(912, in("en")))
	assert.Equal(t, "1.5 KB", fileSize(1536, in("en")))
	assert.Equal(t, "1,5 Ko", fileSize(1536, in("fr")))
	assert.Equal(t, "20,0 MB", fileSize(20<<20, in("vi")))
}

func TestUploadRefusals(t *testing.T) {
	en := in("en")
	assert.Equal(t, "big.pdf is larger than 20.0 MB, the most a file may be.", UploadRefusal(en, "big.pdf", state.UploadTooLarge, 20<<20, ""))
	assert.Equal(t, "A message takes 10 files at most.", UploadRefusal(en, "x", state.UploadTooMany, 10, ""))
	assert.Equal(t, "a.png is not what its name says.", UploadRefusal(en, "a.png", "type_mismatch", 0, "The file is not what its name or type says."))
	assert.Equal(t, "a.png: Disk on fire.", UploadRefusal(en, "a.png", "weird", 0, "Disk on fire."))
	assert.Equal(t, "a.png could not be uploaded.", UploadRefusal(en, "a.png", "", 0, ""))
}

func TestSidebarSearch(t *testing.T) {
	list := ConversationList{}
	for _, title := range []string{"Giá FPT", "Compare offers", "Trip to Hue", "fpt dividends", "Weekly plan", "Notes"} {
		list.Entries = append(list.Entries, ConversationEntry{ID: title, Title: title, Href: "/?session=x"})
	}
	html := render(t, &Sidebar{Settings: in("en"), List: list})
	assert.Contains(t, html, `data-testid="conversations-search"`)
	assert.Contains(t, html, `type="search"`)
	assert.Equal(t, 6, strings.Count(html, `data-testid="conversation-link"`))

	html = render(t, &Sidebar{Settings: in("en"), List: list, query: "FPT"})
	assert.Equal(t, 2, strings.Count(html, `data-testid="conversation-link"`), "by title, whatever the case")
	html = render(t, &Sidebar{Settings: in("en"), List: list, query: "zzz"})
	assert.Contains(t, html, `No conversation matches “zzz”.`)

	short := render(t, &Sidebar{Settings: in("en"), List: ConversationList{Entries: list.Entries[:2]}})
	assert.NotContains(t, short, `conversations-search`, "a short list needs no search")
}

func TestExportMenu(t *testing.T) {
	html := render(t, &Topbar{Settings: in("fr"), Export: true})
	assert.Contains(t, html, `aria-label="Exporter la conversation"`)
	assert.NotContains(t, html, "export-markdown", "closed until asked")
	exportOpen = true
	defer func() { exportOpen = false }()
	html = render(t, &Topbar{Settings: in("en"), Export: true})
	assert.Contains(t, html, `data-testid="export-markdown"`)
	assert.Contains(t, html, `data-testid="export-json"`)
	assert.True(t, expandedTrue(html))
}

// startTag is the start tag of the element with that data-testid.
func startTag(html, testid string) string {
	i := strings.Index(html, `data-testid="`+testid+`"`)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(html[:i], "<")
	return html[start : i+strings.Index(html[i:], ">")+1]
}

// A group that ends an answer keeps its view as its turn ends (wrapping it
// would make it a new view and close what the reader opened).
func TestGroupEndingAnAnswerIsNotWrapped(t *testing.T) {
	s := storeOf(t,
		`{"type":"user_message","message_id":"m1","content":"go"}`,
		`{"type":"answer_start","message_id":"m2","parent_id":"m1","created_at":"2026-03-02T09:14:06Z"}`,
		start, gs, tool("1", "a", "A"), `{"type":"group_end","index":0,"summary":"Done"}`, `{"type":"message_stop"}`,
	)
	items := s.Items()
	last := items[len(items)-1]
	require.Equal(t, state.KindGroup, last.Kind)
	require.NotNil(t, last.Message)
	assert.NotContains(t, itemHTML(t, allOffers(), last), "answer-end")
}

// An AG-UI run that failed before any message of its answer: its error
// offers regenerate, and no thumbs (there is no message to rate).
func TestErrorWithoutAnswerOffersRegenerateOnly(t *testing.T) {
	it := &state.Item{Kind: state.KindError, Text: "The model is overloaded.",
		Message: &state.MessageRef{Role: "assistant", ParentID: "u1", Index: 1, Count: 1}}
	html := itemHTML(t, allOffers(), it)
	assert.Contains(t, html, `data-testid="regenerate"`)
	assert.NotContains(t, html, `data-testid="feedback"`)
}

// An edit the backend refused: the message's editor is open again with
// the text that was sent and why, so that nothing typed is lost.
func TestRefusedEditOpensTheEditorAgain(t *testing.T) {
	s := branchedStore(t)
	u := s.Items()[0]
	forms := Forms{EditFormKey("m1"): {Error: "That message is no longer in the conversation.", Restore: "What is in this chart?", Reopen: 1}}
	html := render(t, &ItemView{Item: u, Rev: u.Rev, Settings: allOffers(), Forms: forms.of(u)})
	assert.Contains(t, html, `data-testid="edit-form"`)
	assert.Contains(t, html, `value="What is in this chart?"`)
	assert.Contains(t, startTag(html, "edit-error"), `role="alert"`)
	assert.Contains(t, startTag(html, "edit-input"), `aria-describedby="edit-error-`)
	assert.Contains(t, html, "That message is no longer in the conversation.")

	// Typed before a reload: the editor is open with it, no reason given.
	forms = Forms{EditFormKey("m1"): {Restore: "What is in th", Reopen: 2}}
	html = render(t, &ItemView{Item: u, Rev: u.Rev, Settings: allOffers(), Forms: forms.of(u)})
	assert.Contains(t, html, `value="What is in th"`)
	assert.NotContains(t, html, `data-testid="edit-error"`)
	assert.NotContains(t, startTag(html, "edit-input"), "aria-describedby")

	// Another message's refusal is not this one's.
	assert.Nil(t, Forms{EditFormKey("m9"): {Error: "no"}}.of(u))
	html = render(t, &ItemView{Item: u, Rev: u.Rev, Settings: allOffers()})
	assert.NotContains(t, html, `data-testid="edit-form"`)
	assert.False(t, IsEditFormKey("m1"), "an approval key is not an editor's")
}
