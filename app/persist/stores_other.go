//go:build !(js && wasm)

package persist

import (
	"stepwise/app/backend/agent"
	"stepwise/app/backend/native"
)

// Outside the browser (the server's prerender, tests) the list is kept in
// memory and nothing else is kept.

// Local is the page's store of the conversations list: memory.
func Local() ConversationStore { return &MemoryConversations{} }

// Tab keeps no drafts.
func Tab() KeyValueStore { return nil }

// OpenAgentConversations needs a browser's IndexedDB.
func OpenAgentConversations() (agent.Conversations, error) { return nil, agent.ErrNoStorage }

// OpenShown keeps no snapshots.
func OpenShown() native.Shown { return nil }
