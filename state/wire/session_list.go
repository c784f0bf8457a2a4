package wire

import (
	"strings"
	"time"
	"unicode/utf8"
)

// SessionList is the answer of the optional endpoint GET /api/sessions:
// the caller's sessions, newest first. A backend that offers it lists only
// the caller's own sessions (a session id is a bearer capability: whoever
// holds it can read the session).
type SessionList struct {
	Sessions []SessionSummary `json:"sessions"`
	// Gone names sessions of the caller the backend no longer has (they
	// expired): a client forgets them. Optional.
	Gone []string `json:"gone,omitempty"`
}

// SessionSummary is one session of a SessionList.
type SessionSummary struct {
	ID string `json:"id"`
	// Title is the session's first user message, as SessionTitle makes it.
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
	// UpdatedAt is when a message was last sent in it.
	UpdatedAt time.Time `json:"updated_at"`
	Running   bool      `json:"running"`
}

// MaxTitleRunes bounds a title taken from a message.
const MaxTitleRunes = 80

// SessionTitle makes a list title of a message: its first line, spaces
// collapsed, cut at MaxTitleRunes with an ellipsis. The conversations list
// and the demo agent's GET /api/sessions both title sessions this way, so
// the two agree.
func SessionTitle(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = strings.Join(strings.Fields(line), " ")
	if utf8.RuneCountInString(line) <= MaxTitleRunes {
		return line
	}
	r := []rune(line)
	return strings.TrimSpace(string(r[:MaxTitleRunes-1])) + "…"
}
