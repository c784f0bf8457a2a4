//go:build !(js && wasm)

package app

func followEnd() {}
