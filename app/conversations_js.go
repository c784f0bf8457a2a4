//go:build js && wasm

package app

import "syscall/js"

// defaultConversations is the page's store of the conversations list.
func defaultConversations() ConversationStore {
	return LocalConversations{KV: webStorage("localStorage")}
}

// navigate loads href as a new page.
func navigate(href string) { js.Global().Get("location").Set("href", href) }
