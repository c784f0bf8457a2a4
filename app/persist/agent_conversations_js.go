//go:build js && wasm

package persist

import (
	"encoding/json"
	"errors"
	"syscall/js"

	"stepwise/app/backend/agent"
	"stepwise/app/internal/browser"
)

// Conversations kept in the browser's IndexedDB (BACKENDS.md section 4):
// database "stepwise", store "conversations", one record per conversation
// keyed by its id: {id, protocol, title, updated, json}, json being the
// agent.Saved (the protocol's own messages) as UTF-8 bytes (a
// Uint8Array: a string is kept in UTF-16, twice the room against the
// site's quota; records saved as a string are still read). Every call
// blocks: call it on a goroutine of its own.

const (
	idbName    = "stepwise"
	idbVersion = 1
	idbStore   = "conversations"
)

// idbWait waits for an IndexedDB request.
func idbWait(req js.Value) (js.Value, error) {
	done := make(chan error, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any { done <- nil; return nil })
	fail := js.FuncOf(func(js.Value, []js.Value) any {
		msg := "IndexedDB request failed"
		if e := req.Get("error"); e.Truthy() {
			msg = e.Get("name").String() + ": " + e.Get("message").String()
		}
		done <- errors.New(msg)
		return nil
	})
	req.Set("onsuccess", ok)
	req.Set("onerror", fail)
	err := <-done
	ok.Release()
	fail.Release()
	if err != nil {
		return js.Undefined(), err
	}
	return req.Get("result"), nil
}

// conversations is the open database.
type conversations struct{ db js.Value }

// OpenAgentConversations opens (creating at first use) the conversations
// store.
func OpenAgentConversations() (conv agent.Conversations, err error) {
	defer func() {
		if r := recover(); r != nil { // a browser that throws instead of failing the request
			conv, err = nil, agent.ErrNoStorage
		}
	}()
	idb, err := browser.WindowProperty("indexedDB")
	if err != nil {
		return nil, agent.ErrNoStorage
	}
	req := idb.Call("open", idbName, idbVersion)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", idbStore).Bool() {
			db.Call("createObjectStore", idbStore, map[string]any{"keyPath": "id"})
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	db, err := idbWait(req)
	if err != nil {
		return nil, agent.ErrNoStorage
	}
	return &conversations{db: db}, nil
}

func (c *conversations) store(mode string) (st js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = agent.ErrNoStorage
		}
	}()
	return c.db.Call("transaction", idbStore, mode).Call("objectStore", idbStore), nil
}

// Put saves a conversation (replacing the one with its id). It waits for
// the transaction, not the request: a full quota is only known when the
// transaction commits (it aborts with QuotaExceededError after the
// request's onsuccess), and comes back as agent.ErrStorageFull.
func (c *conversations) Put(rec agent.Saved) (err error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	var tx js.Value
	func() {
		defer func() {
			if recover() != nil { // the database closed, or the record cannot be stored
				err = agent.ErrNoStorage
			}
		}()
		bytes := js.Global().Get("Uint8Array").New(len(raw))
		js.CopyBytesToJS(bytes, raw)
		tx = c.db.Call("transaction", idbStore, "readwrite")
		tx.Call("objectStore", idbStore).Call("put", map[string]any{
			"id": rec.ID, "protocol": rec.Protocol, "title": rec.Title, "updated": rec.Updated, "json": bytes,
		})
	}()
	if err != nil {
		return err
	}
	return idbCommitted(tx)
}

// idbCommitted waits for a transaction to complete; a transaction aborted
// because the quota is full is agent.ErrStorageFull.
func idbCommitted(tx js.Value) error {
	done := make(chan error, 1)
	complete := js.FuncOf(func(js.Value, []js.Value) any { done <- nil; return nil })
	failed := js.FuncOf(func(js.Value, []js.Value) any {
		e := tx.Get("error")
		switch {
		case e.Truthy() && e.Get("name").String() == "QuotaExceededError":
			done <- agent.ErrStorageFull
		case e.Truthy():
			done <- errors.New(e.Get("name").String() + ": " + e.Get("message").String())
		default:
			done <- errors.New("IndexedDB transaction aborted")
		}
		return nil
	})
	tx.Set("oncomplete", complete)
	tx.Set("onabort", failed) // an error aborts the transaction: onabort follows onerror
	err := <-done
	complete.Release()
	failed.Release()
	return err
}

// Get loads a conversation; ok is false when there is none with that id.
func (c *conversations) Get(id string) (rec agent.Saved, ok bool, err error) {
	st, err := c.store("readonly")
	if err != nil {
		return rec, false, err
	}
	v, err := idbWait(st.Call("get", id))
	if err != nil || !v.Truthy() {
		return rec, false, err
	}
	var raw []byte
	if j := v.Get("json"); j.Type() == js.TypeString {
		raw = []byte(j.String())
	} else {
		raw = make([]byte, j.Get("length").Int())
		js.CopyBytesToGo(raw, j)
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return rec, false, err
	}
	return rec, true, nil
}

// List returns every conversation's id, title and time, without its
// messages, newest first.
func (c *conversations) List() ([]agent.Saved, error) {
	st, err := c.store("readonly")
	if err != nil {
		return nil, err
	}
	v, err := idbWait(st.Call("getAll"))
	if err != nil {
		return nil, err
	}
	out := make([]agent.Saved, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		r := v.Index(i)
		out = append(out, agent.Saved{
			ID: r.Get("id").String(), Protocol: r.Get("protocol").String(),
			Title: r.Get("title").String(), Updated: int64(r.Get("updated").Float()),
		})
	}
	agent.SortNewestFirst(out)
	return out, nil
}
