// Command wasm is Stepwise's browser main, compiled to web/app.wasm. It
// holds only client code: the server's packages stay out of it.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	client "stepwise/app"
)

func main() {
	keepMinimumHeap()
	client.Routes()
	client.PrepareLanguage() // the page's first render is in its language
	app.RunWhenOnBrowser()
}
