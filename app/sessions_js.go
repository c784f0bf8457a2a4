//go:build js && wasm

package app

import (
	"fmt"
	"net/url"
	"strings"
	"syscall/js"

	"stepwise/state/wire"
)

// httpSessions is the backend's list of the caller's sessions over fetch:
// GET path, DELETE path/{id}. The browser sends the page's cookies
// (same-origin), which is how the demo agent knows whose list to give.
type httpSessions struct{ path string }

func newRemoteSessions(path string) remoteSessions { return httpSessions{path: path} }

func (h httpSessions) List() (wire.SessionList, error) {
	body, err := fetchText(h.path)
	if err != nil {
		return wire.SessionList{}, err
	}
	return decodeSessionList(body)
}

func (h httpSessions) Unlist(id string) error {
	return fetchDelete(strings.TrimSuffix(h.path, "/") + "/" + url.PathEscape(id))
}

// fetchDelete sends a DELETE and waits for its status. It blocks, so it
// must not run inside a JS callback.
func fetchDelete(u string) error {
	done := make(chan error, 1)
	var onResp, onErr js.Func
	onErr = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- fmt.Errorf("DELETE %s: %s", u, args[0].Call("toString").String())
		return nil
	})
	onResp = js.FuncOf(func(this js.Value, args []js.Value) any {
		if resp := args[0]; !resp.Get("ok").Bool() {
			done <- fmt.Errorf("DELETE %s: %d", u, resp.Get("status").Int())
			return nil
		}
		done <- nil
		return nil
	})
	opts := map[string]any{"method": "DELETE", "cache": "no-store", "credentials": "same-origin"}
	if timeout := js.Global().Get("AbortSignal").Get("timeout"); timeout.Truthy() {
		// A page waits for it before leaving: never for long.
		opts["signal"] = js.Global().Get("AbortSignal").Call("timeout", 5000)
	}
	js.Global().Call("fetch", u, opts).Call("then", onResp, onErr)
	err := <-done
	onResp.Release()
	onErr.Release()
	return err
}

// PutAll stores many conversations with one read and one write of the
// list (the backend's list may bring a few hundred at once).
func (l LocalConversations) PutAll(add []Conversation) error {
	list, err := l.List()
	if err != nil {
		return err
	}
	for _, c := range add {
		list = upsertConversation(list, c)
	}
	return l.write(list)
}
