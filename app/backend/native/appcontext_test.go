package native

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
)

// Issue 41: a message carries what the page's MCP Apps told the model as
// its app_context; one without keeps the frame as it was.
func TestMessageCarriesTheAppsContext(t *testing.T) {
	list := []backend.AppContext{{ToolUseID: "t1", ResourceURI: "ui://t/app", Context: json.RawMessage(`{"k":1}`)}}
	b, err := Encode("s1", backend.Send{ID: "c2", Text: "hi", AppContext: list})
	require.NoError(t, err)
	assert.JSONEq(t, `{"command_id":"c2","type":"user_message","session_id":"s1","content":[{"type":"text","text":"hi"}],"app_context":[{"tool_use_id":"t1","resource_uri":"ui://t/app","context":{"k":1}}]}`, string(b))
	b, err = Encode("s1", backend.Send{ID: "c3", Text: "hi"})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "app_context")
}
