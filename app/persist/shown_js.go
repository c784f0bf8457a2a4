//go:build js && wasm

package persist

import (
	"syscall/js"
	"time"

	"stepwise/app/backend/agent"
	"stepwise/app/backend/native"
	"stepwise/app/internal/browser"
)

// What native conversations last showed (native.Shown), in IndexedDB:
// database "stepwise-shown" (its own, so that adding it needs no upgrade
// of the conversations' database, which a tab of an older version may
// hold open), store "shown", one record per conversation keyed by its id:
// {id, saved, json}, json being the snapshot as UTF-8 bytes; an index on
// saved finds the oldest to forget.

const (
	shownDBName  = "stepwise-shown"
	shownStoreID = "shown"
)

// idbShown is the open database.
type idbShown struct{ db js.Value }

// OpenShown is the store of snapshots; it opens the database on first
// use, off the page's update (a method that finds no IndexedDB, or one
// the browser refuses, fails).
func OpenShown() native.Shown { return &lazyShown{} }

// lazyShown opens the database at its first use (a page offline or online
// should not wait for it to start).
type lazyShown struct {
	db     *idbShown
	failed bool
}

func (l *lazyShown) open() (*idbShown, error) {
	if l.db != nil || l.failed {
		if l.failed {
			return nil, agent.ErrNoStorage
		}
		return l.db, nil
	}
	db, err := openShownDB()
	if err != nil {
		l.failed = true
		return nil, err
	}
	l.db = db
	return db, nil
}

func (l *lazyShown) Put(id string, saved time.Time, data []byte) error {
	db, err := l.open()
	if err != nil {
		return err
	}
	return db.put(id, saved, data)
}

func (l *lazyShown) Get(id string) ([]byte, bool, error) {
	db, err := l.open()
	if err != nil {
		return nil, false, err
	}
	return db.get(id)
}

func (l *lazyShown) Delete(id string) error {
	db, err := l.open()
	if err != nil {
		return err
	}
	return db.delete(id)
}

func openShownDB() (db *idbShown, err error) {
	defer func() {
		if recover() != nil {
			db, err = nil, agent.ErrNoStorage
		}
	}()
	idb, err := browser.WindowProperty("indexedDB")
	if err != nil {
		return nil, agent.ErrNoStorage
	}
	req := idb.Call("open", shownDBName, 1)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", shownStoreID).Bool() {
			st := db.Call("createObjectStore", shownStoreID, map[string]any{"keyPath": "id"})
			st.Call("createIndex", "saved", "saved")
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	v, err := idbWait(req)
	if err != nil {
		return nil, agent.ErrNoStorage
	}
	return &idbShown{db: v}, nil
}

// tx runs f on the store in a transaction of its own and waits for it to
// commit (a full quota is agent.ErrStorageFull).
func (s *idbShown) tx(mode string, f func(st js.Value)) (err error) {
	var tx js.Value
	func() {
		defer func() {
			if recover() != nil {
				err = agent.ErrNoStorage
			}
		}()
		tx = s.db.Call("transaction", shownStoreID, mode)
		f(tx.Call("objectStore", shownStoreID))
	}()
	if err != nil {
		return err
	}
	return idbCommitted(tx)
}

// put keeps a snapshot, then forgets the oldest beyond
// native.MaxShownConversations.
func (s *idbShown) put(id string, saved time.Time, data []byte) error {
	err := s.tx("readwrite", func(st js.Value) {
		bytes := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(bytes, data)
		st.Call("put", map[string]any{"id": id, "saved": saved.UnixMilli(), "json": bytes})
	})
	if err != nil {
		return err
	}
	keys, err := s.read(func(st js.Value) js.Value { return st.Call("index", "saved").Call("getAllKeys") })
	if err != nil || keys.Type() != js.TypeObject || keys.Length() <= native.MaxShownConversations {
		return err
	}
	extra := keys.Length() - native.MaxShownConversations // oldest first
	return s.tx("readwrite", func(st js.Value) {
		for i := range extra {
			st.Call("delete", keys.Index(i))
		}
	})
}

// read waits for a read request made by f in a transaction of its own.
func (s *idbShown) read(f func(st js.Value) js.Value) (v js.Value, err error) {
	var req js.Value
	func() {
		defer func() {
			if recover() != nil {
				err = agent.ErrNoStorage
			}
		}()
		req = f(s.db.Call("transaction", shownStoreID, "readonly").Call("objectStore", shownStoreID))
	}()
	if err != nil {
		return js.Undefined(), err
	}
	return idbWait(req)
}

func (s *idbShown) get(id string) ([]byte, bool, error) {
	v, err := s.read(func(st js.Value) js.Value { return st.Call("get", id) })
	if err != nil || !v.Truthy() {
		return nil, false, err
	}
	j := v.Get("json")
	if j.Type() != js.TypeObject {
		return nil, false, nil
	}
	data := make([]byte, j.Get("length").Int())
	js.CopyBytesToGo(data, j)
	return data, true, nil
}

func (s *idbShown) delete(id string) error {
	return s.tx("readwrite", func(st js.Value) { st.Call("delete", id) })
}
