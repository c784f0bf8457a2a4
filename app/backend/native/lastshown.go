package native

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

// What a native conversation last showed, kept in the browser so that a
// reload without the server (offline, the server down) shows it instead of
// an empty page (docs/interaction.md, "What survives a reload"). It is the
// history the page last loaded and the stream events applied since, as
// they came: loaded again into a store of its own they show what the page
// showed. The page marks it as such until the live history replaces it.
// The AG-UI and AI SDK backends keep their conversations themselves
// (package agent).

// The bounds of what is kept: the newest snapshots by the time they were
// saved, each at most maxShownBytes of JSON. A conversation that grows
// past it keeps its last snapshot that fitted.
const (
	MaxShownConversations = 20
	maxShownBytes         = 4 << 20
)

// Shown keeps snapshots by conversation id (IndexedDB in the browser:
// package persist). Put keeps only the MaxShownConversations most
// recently saved. Its methods block: the backend calls them on a
// goroutine of their own, never in the page's update.
type Shown interface {
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
// and makes its snapshot. It is changed only in the page's update.
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

// shownDelay batches the snapshots of a streaming run.
const shownDelay = time.Second

// keeper keeps what the page last showed of a live conversation in Shown,
// and brings it back when a reload cannot reach the server before the
// history came. Its fields are changed only in the page's update (the
// events it sees come as backend.Of); the store is read and written on
// goroutines of their own.
type keeper struct {
	store   Shown // nil: nothing is kept
	id      string
	opts    state.Options
	deliver func(backend.Event)
	// after runs f after d (time.AfterFunc; tests run it at once).
	after func(d time.Duration, f func())
	now   func() time.Time

	recorder shownRecorder
	queued   bool // a snapshot is due
	saving   bool // one is being written
	live     bool // the live history has come: no snapshot is shown again
	tried    bool // the snapshot was looked for
}

// in delivers what f returns once it is applied, in the page's update,
// where f may change the keeper.
func (k *keeper) in(f func() []backend.Event) {
	k.deliver(backend.Of{Events: func(*state.Store) []backend.Event { return f() }})
}

// history follows a live history (nil: a reset without one, after which
// nothing newer is kept): the page now shows it.
func (k *keeper) history(h *wire.History) {
	k.live = true
	if h == nil {
		k.recorder = shownRecorder{}
	}
	if k.store == nil || h == nil {
		return
	}
	k.recorder.loaded(h)
	k.schedule()
}

// frames follows the stream events the page applies.
func (k *keeper) frames(frames [][]byte) {
	if k.store == nil || !k.live {
		return
	}
	k.recorder.applied(frames)
	k.schedule()
}

func (k *keeper) schedule() {
	if k.queued || k.saving {
		k.queued = true
		return
	}
	k.queued = true
	k.after(shownDelay, func() { k.in(k.save) })
}

// save writes the snapshot, one at a time.
func (k *keeper) save() []backend.Event {
	k.queued = false
	now := k.now()
	data, err := k.recorder.snapshot(now)
	if err != nil || data == nil {
		return nil // too big: the last snapshot that fitted stays
	}
	k.saving = true
	go func() {
		k.store.Put(k.id, now, data) // a browser that refuses keeps nothing: the page works as before
		k.in(func() []backend.Event {
			k.saving = false
			if k.queued {
				k.queued = false
				k.schedule()
			}
			return nil
		})
	}()
	return nil
}

// offline: the page cannot reach its server. Before the live history
// came, what the conversation last showed is looked for, once, and
// shown while the history has still not come (backend.Loaded with
// LastShown); without one, the page is told nothing was kept.
func (k *keeper) offline() {
	if k.store == nil || k.live || k.tried || k.id == "" {
		return
	}
	k.tried = true
	go func() {
		loaded, at, ok := k.load()
		k.in(func() []backend.Event {
			switch {
			case k.live:
				return nil // the server answered meanwhile
			case !ok:
				return []backend.Event{backend.NotKept{}}
			}
			all := state.Changes{List: true, Status: true, Pending: true, Sources: true}
			return []backend.Event{backend.Loaded{Store: loaded, Changes: all, LastShown: at}}
		})
	}()
}

// load reads the snapshot into a store of its own.
func (k *keeper) load() (*state.Store, time.Time, bool) {
	data, ok, _ := k.store.Get(k.id)
	if !ok {
		return nil, time.Time{}, false
	}
	snap, ok := decodeLastShown(data)
	if !ok {
		return nil, time.Time{}, false
	}
	h, err := wire.DecodeHistory(snap.History)
	if err != nil {
		return nil, time.Time{}, false
	}
	loaded := state.New(k.opts)
	loaded.LoadHistory(h)
	for _, e := range snap.Events {
		loaded.ApplyJSON(e)
	}
	return loaded, time.UnixMilli(snap.Saved), true
}

// forget deletes the snapshot of a conversation the person deleted.
func (k *keeper) forget(id string) {
	if store := k.store; store != nil {
		go store.Delete(id)
	}
}
