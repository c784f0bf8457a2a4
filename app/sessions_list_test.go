package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func TestDecodeSessionListDistrustsTheBackend(t *testing.T) {
	long := strings.Repeat("x", 500)
	l, err := decodeSessionList([]byte(`{"sessions":[
		{"id":"ok1","title":"  Plan  my trip\nsecond line","created_at":"2026-01-01T10:00:00Z","updated_at":"2026-01-02T10:00:00Z","running":true},
		{"id":"../etc","title":"bad id"},
		{"id":"long","title":"` + long + `"}],
		"gone":["g1","bad/id"], "extra": 1}`))
	require.NoError(t, err)
	require.Len(t, l.Sessions, 2)
	assert.Equal(t, "Plan my trip", l.Sessions[0].Title)
	assert.True(t, l.Sessions[0].Running)
	assert.Equal(t, time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC), l.Sessions[0].UpdatedAt)
	assert.Equal(t, MaxTitleRunes, len([]rune(l.Sessions[1].Title)))
	assert.Equal(t, []string{"g1"}, l.Gone)

	for _, body := range []string{`<!doctype html><title>Not found</title>`, ``, `[1,2]`} {
		_, err := decodeSessionList([]byte(body))
		assert.Error(t, err, "%q is not a list: the browser's own stays", body)
	}
	l, err = decodeSessionList([]byte(`{}`))
	require.NoError(t, err)
	assert.Empty(t, l.Sessions)
}

// One malformed entry (a bad created_at, a title that is not a string,
// an entry that is not an object) is skipped; the others are kept.
func TestDecodeSessionListSkipsMalformedEntries(t *testing.T) {
	l, err := decodeSessionList([]byte(`{"sessions":[
		{"id":"a","title":"first","created_at":"2026-01-01T10:00:00Z"},
		{"id":"b","title":"bad time","created_at":"yesterday"},
		{"id":"c","title":7},
		"d",
		{"id":"e","title":"last","updated_at":"2026-01-02T10:00:00Z"}],
		"gone":["g1", 42, {"id":"g2"}, "g3"]}`))
	require.NoError(t, err)
	var ids []string
	for _, s := range l.Sessions {
		ids = append(ids, s.ID)
	}
	assert.Equal(t, []string{"a", "e"}, ids)
	assert.Equal(t, []string{"g1", "g3"}, l.Gone)
}

func TestMergeRemote(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	local := []Conversation{
		{ID: "both", Title: "", Updated: t0},                                         // sent before its title was kept
		{ID: "renamed", Title: "My name", Renamed: true, Updated: t0.Add(time.Hour)}, // the user's name stays
		{ID: "mine", Title: "only here", Updated: t0},                                // the backend does not list it: it stays
		{ID: "expired", Title: "old", Updated: t0.Add(-time.Hour)},
		{ID: "open", Title: "on screen", Updated: t0},
	}
	remote := wire.SessionList{
		Sessions: []wire.SessionSummary{
			{ID: "both", Title: "From the server", UpdatedAt: t0.Add(2 * time.Hour)},
			{ID: "renamed", Title: "First message", UpdatedAt: t0},
			{ID: "server-only", Title: "Listed again", CreatedAt: t0.Add(-2 * time.Hour)},
			{ID: "deleted-here", Title: "x", UpdatedAt: t0},
		},
		Gone: []string{"expired", "open", "unknown"},
	}
	m := mergeRemote(local, remote, "open", map[string]bool{"deleted-here": true})
	sortConversations(m.List)
	got := map[string]Conversation{}
	var order []string
	for _, c := range m.List {
		got[c.ID] = c
		order = append(order, c.ID)
	}
	assert.Equal(t, []string{"both", "renamed", "mine", "open", "server-only"}, order, "newest first")
	assert.Equal(t, "From the server", got["both"].Title, "a title where the browser had none")
	assert.True(t, got["both"].Updated.Equal(t0.Add(2*time.Hour)), "the newer time")
	assert.Equal(t, "My name", got["renamed"].Title)
	assert.True(t, got["renamed"].Updated.Equal(t0.Add(time.Hour)), "an older server time changes nothing")
	assert.Equal(t, "Listed again", got["server-only"].Title)
	assert.True(t, got["server-only"].Updated.Equal(t0.Add(-2*time.Hour)), "created_at when it has no updated_at")
	assert.NotContains(t, got, "expired", "the backend says it expired")
	assert.Contains(t, got, "open", "the open one stays, even expired")
	assert.NotContains(t, got, "deleted-here", "deleted in this page: never brought back")

	var changed []string
	for _, c := range m.Changed {
		changed = append(changed, c.ID)
	}
	assert.ElementsMatch(t, []string{"both", "server-only"}, changed)
	assert.Equal(t, []string{"expired"}, m.Removed)
	assert.Equal(t, "", local[0].Title, "the local list is not written into")

	// A backend with an empty list changes nothing.
	m = mergeRemote(local, wire.SessionList{}, "open", nil)
	assert.Equal(t, local, m.List)
	assert.Empty(t, m.Changed)
	assert.Empty(t, m.Removed)
}

func TestPutAllFallsBackToPut(t *testing.T) {
	m := &MemoryConversations{}
	require.NoError(t, putAll(m, []Conversation{{ID: "a"}, {ID: "b"}, {ID: "a", Title: "t"}}))
	list, _ := m.List()
	assert.Equal(t, []Conversation{{ID: "a", Title: "t"}, {ID: "b"}}, list)
}
