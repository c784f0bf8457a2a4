// Package components holds Stepwise's go-app components: the conversation
// and one component per item kind of the state store's view model.
package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the app's pages; the browser main and the server (which
// prerenders them) both call it.
func Routes() {
	app.Route("/", func() app.Composer { return &Root{} })
}
