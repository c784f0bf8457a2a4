//go:build !(js && wasm)

package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"stepwise/server/agentproxy"
	"stepwise/server/demo"
)

// The page's limits are the server's own.
func TestLimitsAreTheServers(t *testing.T) {
	cfg := DefaultConfig()
	assert.Equal(t, demo.MaxFrameBytes, cfg.MaxFrameBytes)
	assert.Equal(t, agentproxy.MaxBody, cfg.MaxRequestBytes)
	assert.Equal(t, int64(demo.DefaultMaxUploadBytes), cfg.MaxUploadBytes)
	assert.Equal(t, demo.DefaultMaxMessageFiles, cfg.MaxUploadFiles)
	assert.Equal(t, int64(demo.DefaultMaxMessageBytes), cfg.MaxMessageUploadBytes)
	env := map[string]string{EnvMaxFrameBytes: "1000", EnvSilenceTimeout: "5",
		EnvMaxUploadBytes: "0", EnvMaxUploadFiles: "3", EnvMaxMessageUploadBytes: "3000000000", EnvFilesPath: "/x/{session_id}/up"}
	cfg = cfg.WithEnv(func(k string) string { return env[k] })
	assert.Equal(t, 1000, cfg.MaxFrameBytes)
	assert.Equal(t, 5*time.Second, cfg.SilenceTimeout)
	assert.Equal(t, int64(0), cfg.MaxUploadBytes, "0: no files")
	assert.Equal(t, 3, cfg.MaxUploadFiles)
	assert.Equal(t, int64(3_000_000_000), cfg.MaxMessageUploadBytes)
	assert.Equal(t, "/x/{session_id}/up", cfg.FilesPath)
}
