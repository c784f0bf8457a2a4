//go:build !(js && wasm)

package app

// Outside the browser there are no choices to read or keep: the server
// prerenders the page's language from its URL and the reader's browser.
func savedPref(string) string             { return "" }
func savePref(string, string)             {}
func loadCatalog(path, lang string) error { return nil }
func applyPrefs(lang, dir, theme string)  {}
func dropURLLang()                        {}

// PrepareLanguage has nothing to fetch outside the browser: the server
// holds every catalog.
func PrepareLanguage() {}
