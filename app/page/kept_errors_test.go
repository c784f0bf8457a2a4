package page

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"stepwise/app/backend"
	"stepwise/state"
)

// The agent backends' refusals of the user's half are said in the page's
// language; a backend's own message is shown as it is.
func TestUserHalfRefusalsInThePageLanguage(t *testing.T) {
	for lang, want := range map[string][3]string{
		"en": {"This message is no longer in the conversation.", "Wait until the agent has finished", "Your rating was not sent: HTTP 500"},
		"vi": {"Tin nhắn này không còn trong cuộc trò chuyện.", "Hãy chờ trợ lý làm xong", "Chưa gửi được đánh giá của bạn: HTTP 500"},
	} {
		m := nativePage(t, lang).m
		assert.Equal(t, want[0], m.errorText(state.ErrNoSuchMessage))
		assert.Equal(t, want[1], m.errorText(&backend.CommandError{Type: "busy"}))
		assert.Equal(t, want[2], m.errorText(&backend.CommandError{Type: "feedback_refused", Message: "HTTP 500"}))
	}
	m := nativePage(t, "en").m
	assert.Equal(t, "Could not send: The agent is busy.", m.errorText(&backend.CommandError{Type: "busy", Message: "The agent is busy."}))
}
