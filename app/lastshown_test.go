package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
// fitted; only the maxShownConversations saved last stay.
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
	for i := range maxShownConversations + 3 {
		require.NoError(t, m.Put(fmt.Sprintf("c%02d", i), start.Add(time.Duration(i)*time.Second), []byte("{}")))
	}
	assert.Len(t, m.byID, maxShownConversations)
	_, ok, _ := m.Get("c00")
	assert.False(t, ok, "the oldest went")
	_, ok, _ = m.Get(fmt.Sprintf("c%02d", maxShownConversations+2))
	assert.True(t, ok)
}
