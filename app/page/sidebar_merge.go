package page

import "stepwise/state/wire"

// The backend's list of the caller's sessions (backend.Traits.Sessions)
// is merged into the browser's once at start: sessions only the backend
// knows (the browser's storage was cleared, another tab of this browser)
// join it, titles come from the backend where the browser has none, and
// the sessions it says expired leave it. A backend without the list
// changes nothing.

// remoteMerge is what merging a backend's list changes.
type remoteMerge struct {
	List    []entry  // the merged list (unsorted)
	Changed []entry  // entries to store: new, or given a title or a newer time
	Removed []string // entries to forget: the backend says they expired
}

// mergeRemote merges a backend's list into the browser's. open is the
// page's conversation (kept even when the backend says it expired: it is on
// screen, and a message starts it over); deleted are the ids the user
// deleted in this page (never brought back).
func mergeRemote(local []entry, remote wire.SessionList, open string, deleted map[string]bool) remoteMerge {
	gone := make(map[string]bool, len(remote.Gone))
	for _, id := range remote.Gone {
		gone[id] = id != open
	}
	out := remoteMerge{List: make([]entry, 0, len(local)+len(remote.Sessions))}
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
			out.List = append(out.List, entry{ID: r.ID, Title: r.Title, Updated: updated})
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
