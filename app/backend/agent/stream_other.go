//go:build !(js && wasm)

package agent

import "time"

// Outside the browser there is no fetch: nothing is sent (the server's
// prerender shows the empty conversation; tests give a start of their
// own).

func startRequest(req Request, silence time.Duration, ev events) stream { return nil }
func pageUnloading() bool                                               { return false }
func aborted(error) bool                                                { return false }
func watchUnload()                                                      {}
