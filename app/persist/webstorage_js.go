//go:build js && wasm

package persist

import "stepwise/app/internal/browser"

// The browser's Web Storage: the page's (localStorage) keeps the
// conversations list, the tab's (sessionStorage) the drafts.

// Local is the page's store of the conversations list: localStorage.
func Local() ConversationStore {
	return LocalConversations{KV: browser.WebStorage("localStorage")}
}

// Tab is the tab's sessionStorage: what is typed and not sent (drafts.go).
func Tab() KeyValueStore { return browser.WebStorage("sessionStorage") }
