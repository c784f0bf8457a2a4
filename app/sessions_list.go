package app

import (
	"encoding/json"

	"stepwise/state/wire"
)

// The backend's list of the caller's sessions (the optional GET
// /api/sessions, Config.SessionsPath). The conversations list is the
// browser's own (ConversationStore); when the backend also lists the
// caller's sessions, the page merges that list in once at start: sessions
// only the backend knows (the browser's storage was cleared, another tab
// of this browser) join it, titles come from the backend where the browser
// has none, and the sessions it says expired leave it. A backend without
// the endpoint (404, an error, anything but its JSON) changes nothing: the
// list stays the browser's. The AG-UI and AI SDK modes have no such
// endpoint.

// remoteSessions is a backend's list of the caller's sessions. Its methods
// block on the network: the controller calls them on a goroutine of their
// own, never inside a dispatch.
type remoteSessions interface {
	// List returns the caller's sessions, or an error when the backend
	// has no list.
	List() (wire.SessionList, error)
	// Unlist takes session id off the caller's list (the user deleted it).
	Unlist(id string) error
}

// maxRemoteSessions bounds what the page takes from a backend's list.
const maxRemoteSessions = 500

// decodeSessionList reads a list answer. Backend text is not trusted:
// an entry that cannot be read (a bad created_at) is skipped, not the
// list; invalid ids are dropped and titles cut as the sidebar's own.
func decodeSessionList(body []byte) (wire.SessionList, error) {
	var in struct {
		Sessions []json.RawMessage `json:"sessions"`
		Gone     []json.RawMessage `json:"gone"`
	}
	var out wire.SessionList
	if err := json.Unmarshal(body, &in); err != nil {
		return wire.SessionList{}, err
	}
	for _, raw := range in.Sessions {
		var s wire.SessionSummary
		if json.Unmarshal(raw, &s) == nil && wire.ValidSessionID(s.ID) && len(out.Sessions) < maxRemoteSessions {
			s.Title = TitleFromMessage(s.Title)
			out.Sessions = append(out.Sessions, s)
		}
	}
	for _, raw := range in.Gone {
		var id string
		if json.Unmarshal(raw, &id) == nil && wire.ValidSessionID(id) && len(out.Gone) < maxRemoteSessions {
			out.Gone = append(out.Gone, id)
		}
	}
	return out, nil
}

// remoteMerge is what merging a backend's list changes.
type remoteMerge struct {
	List    []Conversation // the merged list (unsorted)
	Changed []Conversation // entries to store: new, or given a title or a newer time
	Removed []string       // entries to forget: the backend says they expired
}

// mergeRemote merges a backend's list into the browser's. open is the
// page's conversation (kept even when the backend says it expired: it is on
// screen, and a message starts it over); deleted are the ids the user
// deleted in this page (never brought back).
func mergeRemote(local []Conversation, remote wire.SessionList, open string, deleted map[string]bool) remoteMerge {
	gone := make(map[string]bool, len(remote.Gone))
	for _, id := range remote.Gone {
		gone[id] = id != open
	}
	out := remoteMerge{List: make([]Conversation, 0, len(local)+len(remote.Sessions))}
	at := make(map[string]int, len(local))
	for _, c := range local {
		if gone[c.ID] {
			out.Removed = append(out.Removed, c.ID)
			continue
		}
		at[c.ID] = len(out.List)
		out.List = append(out.List, c)
	}
	for _, r := range remote.Sessions {
		if deleted[r.ID] || gone[r.ID] {
			continue
		}
		updated := r.UpdatedAt
		if updated.IsZero() {
			updated = r.CreatedAt
		}
		i, known := at[r.ID]
		if !known {
			at[r.ID] = len(out.List)
			out.List = append(out.List, Conversation{ID: r.ID, Title: r.Title, Updated: updated})
			out.Changed = append(out.Changed, out.List[len(out.List)-1])
			continue
		}
		c := &out.List[i]
		changed := c.Title == "" && r.Title != ""
		if changed {
			c.Title = r.Title
		}
		if updated.After(c.Updated) {
			c.Updated, changed = updated, true
		}
		if changed {
			out.Changed = append(out.Changed, *c)
		}
	}
	return out
}

// conversationsPutter is a ConversationStore that stores many entries at
// once (LocalConversations: one read and one write of the whole list).
type conversationsPutter interface {
	PutAll([]Conversation) error
}

// putAll stores every entry of list in store.
func putAll(store ConversationStore, list []Conversation) error {
	if len(list) == 0 {
		return nil
	}
	if p, ok := store.(conversationsPutter); ok {
		return p.PutAll(list)
	}
	for _, c := range list {
		if err := store.Put(c); err != nil {
			return err
		}
	}
	return nil
}
