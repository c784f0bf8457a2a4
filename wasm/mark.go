//go:build js && wasm

package main

import "syscall/js"

// init marks the moment the Go program has started and every package is
// initialised ("stepwise:main" on the performance timeline): make bench
// splits a start-up there into the Go runtime's start and the first render.
func init() {
	js.Global().Get("performance").Call("mark", "stepwise:main")
}
