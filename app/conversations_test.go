package app

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// A conversation opened by its address, whose backend replays its first
// message in the stream rather than the history, joins the list titled.
func TestConversationOpenedByLinkIsListedFromTheStream(t *testing.T) {
	c := newController(t, "en", &fakeConn{})
	_, known := c.current()
	require.False(t, known)
	feed(c, `{"type":"user_message","text":"Compare two stocks","event_id":1}
{"type":"message_start","message":{"id":"m"},"event_id":2}`)
	conv, known := c.current()
	require.True(t, known, "listed once its first message is shown")
	assert.Equal(t, "Compare two stocks", conv.Title)
}
