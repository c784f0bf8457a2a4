package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/dom"
	"stepwise/app/page"
	"stepwise/components"
	"stepwise/components/i18n"
)

// onSetLanguage switches the page to the language chosen in the menu,
// once its catalog is there (fetched if need be), and remembers it: the
// next visit speaks it too, unless its URL names another (?lang= wins).
func (c *Controller) onSetLanguage(ctx app.Context, a app.Action) {
	lang, _ := a.Value.(string)
	l := i18n.Match(lang)
	if l.Lang() != lang {
		return
	}
	path := c.cfg.CatalogPath
	ctx.Async(func() {
		err := loadCatalog(path, lang)
		dom.Dispatch(ctx, func(ctx app.Context) {
			if err != nil {
				c.update(ctx, page.LanguageFailed{Lang: lang})
				return
			}
			c.settings.Locale = l
			c.update(ctx, page.SetLocale{Locale: l})
			savePref(prefLangKey, lang)
			dropURLLang()
			ctx.Page().SetLang(lang)
			applyPrefs(lang, l.Dir(), c.theme)
		})
	})
}

// onSetTheme applies the theme chosen in the menu and remembers it.
func (c *Controller) onSetTheme(ctx app.Context, a app.Action) {
	theme := cleanTheme(a.Value.(string))
	c.theme = theme
	if theme == components.ThemeSystem {
		savePref(prefThemeKey, "")
	} else {
		savePref(prefThemeKey, theme)
	}
	applyPrefs(c.settings.Locale.Lang(), c.settings.Locale.Dir(), theme)
}
