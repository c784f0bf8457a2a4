//go:build !(js && wasm)

package native

import "stepwise/app/backend"

// Outside the browser (the server's prerender, tests) no backend is asked.
func newSessions(path string) backend.Sessions { return nil }
