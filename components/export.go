package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// exportMenu is the header's export button: it opens two choices, the
// conversation as Markdown (to read, to paste) or as JSON (the view
// model: REPLAY.md). The controller makes the file. Its handlers are the
// topbar's: a click there draws the topbar again.
func exportMenu(s Settings) app.UI {
	var menu app.UI
	expanded := "false"
	if exportOpen {
		expanded = "true"
		menu = attrs(elem("div", "export-menu",
			raiser(textButton("", "export-markdown", s.T("export.markdown")), ActionExport, "markdown"),
			raiser(textButton("", "export-json", s.T("export.json")), ActionExport, "json"),
		), "id", exportMenuID)
	}
	return elem("div", "export",
		attrs(iconButton("", "export", s.T("export.button"), "download"),
			"id", "export-button", "aria-expanded", expanded, "aria-controls", exportMenuID),
		menu,
	).On("keydown", onExportKey).On("click", onExportClick)
}

const exportMenuID = "export-menu"

// exportOpen: the export menu is open (the page has one).
var exportOpen bool

// onExportClick opens or closes the menu from its button, and closes it
// after a choice (raise raised it, and gives the focus back to the
// button).
func onExportClick(ctx app.Context, e app.Event) {
	exportOpen = !exportOpen && !e.Get("target").Call("closest", "#"+exportMenuID).Truthy()
}

func onExportKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" || !exportOpen {
		ctx.PreventUpdate()
		return
	}
	exportOpen = false
	focusID("export-button") // drawn already: the menu's own button
}
