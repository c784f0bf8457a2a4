package agent

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state"
)

// Issue 41: what the page's MCP Apps told the model goes with the next
// message's run: AG-UI's context entries, the AI SDK's mcpAppContext.
func TestSendCarriesTheAppsContext(t *testing.T) {
	list := []backend.AppContext{{ToolUseID: "t1", ResourceURI: "ui://t/app", Context: json.RawMessage(`{"content":[{"type":"text","text":"newest"}]}`)}}

	f := newFake(t, AGUI{Path: "/a"})
	_, err := f.conv.ApplyLocal(state.UserSent{Text: "go"})
	require.NoError(t, err)
	require.NoError(t, f.Do(backend.Send{ID: "c1", Text: "go", AppContext: list}, f.conv))
	var in struct {
		Context []struct{ Description, Value string }
	}
	require.NoError(t, json.Unmarshal(f.requests[0].req.Body, &in))
	require.Len(t, in.Context, 1)
	assert.Contains(t, in.Context[0].Description, "ui://t/app")
	assert.JSONEq(t, `{"content":[{"type":"text","text":"newest"}]}`, in.Context[0].Value)

	g := newFake(t, AISDK{Path: "/api/chat"})
	_, err = g.conv.ApplyLocal(state.UserSent{Text: "go"})
	require.NoError(t, err)
	require.NoError(t, g.Do(backend.Send{ID: "c1", Text: "go", AppContext: list}, g.conv))
	var body struct {
		MCPAppContext []backend.AppContext `json:"mcpAppContext"`
		Messages      []json.RawMessage
	}
	require.NoError(t, json.Unmarshal(g.requests[0].req.Body, &body))
	assert.Equal(t, list, body.MCPAppContext)
	assert.Len(t, body.Messages, 1, "the request is otherwise the same")

	h := newFake(t, AISDK{Path: "/api/chat"})
	h.conv.ApplyLocal(state.UserSent{Text: "go"})
	require.NoError(t, h.Do(backend.Send{ID: "c1", Text: "go"}, h.conv))
	assert.NotContains(t, string(h.requests[0].req.Body), "mcpAppContext", "none without apps")
}
