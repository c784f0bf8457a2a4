// A go-app client of three element types, linked by
// TestGoAppElementsShareTheirFields (wasm/goapp_patch_test.go).
package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

type page struct{ app.Compo }

func (p *page) Render() app.UI {
	return app.Div().Class("a").ID("b").Body(
		app.Span().Class("c").Text("d"),
		app.P().OnClick(func(app.Context, app.Event) {}),
	)
}

func main() {
	app.Route("/", func() app.Composer { return &page{} })
	app.RunWhenOnBrowser()
}
