//go:build !(js && wasm)

package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// startApps: apps run only in a browser.
func (c *Controller) startApps(ctx app.Context) {}
