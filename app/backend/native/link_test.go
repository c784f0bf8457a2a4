package native

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state/wire"
)

// recorded is what a link delivered, in order.
type recorded struct {
	frames  [][]string
	results []backend.Outcome
	resets  []string // each reset's history's last id, "failed" without one
	history []string
}

// testLink is a link whose history GETs answer history (an error if "").
func testLink(history string) (*link, *recorded) {
	rec := &recorded{}
	l := &link{
		Config: Config{SessionID: "s", HistoryPath: "/h/{session_id}"},
		fetch: func(url string) ([]byte, error) {
			if history == "" {
				return nil, errors.New("no history")
			}
			return []byte(history), nil
		},
		pause: func() {},
	}
	l.Events = Events{
		OnHistory: func(h *wire.History) {
			id, _ := wire.ParseEventID(h.LastEventID)
			rec.history = append(rec.history, id.String())
		},
		OnFrames: func(fs [][]byte) {
			var got []string
			for _, f := range fs {
				got = append(got, string(f))
			}
			rec.frames = append(rec.frames, got)
		},
		OnResult: func(o backend.Outcome) { rec.results = append(rec.results, o) },
		OnReset: func(h *wire.History, last wire.EventID) {
			if h == nil {
				rec.resets = append(rec.resets, "failed")
				return
			}
			id, _ := wire.ParseEventID(h.LastEventID)
			rec.resets = append(rec.resets, id.String()+"/"+last.String())
		},
	}
	return l, rec
}

func ev(id string) string { return `{"type":"ping","event_id":"` + id + `"}` }

func frames(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, f := range s {
		out[i] = []byte(f)
	}
	return out
}

// Frames received together are passed on together; a command's result or
// a reset among them keeps its place; an event delivered before (a
// backend replaying after a reconnect) is not delivered again.
func TestLinkDeliversInOrderOnce(t *testing.T) {
	l, rec := testLink(`{"messages":[],"last_event_id":"9"}`)
	l.receiveAll(frames(ev("1"), ev("2"), `{"type":"command_result","command_id":"c1","ok":true}`, ev("3")))
	assert.Equal(t, [][]string{{ev("1"), ev("2")}, {ev("3")}}, rec.frames)
	assert.Equal(t, []backend.Outcome{{CommandID: "c1"}}, rec.results)

	l.receiveAll(frames(ev("2"), ev("3"), ev("4")))
	assert.Equal(t, []string{ev("4")}, rec.frames[2], "replayed events are dropped")

	l.receiveAll(frames(ev("5"), `{"type":"reset","last_event_id":"7","reason":"unknown_event_id"}`, ev("8")))
	assert.Equal(t, []string{ev("5")}, rec.frames[3], "what came before the reset first")
	assert.Equal(t, []string{"9/7"}, rec.resets)
	assert.Equal(t, []string{ev("8")}, rec.frames[4])
	assert.Equal(t, "8", l.last.String(), "placed after the server's newest id (its history has no messages), then the last delivered")
}

// A reset whose history cannot be loaded still places the stream after
// the server's newest id.
func TestLinkResetWithoutHistory(t *testing.T) {
	l, rec := testLink("")
	l.last = wire.MakeEventID("40")
	l.receiveAll(frames(`{"type":"reset","last_event_id":"3"}`, ev("2"), ev("4")))
	assert.Equal(t, []string{"failed"}, rec.resets)
	assert.True(t, l.wasReset)
	assert.Equal(t, [][]string{{ev("4")}}, rec.frames, "after the server's newest id, not the page's")
}

// The history is loaded and the stream resumed after its id.
func TestLinkLoadsTheHistory(t *testing.T) {
	l, rec := testLink(`{"messages":[{"role":"user","content":"hi"}],"last_event_id":"12"}`)
	require.NoError(t, l.loadHistory())
	assert.Equal(t, []string{"12"}, rec.history)
	l.receiveAll(frames(ev("12"), ev("13")))
	assert.Equal(t, [][]string{{ev("13")}}, rec.frames)

	bad, _ := testLink("")
	assert.Error(t, bad.loadHistory())
}

// Frames wait for the connection, MaxQueued at most.
func TestLinkQueue(t *testing.T) {
	l, _ := testLink("")
	for i := range MaxQueued {
		require.NoError(t, l.enqueueLocked([]byte(strings.Repeat("x", i))))
	}
	assert.ErrorIs(t, l.enqueueLocked([]byte("one too many")), backend.ErrOffline)
	assert.Len(t, l.takeQueueLocked(), MaxQueued)
	assert.Empty(t, l.takeQueueLocked())
}
