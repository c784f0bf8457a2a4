//go:build !(js && wasm)

package dom

func followEnd() {}
