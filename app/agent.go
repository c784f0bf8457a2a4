package app

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"

	"stepwise/state"
)

// The AG-UI and AI SDK modes (BACKENDS.md sections 2 to 4). Those backends
// keep no conversation: the page does. Each run is one request, POSTed
// with the whole conversation, whose answer is the run's event stream;
// Stop aborts it. The conversation is saved in the browser (IndexedDB) in
// the protocol's own message format, and a reload restores it at once.
//
// This file is what the modes decide; agent_js.go does the fetching and
// storage_js.go the saving.

// maxAgentEvent bounds one event of an agent's stream: a larger one (a
// line of 50 MB) is skipped as it is read, never held whole, and the page
// says so. A snapshot of a long conversation fits.
const maxAgentEvent = 8 << 20

// agentRequest is one request of the agent transport.
type agentRequest struct {
	Method string
	URL    string
	Body   []byte // nil for a GET
}

// agentRunRequest starts the next run from the store: with the user's
// message, or ("" text) with the answers given to the agent's cards.
func agentRunRequest(cfg Config, store *state.Store, text string) agentRequest {
	var body any
	path := cfg.AgentPath
	if cfg.Protocol == ProtocolAISDK {
		body, path = store.UIChatRequest(text), cfg.ChatPath
	} else {
		body = store.AGUIRunInput(text)
	}
	raw, _ := json.Marshal(body)
	return agentRequest{Method: "POST", URL: path, Body: raw}
}

// agentResumeRequest asks an AI SDK route for the chat's active stream
// (GET {route}/{id}/stream; 204 when there is none).
func agentResumeRequest(cfg Config, chatID string) agentRequest {
	return agentRequest{Method: "GET", URL: strings.TrimSuffix(cfg.ChatPath, "/") + "/" + url.PathEscape(chatID) + "/stream"}
}

// SavedConversation is a conversation as the browser keeps it: in the
// protocol's own message format, with what the conversations list shows.
type SavedConversation struct {
	ID       string                  `json:"id"`
	Protocol string                  `json:"protocol"`
	Title    string                  `json:"title"`
	Updated  int64                   `json:"updated"` // Unix milliseconds
	AGUI     *state.AGUIConversation `json:"agui,omitempty"`
	UI       *state.UIConversation   `json:"ui,omitempty"`
	// Trimmed counts the oldest messages left out because the browser's
	// storage was full (agent_saving.go); 0 when all is kept.
	Trimmed int `json:"trimmed,omitempty"`
}

// maxTitle bounds a conversation's title (its first user message).
const maxTitle = 80

// saveConversation is what to keep of the store's conversation.
func saveConversation(cfg Config, store *state.Store, id string, now time.Time) SavedConversation {
	rec := SavedConversation{ID: id, Protocol: cfg.Protocol, Updated: now.UnixMilli()}
	for _, it := range store.Items() {
		if it.Kind == state.KindUser && strings.TrimSpace(it.Text) != "" {
			rec.Title = clip(strings.Join(strings.Fields(it.Text), " "), maxTitle)
			break
		}
	}
	if cfg.Protocol == ProtocolAISDK {
		c := store.UIConversation()
		rec.UI = &c
	} else {
		c := store.AGUIConversation()
		rec.AGUI = &c
	}
	return rec
}

// restoreConversation shows a saved conversation; resume is true when an
// AI SDK response was streaming when it was saved, so the route is asked
// for it.
func restoreConversation(cfg Config, store *state.Store, rec SavedConversation) (resume bool) {
	switch {
	case cfg.Protocol == ProtocolAISDK && rec.UI != nil:
		store.RestoreUI(*rec.UI)
		return rec.UI.Active != nil
	case cfg.Protocol == ProtocolAGUI && rec.AGUI != nil:
		store.RestoreAGUI(*rec.AGUI)
	}
	return false
}

// newConversation names a new conversation with the page's session id:
// the AG-UI thread and the AI SDK chat take it.
func newConversation(cfg Config, store *state.Store, id string) {
	if cfg.Protocol == ProtocolAISDK {
		store.RestoreUI(state.UIConversation{ID: id})
	} else {
		store.RestoreAGUI(state.AGUIConversation{ThreadID: id})
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// sortNewestFirst orders a conversations list as the sidebar shows it.
func sortNewestFirst(list []SavedConversation) {
	slices.SortStableFunc(list, func(a, b SavedConversation) int { return cmp.Compare(b.Updated, a.Updated) })
}
