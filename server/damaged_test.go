package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runToExit runs the server with these flags until it exits, and returns
// its exit code and what it wrote to stderr.
func runToExit(t *testing.T, args ...string) (int, string) {
	t.Helper()
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STEPWISE_TEST_SERVE="+string(raw))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), stderr.String()
	}
	require.NoError(t, err)
	return 0, stderr.String()
}

// A damaged data file stops the server with a message that names it and
// says how to start anew; with -set-aside-damaged-data it starts, the
// damaged file kept aside. Never a Go panic.
func TestDamagedDataFileAtStart(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "stepwise.db")
	args := []string{"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", data}
	s := startServer(t, args...)
	require.Equal(t, 0, s.stop())
	file, err := os.ReadFile(data)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(data, file[:len(file)/2], 0o600)) // truncated

	code, stderr := runToExit(t, args...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "stepwise: data file "+data+" is damaged")
	assert.Contains(t, stderr, "-set-aside-damaged-data")
	assert.NotContains(t, stderr, "panic")
	assert.NotContains(t, stderr, "goroutine")

	s = startServer(t, append(args, "-set-aside-damaged-data")...)
	aside, _ := filepath.Glob(data + ".damaged-*")
	assert.Len(t, aside, 1)
	assert.Equal(t, 0, s.stop())
}
