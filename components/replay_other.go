//go:build !(js && wasm)

package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// startReplay needs a browser.
func startReplay(ctx app.Context, r *Root) {}

// startLive needs a browser.
func startLive(ctx app.Context, r *Root) {}

func newSessionID() string { return "" }

func keepSessionInURL(string) {}

func exposeView(r *Root) {}
