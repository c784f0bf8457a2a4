//go:build !(js && wasm)

package app

// Outside the browser (the server's prerender, tests) no backend is asked.
func newRemoteSessions(path string) remoteSessions { return nil }
