//go:build !(js && wasm)

package dom

// WhenIdle needs a browser: elsewhere f runs at once.
func WhenIdle(f func()) { f() }
