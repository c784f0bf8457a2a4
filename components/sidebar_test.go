package components

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSidebarListsConversationsAndMarksTheOpenOne(t *testing.T) {
	html := render(t, &Sidebar{Settings: DefaultSettings(), List: ConversationList{Entries: []ConversationEntry{
		{ID: "B", Title: "Newest <b>", Href: "/?session=B", Current: true},
		{ID: "A", Href: "/?session=A"},
	}}})
	assert.Contains(t, html, `<nav`)
	assert.Contains(t, html, `data-testid="conversations"`)
	assert.Contains(t, html, `data-testid="new-conversation"`)
	assert.Equal(t, 2, strings.Count(html, `data-testid="conversation-link"`))
	assert.Equal(t, 1, strings.Count(html, `aria-current="page"`))
	assert.Contains(t, html, `href="/?session=B"`)
	assert.Contains(t, html, `Newest &lt;b&gt;`, "a title is text, never HTML")
	assert.Contains(t, html, `>`+DefaultSettings().T("conversations.untitled")+`</a>`, "an untitled conversation has a name")
	assert.NotContains(t, html, "sidebar-backdrop", "a closed drawer has no backdrop")
}

func TestSidebarSaysWhenStorageIsRefused(t *testing.T) {
	html := render(t, &Sidebar{Settings: DefaultSettings(), List: ConversationList{Refused: true, Open: true}})
	assert.Contains(t, html, `data-testid="storage-refused"`)
	assert.Contains(t, html, "sidebar-backdrop")
}
