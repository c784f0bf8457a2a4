package agentproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An AI SDK application's MCP Apps routes reach the backend under its chat
// route, query and body as sent; nothing else under /api/chat/ does.
func TestAISDKAppRoutes(t *testing.T) {
	var got []string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+string(body))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"contents":[]}`))
	}))
	defer backend.Close()
	h, err := New(AISDK, backend.URL+"/api/chat")
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/api/chat/mcp-apps/resource?uri=ui%3A%2F%2Fx%2Fy&session_id=c1")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Post(srv.URL+"/api/chat/mcp-apps/tool-calls", "application/json", strings.NewReader(`{"name":"t","arguments":{}}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(srv.URL + "/api/chat/mcp-apps/other")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, []string{
		"GET /api/chat/mcp-apps/resource?uri=ui%3A%2F%2Fx%2Fy&session_id=c1 ",
		`POST /api/chat/mcp-apps/tool-calls {"name":"t","arguments":{}}`,
	}, got)
}
