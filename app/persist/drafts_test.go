package persist

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 37 (minor): what is typed and not sent is kept per conversation
// and comes back with the page; sent, it goes.
func TestDraftsKeptPerConversation(t *testing.T) {
	kv := &MemoryKeyValues{}
	now := time.Now()
	require.NoError(t, SaveDraft(kv, "A", Draft{Text: "half a thought", Forms: map[string]string{"k": "[1]"}}, now))
	require.NoError(t, SaveDraft(kv, "B", Draft{Text: "another"}, now))
	a := LoadDraft(kv, "A")
	assert.Equal(t, "half a thought", a.Text)
	assert.Equal(t, "[1]", a.Forms["k"])
	assert.Equal(t, "another", LoadDraft(kv, "B").Text)
	require.NoError(t, SaveDraft(kv, "A", Draft{}, now))
	_, ok, _ := kv.Get(DraftKeyPrefix + "A")
	assert.False(t, ok, "an empty draft leaves nothing behind")

	// Bounded: a huge text is cut, and only the newest conversations stay.
	require.NoError(t, SaveDraft(kv, "C", Draft{Text: strings.Repeat("é", MaxDraftBytes), Forms: map[string]string{"k": "x"}}, now))
	c := LoadDraft(kv, "C")
	assert.LessOrEqual(t, len(c.Text), MaxDraftBytes)
	assert.Empty(t, c.Forms)
	for i := range MaxDrafts + 5 {
		require.NoError(t, SaveDraft(kv, fmt.Sprintf("S%03d", i), Draft{Text: "t"}, now.Add(time.Duration(i)*time.Second)))
	}
	keys, _ := kv.Keys()
	assert.Len(t, keys, MaxDrafts)
	assert.Empty(t, LoadDraft(kv, "B").Text, "the oldest went")
	assert.Equal(t, "t", LoadDraft(kv, fmt.Sprintf("S%03d", MaxDrafts+4)).Text)

	// A browser that refuses storage keeps nothing and fails nothing.
	refused := &MemoryKeyValues{Refuse: true}
	assert.Equal(t, Draft{}, LoadDraft(refused, "A"))
}
