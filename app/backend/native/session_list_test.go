package native

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
	assert.Equal(t, wire.MaxTitleRunes, len([]rune(l.Sessions[1].Title)))
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
