//go:build js && wasm

// Command gcslice is the subject of TestRuntimePatch: it holds a large
// pointerful heap, starts one collection from a goroutine and blocks, so
// the collection's mark is left to the idle mark worker. It sets
// globalThis.gcDone when the collection has finished; the runner counts
// how many times JavaScript got the event loop before that.
package main

import (
	"runtime"
	"syscall/js"
)

type node struct {
	next *node
	more [6]*node
}

// live keeps about 64 MB of pointers for the collector to mark.
var live []*node

func main() {
	var prev *node
	for i := 0; i < 1<<20; i++ {
		n := &node{next: prev}
		live = append(live, n)
		prev = n
	}
	go func() {
		runtime.GC()
		js.Global().Set("gcDone", true)
	}()
	select {}
}
