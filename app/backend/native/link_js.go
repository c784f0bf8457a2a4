//go:build js && wasm

package native

import "stepwise/app/internal/browser"

// newLink is a link for cfg, its events going to ev, over the browser's
// fetch.
func newLink(cfg Config, ev Events) link {
	return link{Config: cfg, Events: ev, fetch: browser.FetchBody, pause: browser.PauseTask, wake: make(chan struct{}, 1)}
}
