package native

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

// Issue 37.3: the snapshot is the history and the events since; loaded
// again it shows what the page showed.
func TestLastShownShowsWhatWasShown(t *testing.T) {
	h, err := wire.DecodeHistory([]byte(`{"session_id":"s","agent_status":"idle","messages":[{"role":"user","content":"Plan my trip"}]}`))
	require.NoError(t, err)
	events := [][]byte{
		[]byte(`{"type":"user_message","text":"And Hue?","event_id":1}`),
		[]byte(`{"type":"message_start","message":{"id":"m"},"event_id":2}`),
	}
	live := state.New(state.Options{})
	live.LoadHistory(h)
	for _, e := range events {
		live.ApplyJSON(e)
	}

	var r shownRecorder
	r.applied(events) // before any history: nothing to keep
	data, err := r.snapshot(time.Now())
	require.NoError(t, err)
	assert.Nil(t, data)
	r.loaded(h)
	r.applied(events)
	at := time.UnixMilli(1_700_000_000_000)
	data, err = r.snapshot(at)
	require.NoError(t, err)
	again, _ := r.snapshot(at)
	assert.Nil(t, again, "nothing changed since")

	snap, ok := decodeLastShown(data)
	require.True(t, ok)
	assert.Equal(t, at.UnixMilli(), snap.Saved)
	kept, err := wire.DecodeHistory(snap.History)
	require.NoError(t, err)
	shown := state.New(state.Options{})
	shown.LoadHistory(kept)
	for _, e := range snap.Events {
		shown.ApplyJSON(e)
	}
	a, _ := json.Marshal(live.View())
	b, _ := json.Marshal(shown.View())
	assert.JSONEq(t, string(a), string(b))

	_, ok = decodeLastShown([]byte(`{"saved":1}`))
	assert.False(t, ok, "no history: no snapshot")
}

// Bounded: a conversation past maxShownBytes keeps its last snapshot that
// fitted; only the MaxShownConversations saved last stay.
func TestLastShownBounds(t *testing.T) {
	h := &wire.History{SessionID: "s", AgentStatus: "idle"}
	var r shownRecorder
	r.loaded(h)
	_, err := r.snapshot(time.Now())
	require.NoError(t, err)
	big := []byte(`{"type":"text","text":"` + strings.Repeat("x", maxShownBytes) + `"}`)
	r.applied([][]byte{big})
	_, err = r.snapshot(time.Now())
	assert.ErrorIs(t, err, errTooBig)

	m := &memoryShown{}
	start := time.Now()
	for i := range MaxShownConversations + 3 {
		require.NoError(t, m.Put(fmt.Sprintf("c%02d", i), start.Add(time.Duration(i)*time.Second), []byte("{}")))
	}
	assert.Len(t, m.byID, MaxShownConversations)
	_, ok, _ := m.Get("c00")
	assert.False(t, ok, "the oldest went")
	_, ok, _ = m.Get(fmt.Sprintf("c%02d", MaxShownConversations+2))
	assert.True(t, ok)
}

// memoryShown is a Shown in memory, for tests.
type memoryShown struct {
	mu    sync.Mutex
	byID  map[string][]byte
	saved map[string]time.Time
}

func (m *memoryShown) Put(id string, saved time.Time, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byID == nil {
		m.byID, m.saved = map[string][]byte{}, map[string]time.Time{}
	}
	m.byID[id], m.saved[id] = data, saved
	for _, old := range oldestBeyond(m.saved, MaxShownConversations) {
		delete(m.byID, old)
		delete(m.saved, old)
	}
	return nil
}

func (m *memoryShown) Get(id string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.byID[id]
	return d, ok, nil
}

func (m *memoryShown) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byID)
}

func (m *memoryShown) Delete(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
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

// keeperPage applies a keeper's events as the page's update would,
// resolving backend.Of; the keeper's goroutines hand theirs over on
// events.
type keeperPage struct {
	k       *keeper
	events  chan backend.Event
	applied []backend.Event
}

func newKeeperPage(store Shown) *keeperPage {
	p := &keeperPage{events: make(chan backend.Event, 64)}
	p.k = &keeper{store: store, id: "s1", deliver: func(ev backend.Event) { p.events <- ev },
		after: func(_ time.Duration, f func()) { f() }, now: time.Now}
	return p
}

// next applies the next event delivered.
func (p *keeperPage) next(t *testing.T) {
	t.Helper()
	select {
	case ev := <-p.events:
		if of, ok := ev.(backend.Of); ok {
			p.applied = append(p.applied, of.Events(nil)...)
			return
		}
		p.applied = append(p.applied, ev)
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was delivered")
	}
}

// Issue 37.3: what a live conversation showed is kept, and a reload that
// cannot reach the server before the history came shows it; once the
// history came, or without a copy, it does not.
func TestKeeperShowsWhatWasLastShownOffline(t *testing.T) {
	store := &memoryShown{}
	live := newKeeperPage(store)
	h, err := wire.DecodeHistory([]byte(`{"session_id":"s1","agent_status":"idle","messages":[{"role":"user","content":"Plan my trip"}]}`))
	require.NoError(t, err)
	live.k.history(h)
	live.next(t) // the snapshot is due
	live.next(t) // written
	require.Equal(t, 1, store.len())
	live.k.frames([][]byte{[]byte(`{"type":"user_message","text":"And Hue?","event_id":1}`)})
	live.next(t)
	live.next(t)

	reload := newKeeperPage(store)
	reload.k.offline()
	reload.next(t)
	require.Len(t, reload.applied, 1)
	loaded, ok := reload.applied[0].(backend.Loaded)
	require.True(t, ok)
	assert.False(t, loaded.LastShown.IsZero())
	assert.Len(t, loaded.Store.Items(), 2, "the history and the event since")
	reload.k.offline()
	assert.Empty(t, reload.events, "looked for once")

	// The history came first: nothing is shown over it.
	late := newKeeperPage(store)
	late.k.offline()
	late.k.history(h)
	late.next(t)
	assert.NotContains(t, late.applied, backend.Event(backend.NotKept{}))
	for _, ev := range late.applied {
		_, isLoaded := ev.(backend.Loaded)
		assert.False(t, isLoaded)
	}

	none := newKeeperPage(&memoryShown{})
	none.k.offline()
	none.next(t)
	assert.Equal(t, []backend.Event{backend.NotKept{}}, none.applied)

	// A deleted conversation's copy goes.
	live.k.forget("s1")
	assert.Eventually(t, func() bool { return store.len() == 0 }, 10*time.Second, time.Millisecond)
}
