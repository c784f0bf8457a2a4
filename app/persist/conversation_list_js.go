//go:build js && wasm

package persist

import (
	"encoding/json"
	"syscall/js"

	"stepwise/state/wire"
)

// conversationsKey is the localStorage key of the conversations list.
const conversationsKey = "stepwise.conversations"

// LocalConversations keeps the conversations list in the browser's
// localStorage, as one JSON array: a few hundred short entries, read and
// written whole (synchronous and small, so it needs no IndexedDB).
type LocalConversations struct{}

// storage returns window.localStorage, or ErrStorageRefused: merely
// reading the property throws when the browser blocks site data.
func (LocalConversations) storage() (st js.Value, err error) {
	defer func() {
		if recover() != nil {
			err = ErrStorageRefused
		}
	}()
	st = js.Global().Get("localStorage")
	if !st.Truthy() {
		return js.Value{}, ErrStorageRefused
	}
	return st, nil
}

func (l LocalConversations) List() (list []Conversation, err error) {
	st, err := l.storage()
	if err != nil {
		return nil, err
	}
	defer func() {
		if recover() != nil {
			list, err = nil, ErrStorageRefused
		}
	}()
	v := st.Call("getItem", conversationsKey)
	if v.IsNull() || v.IsUndefined() {
		return nil, nil
	}
	if json.Unmarshal([]byte(v.String()), &list) != nil {
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

func (l LocalConversations) write(list []Conversation) (err error) {
	st, err := l.storage()
	if err != nil {
		return err
	}
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	defer func() {
		if recover() != nil {
			err = ErrStorageRefused // quota exceeded or storage blocked
		}
	}()
	st.Call("setItem", conversationsKey, string(b))
	return nil
}

func (l LocalConversations) Put(c Conversation) error {
	list, err := l.List()
	if err != nil {
		return err
	}
	return l.write(Upsert(list, c))
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

// Local is the page's store of the conversations list: localStorage.
func Local() ConversationStore { return LocalConversations{} }
