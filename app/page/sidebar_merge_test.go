package page

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"stepwise/app/persist"
	"stepwise/state/wire"
)

func TestMergeRemote(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	local := []entry{
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
	persist.Sort(m.List)
	got := map[string]entry{}
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
