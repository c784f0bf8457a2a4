// Command goldmarkinit imports goldmark as Stepwise's Markdown does, and
// nothing else: wasm/goldmark_patch_test.go runs it with
// GODEBUG=inittrace=1 to see what goldmark's packages do as a program
// starts. It then prints the bytes a linkify parser takes to make, first
// with both of its patterns given (as the app does), then with goldmark's.
package main

import (
	"fmt"
	"regexp"
	"runtime"

	_ "github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	_ "github.com/yuin/goldmark/parser"
)

func main() {
	url, www := regexp.MustCompile(`^https?://\S+`), regexp.MustCompile(`^www\.\S+`)
	fmt.Println("linkify with options", allocated(func() {
		extension.NewLinkifyParser(extension.WithLinkifyURLRegexp(url), extension.WithLinkifyWWWRegexp(www))
	}), "bytes")
	fmt.Println("linkify with defaults", allocated(func() { extension.NewLinkifyParser() }), "bytes")
}

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
