package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ExportMenu is the header's export button: it opens two choices, the
// conversation as Markdown (to read, to paste) or as JSON (the view
// model: REPLAY.md). The controller makes the file.
type ExportMenu struct {
	app.Compo
	Settings Settings
	open     bool
}

const exportMenuID = "export-menu"

func (m *ExportMenu) choose(format string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m.open = false
		ctx.NewActionWithValue(ActionExport, format)
		ctx.Defer(func(app.Context) { focusID("export-button") })
	}
}

func (m *ExportMenu) Render() app.UI {
	s := m.Settings
	return app.Div().Class("export").OnKeyDown(func(ctx app.Context, e app.Event) {
		if e.Get("key").String() != "Escape" || !m.open {
			ctx.PreventUpdate()
			return
		}
		m.open = false
		ctx.Defer(func(app.Context) { focusID("export-button") })
	}).Body(
		app.Button().Type("button").ID("export-button").Class("icon-button").DataSet("testid", "export").
			Aria("label", s.T("export.button")).Title(s.T("export.button")).
			Aria("expanded", m.open).Aria("controls", exportMenuID).
			OnClick(func(ctx app.Context, e app.Event) { m.open = !m.open }).Body(icon("download")),
		app.If(m.open, func() app.UI {
			return app.Div().ID(exportMenuID).Class("export-menu").Body(
				app.Button().Type("button").DataSet("testid", "export-markdown").OnClick(m.choose("markdown")).Text(s.T("export.markdown")),
				app.Button().Type("button").DataSet("testid", "export-json").OnClick(m.choose("json")).Text(s.T("export.json")),
			)
		}),
	)
}
