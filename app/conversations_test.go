package app

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestTitleFromMessage(t *testing.T) {
	assert.Equal(t, "Plan my trip", TitleFromMessage("  Plan   my\ttrip \nwith details"))
	long := TitleFromMessage(strings.Repeat("á", 200))
	assert.Equal(t, MaxTitleRunes, len([]rune(long)))
	assert.True(t, strings.HasSuffix(long, "…"))
}

func TestConversationHrefKeepsOtherParameters(t *testing.T) {
	base, _ := url.Parse("http://x/?lang=fr&session=OLD&transport=sse")
	assert.Equal(t, "/?lang=fr&session=NEW&transport=sse", conversationHref(base, "NEW"))
	assert.Equal(t, "/?lang=fr&transport=sse", conversationHref(base, ""))
	assert.Equal(t, "/", conversationHref(nil, ""))
}

func TestConversationsNewestFirstAndStore(t *testing.T) {
	now := time.Now()
	m := &MemoryConversations{}
	m.Put(Conversation{ID: "A", Title: "old", Updated: now.Add(-time.Hour)})
	m.Put(Conversation{ID: "B", Title: "new", Updated: now})
	m.Put(Conversation{ID: "A", Title: "renamed", Renamed: true, Updated: now.Add(-time.Hour)})
	list, _ := m.List()
	sortConversations(list)
	assert.Equal(t, []string{"B", "A"}, []string{list[0].ID, list[1].ID})
	assert.Equal(t, "renamed", list[1].Title)
	m.Delete("B")
	list, _ = m.List()
	assert.Len(t, list, 1)
}
