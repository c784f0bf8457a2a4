//go:build js && wasm

package browser

import (
	"slices"
	"strconv"
	"syscall/js"
)

// WindowProperty reads window[name] for storage: localStorage,
// sessionStorage, indexedDB, caches. When the browser blocks site data
// (Chromium's cookie setting, a third-party frame in Incognito) merely
// reading them throws SecurityError, and syscall/js's Get lets a throw
// through: wasm_exec.js's valueGet has no try, and the exception ends the
// Go program (the app never starts). Reflect.get reads it through Call,
// whose throw comes back as a panic, recovered here. Every storage object
// the page uses is read through this.
func WindowProperty(name string) (v js.Value, err error) {
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
// uses it (WindowProperty says refused).
func init() {
	standInStorage("localStorage")
	standInStorage("sessionStorage")
}

// standInStorage puts a Storage in memory in place of window[name] when
// reading it throws (or it is missing): what go-app's BrowserStorage calls
// (getItem, setItem, removeItem, key, clear, length) over a Go map.
func standInStorage(name string) {
	if _, err := WindowProperty(name); err == nil {
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

// WebStorage is window.localStorage or window.sessionStorage (its name)
// as a key-value store. Each call reads the storage again (a browser may refuse
// it later: site data cleared, the setting changed) and turns whatever it
// throws (SecurityError, QuotaExceededError) into ErrStorageRefused.
type WebStorage string

func (w WebStorage) call(method string, args ...any) (v js.Value, err error) {
	st, err := WindowProperty(string(w))
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

func (w WebStorage) Get(key string) (string, bool, error) {
	v, err := w.call("getItem", key)
	if err != nil || v.Type() != js.TypeString {
		return "", false, err
	}
	return v.String(), true, nil
}

func (w WebStorage) Set(key, value string) error {
	_, err := w.call("setItem", key, value)
	return err
}

func (w WebStorage) Remove(key string) error {
	_, err := w.call("removeItem", key)
	return err
}

func (w WebStorage) Keys() ([]string, error) {
	// Object.keys of a Storage are its keys: one call, where key(i) is
	// one per key.
	st, err := WindowProperty(string(w))
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
