//go:build !(js && wasm)

package app

import "stepwise/app/page"

// Outside the browser (the server's prerender, tests) the page is not
// wired to one.

func markReady()               {}
func exposeView(c *Controller) {}
func newSessionID() string     { return "" }
func keepSessionInURL(string)  {}
func takeBootInput() page.Boot { return page.Boot{} }
func navigate(string)          {}
