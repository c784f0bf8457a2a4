// Command goldmarkinit imports goldmark as Stepwise's Markdown does, and
// nothing else: wasm/goldmark_patch_test.go runs it with
// GODEBUG=inittrace=1 to see what goldmark's packages do as a program
// starts.
package main

import (
	_ "github.com/yuin/goldmark"
	_ "github.com/yuin/goldmark/extension"
	_ "github.com/yuin/goldmark/parser"
)

func main() {}
