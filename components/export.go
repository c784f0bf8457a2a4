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

// onClick closes the menu after a choice (raise raised it, and gives the
// focus back to the export button) and opens or closes it from its
// button.
func (m *ExportMenu) onClick(ctx app.Context, e app.Event) {
	m.open = !m.open && !e.Get("target").Call("closest", "#"+exportMenuID).Truthy()
}

func (m *ExportMenu) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" || !m.open {
		ctx.PreventUpdate()
		return
	}
	m.open = false
	focusID("export-button") // drawn already: the menu's own button
}

func (m *ExportMenu) Render() app.UI {
	s := m.Settings
	var menu app.UI
	if m.open {
		menu = attrs(elem("div", "export-menu",
			raiser(textButton("", "export-markdown", s.T("export.markdown")), ActionExport, "markdown"),
			raiser(textButton("", "export-json", s.T("export.json")), ActionExport, "json"),
		), "id", exportMenuID)
	}
	expanded := "false"
	if m.open {
		expanded = "true"
	}
	return elem("div", "export",
		attrs(iconButton("", "export", s.T("export.button"), "download"),
			"id", "export-button", "aria-expanded", expanded, "aria-controls", exportMenuID),
		menu,
	).On("keydown", m.onKeyDown).On("click", m.onClick)
}
