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

// The list kept in localStorage: stored whole, read back, entries with
// ids the page cannot use dropped, a damaged list started anew.
func TestLocalConversationsKeepTheListInStorage(t *testing.T) {
	kv := &memoryKeyValues{}
	l := LocalConversations{KV: kv}
	list, err := l.List()
	require.NoError(t, err)
	assert.Empty(t, list)
	now := time.Date(2025, 4, 30, 9, 0, 0, 0, time.UTC)
	require.NoError(t, l.Put(Conversation{ID: "A", Title: "one", Updated: now}))
	require.NoError(t, l.PutAll([]Conversation{{ID: "B", Title: "two", Updated: now}, {ID: "A", Title: "uno", Updated: now}}))
	list, err = l.List()
	require.NoError(t, err)
	assert.Equal(t, []Conversation{{ID: "A", Title: "uno", Updated: now}, {ID: "B", Title: "two", Updated: now}}, list)
	require.NoError(t, l.Delete("A"))
	list, _ = l.List()
	assert.Equal(t, []string{"B"}, []string{list[0].ID})

	kv.Set(conversationsKey, `[{"id":"<>"},{"id":"OK1"}]`)
	list, _ = l.List()
	assert.Equal(t, "OK1", list[0].ID)
	kv.Set(conversationsKey, `{not json`)
	list, err = l.List()
	assert.NoError(t, err)
	assert.Empty(t, list)
}

// Issue 38.2: a browser that refuses site data fails every call with
// ErrStorageRefused; the page then keeps its list in memory, says so, and
// goes on adding to it.
func TestRefusedStorageKeepsTheListInMemory(t *testing.T) {
	l := LocalConversations{KV: &memoryKeyValues{Refuse: true}}
	_, err := l.List()
	require.ErrorIs(t, err, ErrStorageRefused)
	require.ErrorIs(t, l.Put(Conversation{ID: "A"}), ErrStorageRefused)

	c := newController(t, "en", &fakeConn{})
	c.conv.store = l
	c.setConversations([]Conversation{{ID: "s1", Title: "typed before the list was read"}}) // the page's own entry
	list, err := l.List()
	c.loadedConversations(list, err)
	assert.True(t, c.conversationsProps().Refused, "the sidebar says the list lasts until the page closes")
	mem, ok := c.conv.store.(*MemoryConversations)
	require.True(t, ok, "the list is kept in memory from now on")
	kept, _ := mem.List()
	require.Len(t, kept, 1)
	assert.Equal(t, "typed before the list was read", kept[0].Title)
	assert.Contains(t, html(c), `data-testid="storage-refused"`)
}
