package page

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"stepwise/components"
	"stepwise/components/i18n"
	"stepwise/state"
)

// said applies events one by one and lists what the status region says
// after each change.
func said(t *testing.T, events ...string) []string {
	t.Helper()
	s := state.New(state.DefaultOptions())
	tr := components.Settings{Locale: i18n.Match("en")}
	var a announcer
	var out []string
	last := ""
	for _, e := range events {
		ch := s.ApplyJSON([]byte(e))
		if ch.Status || ch.Pending {
			a.observe(s, tr.T)
		}
		if a.text != last {
			out = append(out, strings.TrimSpace(a.text))
			last = a.text
		}
	}
	return out
}

const (
	evStart = `{"type":"message_start","message":{"id":"m","message_type":"chat"}}`
	evText  = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"hi"}}`
	evDelta = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}`
	evStop  = `{"type":"message_stop"}`
)

func TestAnnouncerSaysRunsNotDeltas(t *testing.T) {
	assert.Equal(t, []string{"The assistant is working.", "The assistant has answered."},
		said(t, evStart, evText, evDelta, evDelta, evDelta, evStop))
}

func TestAnnouncerSaysAQuestionWaits(t *testing.T) {
	q := `{"type":"content_block_start","index":1,"content_block":{"type":"approval_request","approval_key":"k","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Q?","multiSelect":false,"options":[{"label":"A"}]}]}}]}}`
	ap := `{"type":"content_block_start","index":2,"content_block":{"type":"approval_request","approval_key":"ap","action_requests":[{"name":"place_order","args":{}}],"review_configs":[{"action_name":"place_order","allowed_decisions":["approve","reject"]}]}}`
	got := said(t, evStart, evText, q, ap)
	assert.Equal(t, []string{"The assistant is working.", "The assistant asks you a question. Alt+Shift+A goes to it.", "The assistant waits for your approval. Alt+Shift+A goes to it."}, got)
}

func TestAnnouncerSaysAFailure(t *testing.T) {
	got := said(t, evStart, evText, `{"type":"terminal_error","error":"quota exceeded"}`)
	assert.Equal(t, []string{"The assistant is working.", "The run failed. quota exceeded"}, got)
}

func TestAnnouncerRepeatsChangeTheRegion(t *testing.T) {
	var a announcer
	a.say("Copied")
	first := a.text
	a.say("Copied")
	assert.NotEqual(t, first, a.text, "a second Copied must be heard")
	assert.Equal(t, "Copied", strings.TrimSpace(a.text))
}
