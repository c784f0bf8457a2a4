//go:build !(js && wasm)

package dom

// Fonts are laid out in a browser only.
func WarmFonts() {}

// WarmFontsNow: nothing to warm outside a browser.
func WarmFontsNow() {}
