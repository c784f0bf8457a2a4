//go:build !(js && wasm)

package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Outside the browser there is no fetch and no IndexedDB: the agent modes
// start nothing (the server's prerender shows the empty conversation).

func startAgentRequest(ctx app.Context, req agentRequest, silence time.Duration, ev agentEvents) agentStopper {
	return nil
}
func openConversations() (conversationStore, error) { return nil, errNoStorage }
func pageUnloading() bool                           { return false }
func aborted(error) bool                            { return false }
func watchUnload()                                  {}
