package persist

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConversationsNewestFirstAndStore(t *testing.T) {
	now := time.Now()
	m := &MemoryConversations{}
	m.Put(Conversation{ID: "A", Title: "old", Updated: now.Add(-time.Hour)})
	m.Put(Conversation{ID: "B", Title: "new", Updated: now})
	m.Put(Conversation{ID: "A", Title: "renamed", Renamed: true, Updated: now.Add(-time.Hour)})
	list, _ := m.List()
	Sort(list)
	assert.Equal(t, []string{"B", "A"}, []string{list[0].ID, list[1].ID})
	assert.Equal(t, "renamed", list[1].Title)
	m.Delete("B")
	list, _ = m.List()
	assert.Len(t, list, 1)
}

func TestPutAll(t *testing.T) {
	m := &MemoryConversations{}
	assert.NoError(t, PutAll(m, nil))
	assert.NoError(t, PutAll(m, []Conversation{{ID: "A"}, {ID: "B"}, {ID: "A", Title: "a"}}))
	list, _ := m.List()
	Sort(list)
	assert.Equal(t, []Conversation{{ID: "A", Title: "a"}, {ID: "B"}}, list)
}

// The list kept in localStorage: stored whole, read back, entries with
// ids the page cannot use dropped, a damaged list started anew.
func TestLocalConversationsKeepTheListInStorage(t *testing.T) {
	kv := &MemoryKeyValues{}
	l := LocalConversations{KV: kv}
	list, err := l.List()
	require.NoError(t, err)
	assert.Empty(t, list)
	now := time.Date(2025, 4, 30, 9, 0, 0, 0, time.UTC)
	require.NoError(t, l.Put(Conversation{ID: "A", Title: "one", Updated: now}))
	require.NoError(t, PutAll(l, []Conversation{{ID: "B", Title: "two", Updated: now}, {ID: "A", Title: "uno", Updated: now}}))
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
// ErrStorageRefused (the page then keeps its list in memory: package
// page's TestListRefusedGoesOnInMemory).
func TestRefusedStorageFailsEveryCall(t *testing.T) {
	l := LocalConversations{KV: &MemoryKeyValues{Refuse: true}}
	_, err := l.List()
	require.ErrorIs(t, err, ErrStorageRefused)
	require.ErrorIs(t, l.Put(Conversation{ID: "A"}), ErrStorageRefused)
	require.ErrorIs(t, PutAll(l, []Conversation{{ID: "A"}}), ErrStorageRefused)
	require.ErrorIs(t, l.Delete("A"), ErrStorageRefused)
}
