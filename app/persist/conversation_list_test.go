package persist

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
