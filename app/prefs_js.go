//go:build js && wasm

package app

import (
	"errors"
	"net/url"
	"syscall/js"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/internal/browser"
	"stepwise/components/i18n"
)

// savedPref reads one of the reader's choices ("" for none, or when the
// browser keeps no site data).
func savedPref(key string) string {
	v, _, _ := browser.WebStorage("localStorage").Get(key)
	return v
}

// savePref keeps a choice; "" forgets it. A browser that refuses keeps it
// for this page only.
func savePref(key, value string) {
	st := browser.WebStorage("localStorage")
	if value == "" {
		st.Remove(key)
		return
	}
	st.Set(key, value)
}

// PrepareLanguage fetches, before the app's first render, the catalog of
// the language the page will speak when app.wasm does not hold it
// (components/i18n): the first render is then in the right words. It
// blocks: wasm/main calls it before app.RunWhenOnBrowser.
func PrepareLanguage() {
	cfg := ConfigFromURL(DefaultConfig().WithEnv(app.Getenv), app.Window().URL())
	l := pageLanguage(cfg.Lang, savedPref(prefLangKey), app.Window().Get("navigator").Get("language").String())
	loadCatalog(cfg.CatalogPath, l.Lang())
}

// loadCatalog fetches and registers lang's catalog unless it is there.
func loadCatalog(path, lang string) error {
	if i18n.Loaded(lang) {
		return nil
	}
	done := make(chan error, 1)
	go func() {
		body, err := browser.FetchBody(path + url.PathEscape(lang) + ".json")
		if err == nil {
			err = i18n.Register(lang, body)
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(catalogTimeout):
		return errors.New("timed out")
	}
}

// applyPrefs sets the page's language, direction and theme on <html>:
// stepwise.css draws the theme from data-theme (none: the system's).
func applyPrefs(lang, dir, theme string) {
	root := js.Global().Get("document").Get("documentElement")
	root.Set("lang", lang)
	root.Set("dir", dir)
	if theme == "" || theme == "system" {
		root.Call("removeAttribute", "data-theme")
	} else {
		root.Call("setAttribute", "data-theme", theme)
	}
}

// dropURLLang takes ?lang= off the page's URL once the reader chose a
// language in the menu: a reload speaks the chosen one.
func dropURLLang() {
	u := app.Window().URL()
	q := u.Query()
	if q.Get("lang") == "" {
		return
	}
	q.Del("lang")
	u.RawQuery = q.Encode()
	js.Global().Get("history").Call("replaceState", js.Global().Get("history").Get("state"), "", u.String())
}
