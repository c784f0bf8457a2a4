package persist

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"stepwise/app/internal/browser"
	"stepwise/state/wire"
)

// Conversation is one entry of the conversations list (the sidebar).
type Conversation struct {
	ID string `json:"id"`
	// Title is the conversation's first user message, or the name the
	// user gave it; "" until a message is sent (the list then says
	// "New conversation").
	Title string `json:"title,omitempty"`
	// Renamed: the user chose Title; a backend's title does not replace it.
	Renamed bool `json:"renamed,omitempty"`
	// Updated is when a message was last sent in it (or the backend's
	// updated time): the list is newest first.
	Updated time.Time `json:"updated"`
}

// ConversationStore keeps the list of conversations this browser knows.
// The page keeps its list in localStorage (LocalConversations); another
// store plugs in by implementing it, and the sidebar works unchanged.
//
// Methods may block on I/O (IndexedDB answers asynchronously: an
// implementation waits for its request); the controller calls them on a
// goroutine of their own, never inside a dispatch, and brings the result
// back with ctx.Dispatch. They must be
// safe for concurrent use. An error from List means nothing could be read;
// ErrStorageRefused means the browser refuses storage: the page then keeps
// the list in memory and says so.
type ConversationStore interface {
	// List returns every conversation, in any order.
	List() ([]Conversation, error)
	// Put adds c, or replaces the conversation with its ID.
	Put(c Conversation) error
	// Delete forgets the conversation id (nothing if it is not known).
	Delete(id string) error
}

// ErrStorageRefused is returned by a store whose browser refuses to store
// anything (private windows, blocked site data, a full quota).
var ErrStorageRefused = browser.ErrStorageRefused

// MemoryConversations is a ConversationStore in memory: tests use it, and
// the page falls back to it when the browser refuses storage.
type MemoryConversations struct {
	mu   sync.Mutex
	list []Conversation
}

func (m *MemoryConversations) List() ([]Conversation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.list), nil
}

func (m *MemoryConversations) Put(c Conversation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.list = Upsert(m.list, c)
	return nil
}

func (m *MemoryConversations) Delete(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.list = slices.DeleteFunc(m.list, func(c Conversation) bool { return c.ID == id })
	return nil
}

// conversationsKey is the localStorage key of the conversations list.
const conversationsKey = "stepwise.conversations"

// LocalConversations keeps the conversations list in a KeyValueStore (the
// page's localStorage), as one JSON array: a few hundred short entries,
// read and written whole (synchronous and small, so it needs no
// IndexedDB).
type LocalConversations struct{ KV KeyValueStore }

func (l LocalConversations) List() ([]Conversation, error) {
	v, ok, err := l.KV.Get(conversationsKey)
	if err != nil || !ok {
		return nil, err
	}
	var list []Conversation
	if json.Unmarshal([]byte(v), &list) != nil {
		return nil, nil // a damaged list starts again rather than failing every page
	}
	valid := list[:0]
	for _, c := range list {
		if wire.ValidSessionID(c.ID) {
			valid = append(valid, c)
		}
	}
	return valid, nil
}

func (l LocalConversations) write(list []Conversation) error {
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return l.KV.Set(conversationsKey, string(b))
}

func (l LocalConversations) Put(c Conversation) error {
	list, err := l.List()
	if err != nil {
		return err
	}
	return l.write(Upsert(list, c))
}

// PutAll stores many conversations with one read and one write of the
// list (the backend's list may bring a few hundred at once).
func (l LocalConversations) PutAll(add []Conversation) error {
	list, err := l.List()
	if err != nil {
		return err
	}
	for _, c := range add {
		list = Upsert(list, c)
	}
	return l.write(list)
}

func (l LocalConversations) Delete(id string) error {
	list, err := l.List()
	if err != nil {
		return err
	}
	out := list[:0]
	for _, c := range list {
		if c.ID != id {
			out = append(out, c)
		}
	}
	return l.write(out)
}

// Upsert replaces the entry with c's ID or appends c. (Not inlined: it
// is called in several places.)
//
//go:noinline
func Upsert(list []Conversation, c Conversation) []Conversation {
	for i := range list {
		if list[i].ID == c.ID {
			list[i] = c
			return list
		}
	}
	return append(list, c)
}

// Sort orders the list newest first (ties by id, so the order
// is stable).
func Sort(list []Conversation) {
	slices.SortStableFunc(list, func(a, b Conversation) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// conversationsPutter is a ConversationStore that stores many entries at
// once (LocalConversations: one read and one write of the whole list).
type conversationsPutter interface {
	PutAll([]Conversation) error
}

// PutAll stores every entry of list in store.
func PutAll(store ConversationStore, list []Conversation) error {
	if len(list) == 0 {
		return nil
	}
	if p, ok := store.(conversationsPutter); ok {
		return p.PutAll(list)
	}
	for _, c := range list {
		if err := store.Put(c); err != nil {
			return err
		}
	}
	return nil
}
