//go:build js && wasm

package backend

import "syscall/js"

// WatchNetwork calls changed, from a browser callback, when the browser
// goes offline or online again; it reports whether the browser is online
// now.
func WatchNetwork(changed func(online bool)) (online bool) {
	on := func(online bool) js.Func {
		return js.FuncOf(func(js.Value, []js.Value) any {
			go changed(online) // a transport may wait for its lock
			return nil
		})
	}
	js.Global().Call("addEventListener", "online", on(true))
	js.Global().Call("addEventListener", "offline", on(false))
	return !js.Global().Get("navigator").Get("onLine").Equal(js.ValueOf(false))
}
