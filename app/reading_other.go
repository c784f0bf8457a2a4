//go:build !(js && wasm)

package app

// watchReading needs a browser.
func watchReading() {}
