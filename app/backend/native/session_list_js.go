//go:build js && wasm

package native

import (
	"fmt"
	"net/url"
	"strings"
	"syscall/js"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
	"stepwise/state/wire"
)

// httpSessions is the backend's list of the caller's sessions over fetch:
// GET path, DELETE path/{id}. The browser sends the page's cookies
// (same-origin), which is how the demo agent knows whose list to give.
type httpSessions struct{ path string }

func newSessions(path string) backend.Sessions { return httpSessions{path: path} }

func (h httpSessions) List() (wire.SessionList, error) {
	body, err := browser.FetchBody(h.path)
	if err != nil {
		return wire.SessionList{}, err
	}
	return decodeSessionList(body)
}

func (h httpSessions) Unlist(id string) error {
	u := strings.TrimSuffix(h.path, "/") + "/" + url.PathEscape(id)
	opts := map[string]any{"method": "DELETE", "cache": "no-store", "credentials": "same-origin"}
	if abort := js.Global().Get("AbortSignal"); abort.Get("timeout").Truthy() {
		// A page waits for it before leaving: never for long.
		opts["signal"] = abort.Call("timeout", 5000)
	}
	resp, err := browser.Await(js.Global().Call("fetch", u, opts))
	if err != nil {
		return err
	}
	if !resp.Get("ok").Bool() {
		return fmt.Errorf("DELETE %s: %d", u, resp.Get("status").Int())
	}
	return nil
}
