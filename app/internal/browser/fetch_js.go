//go:build js && wasm

package browser

import (
	"fmt"
	"syscall/js"
)

// FetchBody GETs url with the browser's fetch (net/http would bring
// crypto/tls into app.wasm) and returns its body. It blocks, so it must
// not run inside a JS callback. The body is read as bytes and copied into
// Go once: read as text, a history of megabytes would go through UTF-16
// and back.
func FetchBody(url string) ([]byte, error) {
	type result struct {
		body []byte
		err  error
	}
	done := make(chan result, 1)
	var onBody, onResp, onErr js.Func
	onErr = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{err: fmt.Errorf("GET %s: %s", url, args[0].Call("toString").String())}
		return nil
	})
	onBody = js.FuncOf(func(this js.Value, args []js.Value) any {
		bytes := js.Global().Get("Uint8Array").New(args[0])
		body := make([]byte, bytes.Length())
		js.CopyBytesToGo(body, bytes)
		// As text() would, a byte order mark is dropped.
		done <- result{body: trimBOM(body)}
		return nil
	})
	onResp = js.FuncOf(func(this js.Value, args []js.Value) any {
		resp := args[0]
		if !resp.Get("ok").Bool() {
			done <- result{err: fmt.Errorf("GET %s: %d %s", url, resp.Get("status").Int(), resp.Get("statusText").String())}
			return nil
		}
		resp.Call("arrayBuffer").Call("then", onBody, onErr)
		return nil
	})
	opts := map[string]any{"cache": "no-store", "credentials": "same-origin"}
	js.Global().Call("fetch", url, opts).Call("then", onResp, onErr)
	res := <-done
	onBody.Release()
	onResp.Release()
	onErr.Release()
	return res.body, res.err
}
