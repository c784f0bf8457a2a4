package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

// quotaStore keeps one conversation under a quota of bytes, as IndexedDB
// does: a put that does not fit fails with ErrStorageFull and stores
// nothing.
type quotaStore struct {
	quota  int
	stored *Saved
	puts   int
}

func (q *quotaStore) Put(rec Saved) error {
	q.puts++
	raw, _ := json.Marshal(rec)
	if len(raw) > q.quota {
		return ErrStorageFull
	}
	q.stored = &rec
	return nil
}

func (q *quotaStore) Get(id string) (Saved, bool, error) {
	if q.stored == nil || q.stored.ID != id {
		return Saved{}, false, nil
	}
	return *q.stored, true, nil
}

func (q *quotaStore) List() ([]Saved, error) {
	if q.stored == nil {
		return nil, nil
	}
	return []Saved{*q.stored}, nil
}

// aguiTurns is a saved AG-UI conversation of n turns of about size bytes
// each.
func aguiTurns(n, size int) Saved {
	c := state.AGUIConversation{ThreadID: "th"}
	text := func(s string) json.RawMessage { raw, _ := json.Marshal(s); return raw }
	for i := range n {
		pad := fmt.Sprintf("%0*d", size, i)
		c.Messages = append(c.Messages,
			wire.AGUIMessage{ID: fmt.Sprintf("u%d", i), Role: "user", Content: text(fmt.Sprintf("question %d", i))},
			wire.AGUIMessage{ID: fmt.Sprintf("a%d", i), Role: "assistant", Content: text(pad)})
	}
	return Saved{ID: "s", Protocol: "ag-ui", AGUI: &c}
}

// Issue 38.8: when the storage is full, the newest turns that fit are
// stored, as many as fit, and the count of messages left out with them.
func TestSaveNewestTurnsKeepsWhatFits(t *testing.T) {
	rec := aguiTurns(20, 1000) // ~21 KB
	all := &quotaStore{quota: 1 << 20}
	leftOut, err := saveNewestTurns(all.Put, rec, 0)
	require.NoError(t, err)
	assert.Equal(t, 0, leftOut)
	assert.Equal(t, 1, all.puts, "a conversation that fits is stored in one put")
	assert.Len(t, all.stored.AGUI.Messages, 40)

	q := &quotaStore{quota: 8000}
	leftOut, err = saveNewestTurns(q.Put, rec, 0)
	require.NoError(t, err)
	kept := q.stored.AGUI.Messages
	assert.Len(t, kept, 2*(20-leftOut))
	assert.Equal(t, "u"+fmt.Sprint(leftOut), kept[0].ID, "it starts with a message of the user's")
	assert.Equal(t, "a19", kept[len(kept)-1].ID, "the newest turn is kept")
	assert.Equal(t, 2*leftOut, q.stored.Trimmed)
	one, _ := json.Marshal(rec.withoutOldestTurns(leftOut - 1))
	assert.Greater(t, len(one), q.quota, "one turn more would not fit")
	assert.LessOrEqual(t, q.puts, 7, "a binary search, not a put per turn")

	// The next save starts from there.
	q.puts = 0
	again, err := saveNewestTurns(q.Put, rec, leftOut)
	require.NoError(t, err)
	assert.Equal(t, leftOut, again)
	assert.Equal(t, 1, q.puts)

	// Not even the newest turn fits: nothing new is stored.
	tiny := &quotaStore{quota: 500}
	_, err = saveNewestTurns(tiny.Put, rec, 0)
	assert.ErrorIs(t, err, ErrStorageFull)
	assert.Nil(t, tiny.stored)

	// Another failure ends the search with what was stored.
	broken := func(Saved) error { return errors.New("closed") }
	_, err = saveNewestTurns(broken, rec, 0)
	assert.EqualError(t, err, "closed")
}

// Trimmed adds up over saves and reloads; an AI SDK conversation is cut
// the same way.
func TestWithoutOldestTurns(t *testing.T) {
	rec := aguiTurns(3, 10)
	rec.Trimmed = 4
	cut := rec.withoutOldestTurns(2)
	assert.Equal(t, 4+4, cut.Trimmed)
	assert.Len(t, cut.AGUI.Messages, 2)
	assert.Len(t, rec.AGUI.Messages, 6, "rec itself is not changed")
	assert.Equal(t, rec, rec.withoutOldestTurns(0))

	text := func(s string) *string { return &s }
	ui := Saved{UI: &state.UIConversation{ID: "c", Messages: []wire.UIMessage{
		{ID: "1", Role: "user", Parts: []wire.UIPart{{Type: "text", Text: text("a")}}},
		{ID: "2", Role: "assistant", Parts: []wire.UIPart{{Type: "text", Text: text("b")}}},
		{ID: "3", Role: "user", Parts: []wire.UIPart{{Type: "text", Text: text("c")}}},
	}}}
	assert.Equal(t, "3", ui.withoutOldestTurns(1).UI.Messages[0].ID)
	assert.Equal(t, "3", ui.withoutOldestTurns(5).UI.Messages[0].ID, "the newest turn is never cut")
}

// The page is told once that the storage is full, and saving goes on;
// when not even the newest turn fits it stops and the page is told so.
func TestStorageFullIsSaidOnce(t *testing.T) {
	f := newFake(t, AGUI{Path: "/a"})
	store := &quotaStore{}
	f.convs = store
	assert.Equal(t, []backend.Event{backend.StorageFull{}}, f.saved(store, 3, nil))
	assert.Empty(t, f.saved(store, 4, nil), "said once")
	assert.Equal(t, 4, f.leftOut)
	assert.Equal(t, []backend.Event{backend.StorageRefused{}}, f.saved(store, 0, ErrStorageFull))
	assert.Nil(t, f.convs, "nothing more is saved")
}

// Saves run one at a time, from what the last left out, and a
// conversation restored with its oldest turns left out says so and keeps
// counting them.
func TestSavesOneAtATimeAndKeepTrimmed(t *testing.T) {
	f := newFake(t, AGUI{Path: "/a"})
	rec := aguiTurns(20, 1000)
	rec.ID, rec.Trimmed = "s1", 6
	store := &quotaStore{quota: 8000, stored: &rec}
	f.cfg.Conversations = func() (Conversations, error) { return store, nil }
	done := make(chan backend.Event, 16)
	f.deliver = func(ev backend.Event) { done <- ev }
	f.restore()
	f.apply(<-done)
	assert.Contains(t, f.applied, backend.Event(backend.Trimmed{}))
	assert.Equal(t, 6, f.trimmed)

	f.Do(backend.Save{}, f.conv)
	f.Do(backend.Save{}, f.conv) // while the first is under way
	assert.True(t, f.saveAgain)
	f.apply(<-done) // the first's outcome starts the second
	f.apply(<-done)
	assert.False(t, f.saving)
	assert.Contains(t, f.applied, backend.Event(backend.StorageFull{}))
	assert.Greater(t, store.stored.Trimmed, 6, "what was left out before is still counted")
}
