package app

import (
	"time"

	"stepwise/components"
	"stepwise/components/i18n"
)

// The reader's choices of language and theme (the header's menu,
// components.PrefsMenu) are kept in the browser's localStorage under
// these keys; web/boot.js reads them too, before the app runs.
const (
	prefLangKey  = "stepwise.lang"
	prefThemeKey = "stepwise.theme"
)

// DefaultCatalogPath is where the site serves the catalogs app.wasm does
// not hold (server/site/catalogs.go); EnvCatalogPath moves it under a
// base path.
const DefaultCatalogPath = "/web/i18n/"

// catalogTimeout bounds the wait for a catalog before the first render:
// past it the page speaks English rather than not start.
const catalogTimeout = 10 * time.Second

// pageLanguage is the language a page speaks: the URL's ?lang= first,
// then the reader's choice in the menu, then the browser's.
func pageLanguage(urlLang, chosen, browser string) i18n.Locale {
	for _, tag := range []string{urlLang, chosen, browser} {
		if tag != "" {
			return i18n.Match(tag)
		}
	}
	return i18n.Match("")
}

// speakable is l when its catalog is loaded, else English (a catalog
// that could not be fetched: offline on a first visit).
func speakable(l i18n.Locale) i18n.Locale {
	if i18n.Loaded(l.Lang()) {
		return l
	}
	return i18n.Match("en")
}

// cleanTheme is a stored theme, or ThemeSystem.
func cleanTheme(t string) string {
	switch t {
	case components.ThemeLight, components.ThemeDark:
		return t
	}
	return components.ThemeSystem
}
