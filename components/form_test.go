package components

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components/htmltest"
	"stepwise/state"
)

func TestInterruptForm(t *testing.T) {
	set := in("en")
	s := state.New(state.Options{Kept: state.KeptAsAGUI})
	for _, e := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"ask","message":"Which <b>account</b>?","responseSchema":{"type":"object","properties":{
			"account":{"type":"string","enum":["work","home"],"title":"Account"},
			"note":{"type":"string","description":"Anything else"},
			"copies":{"type":"integer","default":2},
			"remember":{"type":"boolean","title":"Remember"}},"required":["account"]}}]}}`,
	} {
		require.NotEqual(t, state.Skipped, s.ApplyJSON([]byte(e)).Outcome)
	}
	f := s.Items()[0]
	require.Equal(t, state.KindForm, f.Kind)
	form := htmltest.Render(t, &ItemView{Item: f, Rev: f.Rev, Settings: set}).First(htmltest.AttrIs("data-kind", "form"))
	require.NotNil(t, form)
	assert.Equal(t, "pending", form.Attr("data-state"))
	assert.Contains(t, form.Text(), "Which <b>account</b>?", "the agent's text is text")
	assert.Nil(t, form.First(htmltest.Tag("b")))
	selects := form.All(htmltest.Tag("select"))
	require.Len(t, selects, 1)
	assert.Len(t, selects[0].All(htmltest.Tag("option")), 3, "a prompt and two values")
	assert.NotNil(t, form.First(htmltest.AttrIs("type", "checkbox")))
	copies := form.First(htmltest.AttrIs("inputmode", "numeric"))
	require.NotNil(t, copies)
	assert.Equal(t, "2", copies.Attr("value"), "the schema's default")
	assert.Contains(t, form.Text(), "Anything else")
	assert.NotNil(t, form.First(htmltest.TestID("form-submit")))
	assert.Len(t, form.All(htmltest.Tag("label")), 4, "every input has its label")

	_, err := s.ApplyLocal(state.CardAnswered{Key: "i1", Answer: state.CardAnswer{Values: json.RawMessage(`{"account":"home","copies":2,"remember":true}`)}})
	require.NoError(t, err)
	form = htmltest.Render(t, &ItemView{Item: f, Rev: f.Rev, Settings: set}).First(htmltest.AttrIs("data-kind", "form"))
	require.NotNil(t, form)
	assert.Equal(t, "answered", form.Attr("data-state"))
	assert.Nil(t, form.First(htmltest.Tag("input")))
	text := form.Text()
	assert.Contains(t, text, "home")
	assert.Contains(t, text, "Yes")
	assert.Contains(t, text, "No answer", "the note was left empty")
}

// A form the agent waits for until a time shows the time left, as a
// timer; one without shows none.
func TestInterruptFormCountsDown(t *testing.T) {
	set := in("en")
	at := time.Now().Add(10*time.Minute + 30*time.Second).UTC().Format(time.RFC3339)
	s := storeOf(t,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[
			{"id":"i1","reason":"ask","message":"Sure?","expiresAt":"`+at+`","responseSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}},
			{"id":"i2","reason":"ask","message":"And this?","responseSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}]}}`)
	items := s.Items()
	require.Len(t, items, 2)
	html := itemHTML(t, set, items[0])
	assert.Contains(t, html, `class="form-countdown"`)
	assert.Contains(t, html, `role="timer"`)
	assert.Regexp(t, `>[^<]*10:[0-3][0-9][^<]*<`, html, "10:30, or a little less on a slow machine")
	assert.NotContains(t, itemHTML(t, set, items[1]), `role="timer"`)
}

func TestDeniedToolAndApprovalText(t *testing.T) {
	set := in("fr")
	s := storeOf(t,
		`{"type":"start"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"pay","input":{}}`,
		`{"type":"tool-output-denied","toolCallId":"c1"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"send"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"tool_call","toolCallId":"c2","message":"Send it?"}]}}`)
	tool := s.Tool("c1")
	v := &ToolView{Item: tool, Rev: tool.Rev, Settings: set}
	html := app.HTMLString(v.details("d"))
	assert.Contains(t, html, "Non exécuté")
	assert.NotContains(t, html, "Denied")
	card := s.Approval("i")
	assert.Contains(t, itemHTML(t, set, card), "Send it?")

	s = storeOf(t, `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"ghost","content":"orphan"}`)
	ghost := s.Tool("ghost")
	assert.Contains(t, itemHTML(t, set, ghost), "Une étape de l&#39;agent", "a result for a call never seen is named")
}

func TestFilesFromAnAISDKRoute(t *testing.T) {
	set := in("en")
	s := storeOf(t,
		`{"type":"start"}`,
		`{"type":"file","url":"https://files.example/chart.png","mediaType":"image/png"}`,
		`{"type":"file","url":"javascript:alert(1)","mediaType":"image/png"}`,
		`{"type":"file","url":"https://files.example/r.pdf","mediaType":"application/pdf"}`,
		`{"type":"file","url":"data:image/svg+xml;base64,PHN2Zz4=","mediaType":"image/svg+xml"}`,
		`{"type":"file","url":"data:image/png;base64,iVBORw0KGgo=","mediaType":"image/png"}`,
		`{"type":"file","url":"/uploads/plot.png","mediaType":"image/png"}`)
	items := s.Items()
	require.Len(t, items, 6)
	// An image elsewhere on the web is a link, never loaded by the page.
	html := itemHTML(t, set, items[0])
	assert.NotContains(t, html, "<img")
	assert.Contains(t, html, `href="https://files.example/chart.png"`)
	assert.Contains(t, html, "An image the agent sent, on files.example (opens in a new tab)")
	html = itemHTML(t, set, items[1])
	assert.NotContains(t, html, "javascript:")
	assert.NotContains(t, html, "<img")
	html = itemHTML(t, set, items[2])
	assert.Contains(t, html, `href="https://files.example/r.pdf"`)
	assert.Contains(t, html, `rel="noopener noreferrer"`)
	assert.Contains(t, html, "A file (application/pdf)")
	assert.NotContains(t, itemHTML(t, set, items[3]), "<img", "no SVG from a data URL")
	// Its own data and a path of this site are shown, opening full size.
	for i, src := range []string{"data:image/png;base64,iVBORw0KGgo=", "/uploads/plot.png"} {
		html = itemHTML(t, set, items[4+i])
		// go-app writes attributes in no fixed order: find the image's tag.
		img := regexp.MustCompile(`<img [^>]*alt="An image the agent sent"[^>]*>`).FindString(html)
		assert.Contains(t, img, `src="`+src+`"`)
		assert.Contains(t, html, `aria-label="Open full size: An image the agent sent"`)
	}
}
