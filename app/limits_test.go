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
	env := map[string]string{EnvMaxFrameBytes: "1000", EnvSilenceTimeout: "5"}
	cfg = cfg.WithEnv(func(k string) string { return env[k] })
	assert.Equal(t, 1000, cfg.MaxFrameBytes)
	assert.Equal(t, 5*time.Second, cfg.SilenceTimeout)
}
