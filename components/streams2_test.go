package components

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

// A closed group of nothing but reasoning says so, in the reader's
// language, rather than "Working…".
func TestReasoningOnlyGroupTitle(t *testing.T) {
	s := storeOf(t,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"Hmm."}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"r"}`,
	)
	running := itemHTML(t, in("fr"), s.Items()[0])
	assert.Contains(t, running, "Traitement…", "running, it works")
	ch := s.ApplyJSON([]byte(`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`))
	require.NotEqual(t, state.Skipped, ch.Outcome)
	for lang, want := range map[string]string{"en": "Reasoning", "fr": "Raisonnement", "vi": "Suy luận"} {
		html := itemHTML(t, in(lang), s.Items()[0])
		assert.Contains(t, html, `<span class="group-title">`+want+`</span>`, lang)
	}
}

// A tool still running shows its progress beside its label; done, it
// does not.
func TestToolProgressShowsWhileRunning(t *testing.T) {
	s := storeOf(t,
		`{"type":"start"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"searchFlights","input":{}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":{"text":"Searching…"},"preliminary":true}`,
	)
	tool := s.Tool("c1")
	html := render(t, &ToolView{Item: tool, Rev: tool.Rev, Settings: in("en")})
	assert.Contains(t, html, `class="preview tool-progress"`)
	assert.Contains(t, html, "Searching…")
	s.ApplyJSON([]byte(`{"type":"tool-output-available","toolCallId":"c1","output":{"text":"Found 3"}}`))
	html = render(t, &ToolView{Item: tool, Rev: tool.Rev, Settings: in("en")})
	assert.False(t, strings.Contains(html, "tool-progress"))
}
