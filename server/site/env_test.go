package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The client's settings (server flags: -protocol, -agent-name, ...) reach
// the page through go-app's Env, in app.js.
func TestEnvReachesThePage(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir, Env: map[string]string{"STEPWISE_PAGE_PROTOCOL": "ai-sdk", "STEPWISE_PAGE_AGENT_NAME": "Helper"}})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/app.js")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	assert.Contains(t, string(body), `"STEPWISE_PAGE_PROTOCOL":"ai-sdk"`)
	assert.Contains(t, string(body), `"STEPWISE_PAGE_AGENT_NAME":"Helper"`)
}
