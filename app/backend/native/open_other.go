//go:build !(js && wasm)

package native

import "stepwise/app/backend"

// Outside the browser (the server's prerender, tests) nothing connects:
// the page shows its empty conversation.
func (b *Backend) Open(deliver func(backend.Event)) {}

// Close has nothing to let go of.
func (b *Backend) Close() {}

// upload has no browser to send from.
func (b *Backend) upload(backend.Upload) {}
