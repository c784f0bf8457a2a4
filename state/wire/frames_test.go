package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrames(t *testing.T) {
	b, err := json.Marshal(NewSubscribe("s1", MakeEventID("41")))
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"subscribe","session_id":"s1","last_event_id":"41"}`, string(b))
	b, _ = json.Marshal(NewSubscribe("s1", EventID{}))
	assert.JSONEq(t, `{"type":"subscribe","session_id":"s1"}`, string(b))
	b, _ = json.Marshal(NewUserMessage("s1", "thị trường hôm nay"))
	assert.JSONEq(t, `{"type":"user_message","session_id":"s1","content":[{"type":"text","text":"thị trường hôm nay"}]}`, string(b))
	b, _ = json.Marshal(NewDecisions("s1", "k", []Decision{{Type: "approve"}}))
	assert.JSONEq(t, `{"type":"approval","session_id":"s1","approval_key":"k","decisions":[{"type":"approve"}]}`, string(b))
	f, err := DecodeClientFrame(b)
	require.NoError(t, err)
	assert.Equal(t, "approve", f.Decisions[0].Type)
}

func TestValidSessionID(t *testing.T) {
	for id, want := range map[string]bool{
		"a":                     true,
		"demo-1_X":              true,
		strings.Repeat("a", 64): true,
		"":                      false,
		strings.Repeat("a", 65): false,
		"a/b":                   false,
		"a b":                   false,
		"..":                    false,
		"é":                     false,
		"a%2Fb":                 false,
	} {
		assert.Equal(t, want, ValidSessionID(id), "%q", id)
	}
}
