package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ExportMenu is the header's export button: it opens two choices, the
// conversation as Markdown (to read, to paste) or as JSON (the view
// model: REPLAY.md). The controller makes the file.
type ExportMenu struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	app.Compo
	Settings Settings
	open     bool
}

const exportMenuID = "export-menu"

func (m *ExportMenu) choose(format string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m.open = false
		ctx.NewActionWithValue(ActionExport, format)
		focusID("export-button") // not Defer: go-app skips it once the item clicked is gone
	}
}

func (m *ExportMenu) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" || !m.open {
		ctx.PreventUpdate()
		return
	}
	m.open = false
	focusID("export-button") // drawn already: the menu's own button
}

func (m *ExportMenu) toggle(ctx app.Context, e app.Event) { m.open = !m.open }

func (m *ExportMenu) Render() app.UI {
	s := m.Settings
	var menu app.UI
	if m.open {
		menu = app.Div().ID(exportMenuID).Class("export-menu").Body(
			textButton("", "export-markdown", s.T("export.markdown")).OnClick(m.choose("markdown")),
			textButton("", "export-json", s.T("export.json")).OnClick(m.choose("json")),
		)
	}
	return app.Div().Class("export").OnKeyDown(m.onKeyDown).Body(
		iconButton("", "export", s.T("export.button"), "download").ID("export-button").
			Aria("expanded", m.open).Aria("controls", exportMenuID).OnClick(m.toggle),
		menu,
	)
}
