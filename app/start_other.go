//go:build !(js && wasm)

package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Outside the browser (the server's prerender, tests) there is nothing to
// start: the page shows its empty session.

func startLive(ctx app.Context, c *Controller)    {}
func startReplay(ctx app.Context, c *Controller)  {}
func markReady()                                  {}
func exposeView(c *Controller)                    {}
func newSessionID() string                        { return "" }
func keepSessionInURL(string)                     {}
func takeBootInput() bootInput                    { return bootInput{} }
func watchNetwork(ctx app.Context, c *Controller) {}

func defaultConversations() ConversationStore { return &MemoryConversations{} }
func navigate(string)                         {}
