package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"stepwise/state/wire"
)

// What a native conversation last showed, kept in the browser so that a
// reload without the server (offline, the server down) shows it instead of
// an empty page (docs/interaction.md, "What survives a reload"). It is the
// history the page last loaded and the stream events applied since, as
// they came: loaded again into a store of its own they show what the page
// showed. The page marks it as such until the live history replaces it.
// The AG-UI and AI SDK modes keep their conversations themselves
// (agent_saving.go).

// The bounds of what is kept: the newest snapshots by the time they were
// saved, each at most maxShownBytes of JSON. A conversation that grows
// past it keeps its last snapshot that fitted.
const (
	maxShownConversations = 20
	maxShownBytes         = 4 << 20
)

// shownStore keeps snapshots by conversation id (IndexedDB in the
// browser: storage_js.go). Put keeps only the maxShownConversations most
// recently saved. Its methods block: call them off the UI goroutine.
type shownStore interface {
	Put(id string, saved time.Time, data []byte) error
	// Get returns the snapshot of id; ok is false when there is none.
	Get(id string) (data []byte, ok bool, err error)
	Delete(id string) error
}

// lastShown is the snapshot of one conversation: the history (as JSON)
// and the events since, and when it was saved.
type lastShown struct {
	Saved   int64             `json:"saved"` // Unix milliseconds
	History json.RawMessage   `json:"history"`
	Events  []json.RawMessage `json:"events,omitempty"`
}

// errTooBig: the snapshot would be larger than maxShownBytes.
var errTooBig = errors.New("the conversation is too large to keep for offline reading")

// shownRecorder follows what the page shows of a live native conversation
// and makes its snapshot. It runs on the UI goroutine.
type shownRecorder struct {
	history *wire.History   // the history last loaded, nil before one
	raw     json.RawMessage // history as JSON, made at the first snapshot
	events  [][]byte        // the events applied since
	size    int             // bytes of raw (once made) and events
	tooBig  bool            // the events went past maxShownBytes: no newer snapshot
	changed bool            // shown since the last snapshot
}

// loaded starts again from a history.
func (r *shownRecorder) loaded(h *wire.History) {
	*r = shownRecorder{history: h, changed: true}
}

// applied records events applied after the history.
func (r *shownRecorder) applied(events [][]byte) {
	if r.history == nil || r.tooBig {
		return
	}
	for _, e := range events {
		r.size += len(e) + 1
		r.events = append(r.events, e)
	}
	if r.size > maxShownBytes {
		r.tooBig, r.events = true, nil
		return
	}
	r.changed = true
}

// snapshot returns the JSON to keep, and marks it kept; errTooBig when it
// would not fit, nil data when nothing changed.
func (r *shownRecorder) snapshot(now time.Time) ([]byte, error) {
	if r.tooBig {
		return nil, errTooBig
	}
	if r.history == nil || !r.changed {
		return nil, nil
	}
	if r.raw == nil {
		raw, err := json.Marshal(r.history)
		if err != nil {
			return nil, err
		}
		r.raw = raw
		r.size += len(raw)
		if r.size > maxShownBytes {
			r.tooBig = true
			return nil, errTooBig
		}
	}
	r.changed = false
	// Written out by hand: the history is JSON already, and marshalling
	// lastShown would check and copy all of it again.
	var b bytes.Buffer
	b.Grow(r.size + 64)
	b.WriteString(`{"saved":`)
	b.WriteString(strconv.FormatInt(now.UnixMilli(), 10))
	b.WriteString(`,"history":`)
	b.Write(r.raw)
	b.WriteString(`,"events":[`)
	for i, e := range r.events {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e)
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// decodeLastShown reads a snapshot; an unreadable one is no snapshot.
func decodeLastShown(data []byte) (lastShown, bool) {
	var s lastShown
	if json.Unmarshal(data, &s) != nil || len(s.History) == 0 {
		return lastShown{}, false
	}
	return s, true
}

// memoryShown is a shownStore in memory, for tests.
type memoryShown struct {
	byID  map[string][]byte
	saved map[string]time.Time
}

func (m *memoryShown) Put(id string, saved time.Time, data []byte) error {
	if m.byID == nil {
		m.byID, m.saved = map[string][]byte{}, map[string]time.Time{}
	}
	m.byID[id], m.saved[id] = data, saved
	for _, old := range oldestBeyond(m.saved, maxShownConversations) {
		delete(m.byID, old)
		delete(m.saved, old)
	}
	return nil
}

func (m *memoryShown) Get(id string) ([]byte, bool, error) {
	d, ok := m.byID[id]
	return d, ok, nil
}

func (m *memoryShown) Delete(id string) error {
	delete(m.byID, id)
	delete(m.saved, id)
	return nil
}

// oldestBeyond returns the ids to forget so that only the keep most
// recently saved stay.
func oldestBeyond(saved map[string]time.Time, keep int) []string {
	if len(saved) <= keep {
		return nil
	}
	ids := make([]string, 0, len(saved))
	for id := range saved {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if c := saved[a].Compare(saved[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return ids[:len(ids)-keep]
}
