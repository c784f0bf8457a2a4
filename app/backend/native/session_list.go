package native

import (
	"encoding/json"

	"stepwise/state/wire"
)

// The backend's list of the caller's sessions (the optional GET
// /api/sessions, Config.SessionsPath). The conversations list is the
// browser's own (app/persist); when the backend also lists the
// caller's sessions, the page merges that list in once at start: sessions
// only the backend knows (the browser's storage was cleared, another tab
// of this browser) join it, titles come from the backend where the browser
// has none, and the sessions it says expired leave it. A backend without
// the endpoint (404, an error, anything but its JSON) changes nothing: the
// list stays the browser's. The AG-UI and AI SDK modes have no such
// endpoint.

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
			s.Title = wire.SessionTitle(s.Title)
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
