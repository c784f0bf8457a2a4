//go:build !(js && wasm)

package persist

import "stepwise/app/backend/agent"

// Local is the page's store of the conversations list; outside the
// browser (the server's prerender, tests), memory.
func Local() ConversationStore { return &MemoryConversations{} }

// OpenAgentConversations needs a browser's IndexedDB.
func OpenAgentConversations() (agent.Conversations, error) { return nil, agent.ErrNoStorage }
