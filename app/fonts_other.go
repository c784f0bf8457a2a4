//go:build !(js && wasm)

package app

// Fonts are laid out in a browser only.
func warmFonts() {}
