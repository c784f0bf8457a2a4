//go:build js && wasm

package app

import (
	"fmt"
	"syscall/js"
)

// fetchText GETs url with the browser's fetch (net/http would double the
// size of app.wasm). It blocks, so it must not run inside a JS callback.
func fetchText(url string) ([]byte, error) {
	type result struct {
		body []byte
		err  error
	}
	done := make(chan result, 1)
	var onText, onResp, onErr js.Func
	onErr = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{err: fmt.Errorf("GET %s: %s", url, args[0].Call("toString").String())}
		return nil
	})
	onText = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{body: []byte(args[0].String())}
		return nil
	})
	onResp = js.FuncOf(func(this js.Value, args []js.Value) any {
		resp := args[0]
		if !resp.Get("ok").Bool() {
			done <- result{err: fmt.Errorf("GET %s: %d %s", url, resp.Get("status").Int(), resp.Get("statusText").String())}
			return nil
		}
		resp.Call("text").Call("then", onText, onErr)
		return nil
	})
	opts := map[string]any{"cache": "no-store", "credentials": "same-origin"}
	js.Global().Call("fetch", url, opts).Call("then", onResp, onErr)
	res := <-done
	onText.Release()
	onResp.Release()
	onErr.Release()
	return res.body, res.err
}
