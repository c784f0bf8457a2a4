package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Root is the page.
type Root struct {
	app.Compo
}

// Render draws the page.
func (r *Root) Render() app.UI {
	return app.Main().Class("app").Body(app.H1().Text("Stepwise"))
}
