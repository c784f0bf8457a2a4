package demo

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"stepwise/state"
	"stepwise/state/wire"
)

// MaxListed bounds GET /api/sessions: the newest sessions, and the newest
// gone ones, up to this many each.
const MaxListed = 200

// List returns owner's sessions, newest first (the time of their last
// message), and the ids of those that expired while their tombstone lasts.
// An empty owner has none.
func (a *Agent) List(owner string) (wire.SessionList, error) {
	out := wire.SessionList{Sessions: []wire.SessionSummary{}}
	if owner == "" {
		return out, nil
	}
	type goneID struct {
		id   string
		when int64
	}
	var gone []goneID
	err := a.db.View(func(tx *bolt.Tx) error {
		ob := tx.Bucket(bucketOwners).Bucket([]byte(owner))
		if ob == nil {
			return nil
		}
		sessions := tx.Bucket(bucketSessions)
		return ob.ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				gone = append(gone, goneID{string(k), int64(binary.BigEndian.Uint64(v))})
				return nil
			}
			b := sessions.Bucket(k)
			if b == nil || !bytes.Equal(v, listedLive) {
				return nil
			}
			var m sessionMeta
			if json.Unmarshal(b.Get(keyMeta), &m) != nil || m.Owner != owner {
				return nil // the index and the session disagree: the session wins
			}
			created := timeOrZero(m.Created)
			updated := timeOrZero(m.Updated)
			if updated.IsZero() {
				updated = created
			}
			out.Sessions = append(out.Sessions, wire.SessionSummary{
				ID:        string(k),
				Title:     m.Title,
				CreatedAt: created.UTC(),
				UpdatedAt: updated.UTC(),
				Running:   m.Status == string(state.StatusRunning),
			})
			return nil
		})
	})
	if err != nil {
		return wire.SessionList{}, err
	}
	slices.SortFunc(out.Sessions, func(x, y wire.SessionSummary) int {
		if c := y.UpdatedAt.Compare(x.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	if len(out.Sessions) > MaxListed {
		out.Sessions = out.Sessions[:MaxListed]
	}
	slices.SortFunc(gone, func(x, y goneID) int { return cmp.Compare(y.when, x.when) })
	for i, g := range gone {
		if i == MaxListed {
			break
		}
		out.Gone = append(out.Gone, g.id)
	}
	return out, nil
}

// Unlist takes session id off owner's list (the user deleted it from
// theirs); it is listed for nobody from then on. The session itself stays
// for whoever holds its id, until it expires. Another owner's session, or
// an unknown one, is left as it is. It returns once the data file has the
// change.
func (a *Agent) Unlist(id, owner string) error {
	if owner == "" {
		return nil
	}
	s, err := a.Attach(id)
	if err != nil {
		return err
	}
	defer s.Detach()
	s.mu.Lock()
	mine := s.owner == owner
	if mine {
		// The writer moves it out of the owner's list with the meta, in
		// order with the session's other writes.
		s.owner = ""
		s.version++
		a.markDirty(s)
	}
	s.mu.Unlock()
	if mine {
		return s.waitStored()
	}
	// It may have expired: its owner's list no longer says it is gone.
	return a.db.Update(func(tx *bolt.Tx) error {
		owners := tx.Bucket(bucketOwners)
		if ob := owners.Bucket([]byte(owner)); ob != nil && len(ob.Get([]byte(id))) == 8 {
			return unlistFrom(owners, owner, []byte(id))
		}
		return nil
	})
}

// serveList is GET /api/sessions: the caller's sessions (OwnerOf), an
// empty list for a caller without an owner cookie.
func (h *Handler) serveList(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		apiError(w, http.StatusMethodNotAllowed, "invalid_request", "the sessions list only answers GET")
		return
	}
	list, err := h.Agent.List(OwnerOf(r))
	if err != nil {
		apiError(w, http.StatusInternalServerError, "internal", "the sessions could not be read")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	// Per browser and changing with every message: never from a cache.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	json.NewEncoder(w).Encode(list)
}

// serveUnlist is DELETE /api/sessions/{id}: the caller's own session
// leaves their list (Unlist). It answers 204 whether or not the session
// was theirs, so it tells nothing of other people's sessions.
func (h *Handler) serveUnlist(w http.ResponseWriter, r *http.Request, id string) {
	if r.Method != http.MethodDelete {
		w.Header().Set("Allow", http.MethodDelete)
		apiError(w, http.StatusMethodNotAllowed, "invalid_request", "a session only answers DELETE here")
		return
	}
	if !originAllowed(r, h.OriginPatterns) {
		apiError(w, http.StatusForbidden, "forbidden", "requests from another origin are refused")
		return
	}
	if err := h.Agent.Unlist(id, OwnerOf(r)); err != nil {
		apiError(w, http.StatusServiceUnavailable, "unavailable", err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
