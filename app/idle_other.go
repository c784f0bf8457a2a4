//go:build !(js && wasm)

package app

// whenIdle needs a browser: elsewhere f runs at once.
func whenIdle(f func()) { f() }
