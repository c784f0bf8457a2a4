package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components/i18n"
)

// The actions of the language and theme menu.
const (
	ActionSetLanguage = "stepwise.language" // string: a language of i18n.Languages
	ActionSetTheme    = "stepwise.theme"    // string: ThemeSystem, ThemeLight or ThemeDark
)

// The page's themes: the system's (the default), or one chosen.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

var themes = []struct{ value, key string }{
	{ThemeSystem, "prefs.theme.system"},
	{ThemeLight, "prefs.theme.light"},
	{ThemeDark, "prefs.theme.dark"},
}

const (
	prefsButtonID = "prefs-button"
	prefsPanelID  = "prefs-panel"
	prefsTitleID  = "prefs-title"
	prefsLangID   = "prefs-language"
)

// PrefsMenu is the header's menu of the page's language and theme: a
// button that opens a small panel with a select of the languages (each
// in its own words) and three radio buttons. The controller remembers
// the choices (app/prefs*.go).
type PrefsMenu struct {
	app.Compo
	Settings Settings
	Theme    string // ThemeSystem, ThemeLight or ThemeDark
	Disabled bool   // the prerender: nothing works before the app runs

	open bool
}

func (m *PrefsMenu) Render() app.UI {
	s := m.Settings
	return app.Div().Class("prefs-control").DataSet("testid", "prefs").
		OnKeyDown(m.onKeyDown).On("focusout", m.onFocusOut).Body(
		app.Button().Type("button").ID(prefsButtonID).Class("icon-button prefs-button").DataSet("testid", "prefs-button").
			Aria("label", s.T("prefs.button")).Attr("title", s.T("prefs.button")).
			Aria("expanded", m.open).Aria("controls", prefsPanelID).Disabled(m.Disabled).
			OnClick(m.toggle).Body(icon("globe")),
		app.If(m.open, func() app.UI {
			return app.Div().ID(prefsPanelID).Class("prefs-panel").DataSet("testid", "prefs-panel").
				Attr("role", "group").Aria("labelledby", prefsTitleID).Body(
				app.H2().ID(prefsTitleID).Class("sr-only").Text(s.T("prefs.button")),
				app.Label().For(prefsLangID).Class("prefs-label").Text(s.T("prefs.language")),
				app.Select().ID(prefsLangID).Class("prefs-select").DataSet("testid", "prefs-language").
					OnChange(m.onLanguage).Body(languageOptions(s.Locale.Lang())...),
				app.FieldSet().Class("prefs-themes").Body(
					app.Legend().Class("prefs-label").Text(s.T("prefs.theme")),
					app.Div().Class("prefs-theme-choices").Body(m.themeChoices()...),
				),
			)
		}),
	)
}

// languageOptions lists every language in its own words, with its lang
// (a screen reader reads "Deutsch" as German).
func languageOptions(current string) []app.UI {
	out := make([]app.UI, len(i18n.Languages))
	for i, lang := range i18n.Languages {
		opt := app.Option().Value(lang).Lang(lang).Text(i18n.Name(lang))
		if lang == current { // go-app writes selected="false" for false
			opt = opt.Selected(true)
		}
		out[i] = opt
	}
	return out
}

func (m *PrefsMenu) themeChoices() []app.UI {
	current := m.Theme
	if current == "" {
		current = ThemeSystem
	}
	out := make([]app.UI, len(themes))
	for i, th := range themes {
		id := "prefs-theme-" + th.value
		value := th.value
		radio := app.Input().Type("radio").ID(id).Name("prefs-theme").Value(value).DataSet("testid", id).
			OnChange(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(ActionSetTheme, value) }, app.EventScope(value))
		if value == current {
			radio = radio.Checked(true)
		}
		out[i] = app.Label().For(id).Class("prefs-theme").Body(
			radio,
			app.Span().Text(m.Settings.T(th.key)),
		)
	}
	return out
}

func (m *PrefsMenu) toggle(ctx app.Context, e app.Event) { m.open = !m.open }

func (m *PrefsMenu) onLanguage(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(ActionSetLanguage, ctx.JSSrc().Get("value").String())
}

// onKeyDown: Escape closes the panel and gives the focus back to its
// button.
func (m *PrefsMenu) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" || !m.open {
		ctx.PreventUpdate()
		return
	}
	m.open = false
	ctx.Defer(func(app.Context) { focusID(prefsButtonID) })
}

// onFocusOut closes the panel when the focus goes outside it.
func (m *PrefsMenu) onFocusOut(ctx app.Context, e app.Event) {
	next := e.Get("relatedTarget")
	if !m.open || (next.Truthy() && ctx.JSSrc().Call("contains", next).Bool()) {
		ctx.PreventUpdate()
		return
	}
	m.open = false
}
