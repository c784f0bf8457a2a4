//go:build js && wasm

// Command gcslice is the subject of TestRuntimePatch. It holds a large
// pointerful heap and runs one collection, in one of two ways (its
// argument):
//
//   - "idle": from a goroutine, while main blocks, so the collection's
//     mark is left to the background workers; it sets globalThis.gcDone
//     when the collection has finished, and the runner counts how many
//     of its own tasks ran before that;
//   - "callback": inside a call from JavaScript (globalThis.gcNow), which
//     returns "ok" once the collection has finished: JavaScript waits in
//     that call, so Go has no event loop to give back meanwhile.
package main

import (
	"os"
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
	global := js.Global()
	switch os.Args[1] {
	case "idle":
		go func() {
			runtime.GC()
			global.Set("gcDone", true)
		}()
	case "callback":
		global.Set("gcNow", js.FuncOf(func(js.Value, []js.Value) any {
			runtime.GC()
			return "ok"
		}))
	}
	select {}
}
