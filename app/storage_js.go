//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"syscall/js"
)

// Conversations kept in the browser's IndexedDB (BACKENDS.md section 4):
// database "stepwise", store "conversations", one record per conversation
// keyed by its id: {id, protocol, title, updated, json}, json being the
// SavedConversation (the protocol's own messages) as UTF-8 bytes (a
// Uint8Array: a string is kept in UTF-16, twice the room against the
// site's quota; records saved as a string are still read). Every call
// blocks: call it on a goroutine of its own.

const (
	idbName    = "stepwise"
	idbVersion = 1
	idbStore   = "conversations"
)

// windowProperty reads window[name] for storage: localStorage,
// sessionStorage, indexedDB, caches. When the browser blocks site data
// (Chromium's cookie setting, a third-party frame in Incognito) merely
// reading them throws SecurityError, and syscall/js's Get lets a throw
// through: wasm_exec.js's valueGet has no try, and the exception ends the
// Go program (the app never starts). Reflect.get reads it through Call,
// whose throw comes back as a panic, recovered here. Every storage object
// the page uses is read through this.
func windowProperty(name string) (v js.Value, err error) {
	if standIns[name] {
		return js.Undefined(), ErrStorageRefused
	}
	defer func() {
		if recover() != nil {
			v, err = js.Undefined(), ErrStorageRefused
		}
	}()
	v = js.Global().Get("Reflect").Call("get", js.Global(), name)
	if !v.Truthy() {
		return js.Undefined(), ErrStorageRefused
	}
	return v, nil
}

// standIns are the storages the browser refused, which the page replaced
// with a stand-in in memory for go-app (standInStorage).
var standIns = map[string]bool{}

// go-app's engine reads localStorage as it starts (it looks for expired
// persisted states) through a Get that a throw gets past, ending the
// program: where the browser refuses the storage, go-app is given an empty
// one in memory in its place before it runs. The page's own code never
// uses it (windowProperty says refused).
func init() {
	standInStorage("localStorage")
	standInStorage("sessionStorage")
}

// standInStorage puts a Storage in memory in place of window[name] when
// reading it throws (or it is missing): what go-app's BrowserStorage calls
// (getItem, setItem, removeItem, key, clear, length) over a Go map.
func standInStorage(name string) {
	if _, err := windowProperty(name); err == nil {
		return
	}
	defer func() { recover() }() // nothing more can be done: go-app may still fail
	var keys []string
	values := map[string]string{}
	st := js.Global().Get("Object").New()
	st.Set("length", 0)
	method := func(name string, f func(args []js.Value) any) {
		st.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) }))
	}
	arg := func(args []js.Value, i int) string {
		if i < len(args) {
			if args[i].Type() == js.TypeString {
				return args[i].String()
			}
			return js.Global().Get("String").Invoke(args[i]).String()
		}
		return "undefined"
	}
	method("getItem", func(args []js.Value) any {
		if v, ok := values[arg(args, 0)]; ok {
			return v
		}
		return nil
	})
	method("setItem", func(args []js.Value) any {
		k := arg(args, 0)
		if _, ok := values[k]; !ok {
			keys = append(keys, k)
		}
		values[k] = arg(args, 1)
		st.Set("length", len(keys))
		return nil
	})
	method("removeItem", func(args []js.Value) any {
		k := arg(args, 0)
		if _, ok := values[k]; ok {
			delete(values, k)
			keys = slices.DeleteFunc(keys, func(x string) bool { return x == k })
			st.Set("length", len(keys))
		}
		return nil
	})
	method("key", func(args []js.Value) any {
		i, err := strconv.Atoi(arg(args, 0))
		if err != nil || i < 0 || i >= len(keys) {
			return nil
		}
		return keys[i]
	})
	method("clear", func([]js.Value) any {
		keys, values = nil, map[string]string{}
		st.Set("length", 0)
		return nil
	})
	js.Global().Get("Object").Call("defineProperty", js.Global(), name, map[string]any{"value": st, "configurable": true})
	standIns[name] = true
}

// tabStorage is the tab's sessionStorage (what is typed and not sent).
func tabStorage() keyValueStore { return webStorage("sessionStorage") }

// webStorage is window.localStorage or window.sessionStorage as a
// keyValueStore. Each call reads the storage again (a browser may refuse
// it later: site data cleared, the setting changed) and turns whatever it
// throws (SecurityError, QuotaExceededError) into ErrStorageRefused.
type webStorage string

func (w webStorage) call(method string, args ...any) (v js.Value, err error) {
	st, err := windowProperty(string(w))
	if err != nil {
		return js.Undefined(), err
	}
	defer func() {
		if recover() != nil {
			v, err = js.Undefined(), ErrStorageRefused
		}
	}()
	return st.Call(method, args...), nil
}

func (w webStorage) Get(key string) (string, bool, error) {
	v, err := w.call("getItem", key)
	if err != nil || v.Type() != js.TypeString {
		return "", false, err
	}
	return v.String(), true, nil
}

func (w webStorage) Set(key, value string) error {
	_, err := w.call("setItem", key, value)
	return err
}

func (w webStorage) Remove(key string) error {
	_, err := w.call("removeItem", key)
	return err
}

func (w webStorage) Keys() ([]string, error) {
	// Object.keys of a Storage are its keys: one call, where key(i) is
	// one per key.
	st, err := windowProperty(string(w))
	if err != nil {
		return nil, err
	}
	var keys js.Value
	func() {
		defer func() {
			if recover() != nil {
				err = ErrStorageRefused
			}
		}()
		keys = js.Global().Get("Object").Call("keys", st)
	}()
	if err != nil {
		return nil, err
	}
	out := make([]string, keys.Length())
	for i := range out {
		out[i] = keys.Index(i).String()
	}
	return out, nil
}

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

// openConversations opens (creating at first use) the conversations store.
func openConversations() (conv conversationStore, err error) {
	defer func() {
		if r := recover(); r != nil { // a browser that throws instead of failing the request
			conv, err = nil, errNoStorage
		}
	}()
	idb, err := windowProperty("indexedDB")
	if err != nil {
		return nil, errNoStorage
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
		return nil, errNoStorage
	}
	return &conversations{db: db}, nil
}

func (c *conversations) store(mode string) (st js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errNoStorage
		}
	}()
	return c.db.Call("transaction", idbStore, mode).Call("objectStore", idbStore), nil
}

// Put saves a conversation (replacing the one with its id). It waits for
// the transaction, not the request: a full quota is only known when the
// transaction commits (it aborts with QuotaExceededError after the
// request's onsuccess), and comes back as errStorageFull.
func (c *conversations) Put(rec SavedConversation) (err error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	var tx js.Value
	func() {
		defer func() {
			if recover() != nil { // the database closed, or the record cannot be stored
				err = errNoStorage
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
// because the quota is full is errStorageFull.
func idbCommitted(tx js.Value) error {
	done := make(chan error, 1)
	complete := js.FuncOf(func(js.Value, []js.Value) any { done <- nil; return nil })
	failed := js.FuncOf(func(js.Value, []js.Value) any {
		e := tx.Get("error")
		switch {
		case e.Truthy() && e.Get("name").String() == "QuotaExceededError":
			done <- errStorageFull
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
func (c *conversations) Get(id string) (rec SavedConversation, ok bool, err error) {
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
func (c *conversations) List() ([]SavedConversation, error) {
	st, err := c.store("readonly")
	if err != nil {
		return nil, err
	}
	v, err := idbWait(st.Call("getAll"))
	if err != nil {
		return nil, err
	}
	out := make([]SavedConversation, 0, v.Length())
	for i := 0; i < v.Length(); i++ {
		r := v.Index(i)
		out = append(out, SavedConversation{
			ID: r.Get("id").String(), Protocol: r.Get("protocol").String(),
			Title: r.Get("title").String(), Updated: int64(r.Get("updated").Float()),
		})
	}
	sortNewestFirst(out)
	return out, nil
}
