package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	client "stepwise/app"
	"stepwise/server/demo"
	"stepwise/server/site"
)

// testFlags is a flag set like the server's: plain flags, a repeatable one.
func testFlags() (*flag.FlagSet, *string, *string, *headerFlag) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	backend := fs.String("backend", "", "")
	addr := fs.String("addr", "localhost:8080", "")
	headers := &headerFlag{}
	fs.Var(headers, "backend-header", "")
	return fs, backend, addr, headers
}

func TestEnvSetsFlagsTheCommandLineLeftUnset(t *testing.T) {
	fs, backend, addr, _ := testFlags()
	require.NoError(t, fs.Parse([]string{"-addr", ":9000"}))
	unknown, err := applyEnv(fs, []string{
		"STEPWISE_BACKEND=http://agent:8000",
		"STEPWISE_ADDR=:7000", // the command line wins
		"STEPWISE_BAKEND=http://typo",
		"STEPWISE_PAGE_PROTOCOL=ag-ui", // go-app's copy of a page setting
		"PATH=/usr/bin",
		"STEPWISE_NOVALUE",
	})
	require.NoError(t, err)
	assert.Equal(t, "http://agent:8000", *backend)
	assert.Equal(t, ":9000", *addr)
	assert.Equal(t, []string{"STEPWISE_BAKEND"}, unknown)
}

func TestEnvRepeatableFlagTakesALineEach(t *testing.T) {
	fs, _, _, headers := testFlags()
	require.NoError(t, fs.Parse(nil))
	_, err := applyEnv(fs, []string{"STEPWISE_BACKEND_HEADER=Authorization: Bearer abc\r\n\nX-Tenant: acme\n"})
	require.NoError(t, err)
	assert.Equal(t, http.Header{"Authorization": {"Bearer abc"}, "X-Tenant": {"acme"}}, headers.header)

	// On the command line, the flag replaces the variable's values.
	fs, _, _, headers = testFlags()
	require.NoError(t, fs.Parse([]string{"-backend-header", "X-Key: 1"}))
	_, err = applyEnv(fs, []string{"STEPWISE_BACKEND_HEADER=Authorization: Bearer abc"})
	require.NoError(t, err)
	assert.Equal(t, http.Header{"X-Key": {"1"}}, headers.header)
}

func TestEnvFileVariant(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "headers")
	require.NoError(t, os.WriteFile(secret, []byte("Authorization: Bearer from-file\nX-Tenant: acme\n"), 0o600))
	url := filepath.Join(dir, "backend")
	require.NoError(t, os.WriteFile(url, []byte("http://agent:8000\n"), 0o600))
	fs, backend, _, headers := testFlags()
	require.NoError(t, fs.Parse(nil))
	unknown, err := applyEnv(fs, []string{"STEPWISE_BACKEND_HEADER_FILE=" + secret, "STEPWISE_BACKEND_FILE=" + url})
	require.NoError(t, err)
	assert.Empty(t, unknown)
	assert.Equal(t, "http://agent:8000", *backend, "the file's last newline is not part of the value")
	assert.Equal(t, http.Header{"Authorization": {"Bearer from-file"}, "X-Tenant": {"acme"}}, headers.header)

	fs, _, _, _ = testFlags()
	require.NoError(t, fs.Parse(nil))
	_, err = applyEnv(fs, []string{"STEPWISE_BACKEND=http://a", "STEPWISE_BACKEND_FILE=" + url})
	assert.ErrorContains(t, err, "STEPWISE_BACKEND and STEPWISE_BACKEND_FILE are both set")
	_, err = applyEnv(fs, []string{"STEPWISE_ADDR_FILE=" + filepath.Join(dir, "missing")})
	assert.ErrorContains(t, err, "STEPWISE_ADDR_FILE")
}

// A malformed header says which flag and why, never the value: it may be
// a token, and the message goes to the container's log.
func TestBadHeaderNeverEchoesItsValue(t *testing.T) {
	for _, bad := range []string{"Bearer s3cret-token", "Bad Name: s3cret-token", "X-Key: s3cret-token\x00"} {
		for _, fromEnv := range []bool{false, true} {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			d := addDeployFlags(fs)
			var err error
			if fromEnv {
				require.NoError(t, fs.Parse(nil))
				_, err = applyEnv(fs, []string{"STEPWISE_BACKEND_HEADER=" + bad})
				require.NoError(t, err)
			} else {
				require.NoError(t, fs.Parse([]string{"-backend-header", bad}))
			}
			_, err = d.resolve(true, io.Discard)
			require.Error(t, err, bad)
			assert.Contains(t, err.Error(), "STEPWISE_BACKEND_HEADER")
			assert.NotContains(t, err.Error(), "s3cret", bad)
		}
	}
	h := &headerFlag{}
	require.NoError(t, h.Set("Authorization: Bearer s3cret-token"))
	assert.Equal(t, "Authorization", h.String())
}

// Every page setting is named STEPWISE_PAGE_*: go-app copies them into the
// server's environment, and a process started from there (a test's child
// server, a browser test's binary) must not read them as its flags.
func TestPageSettingsAreNotFlagNames(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../app/config.go", nil, 0)
	require.NoError(t, err)
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range spec.Names {
			if !strings.HasPrefix(name.Name, "Env") || i >= len(spec.Values) {
				continue
			}
			lit, ok := spec.Values[i].(*ast.BasicLit)
			if !ok {
				continue
			}
			v, _ := strconv.Unquote(lit.Value)
			assert.True(t, strings.HasPrefix(v, pageEnvPrefix), "%s = %q", name.Name, v)
			n++
		}
		return true
	})
	assert.GreaterOrEqual(t, n, 10)
}

// A site made in this process (as the tests and the browser tests make
// them) leaves its page settings in the environment; a server started
// from here still starts, and its own flags hold.
func TestChildServerIgnoresThePageSettingsInItsEnvironment(t *testing.T) {
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	_, err = site.New(site.Config{WebDir: fakeWeb(t), Scenarios: sc, Env: map[string]string{client.EnvProtocol: "ag-ui", client.EnvAgentName: "Parent"}})
	require.NoError(t, err)
	require.Equal(t, "ag-ui", os.Getenv(client.EnvProtocol), "go-app copies the page's settings into the environment")

	s := startServer(t, "-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", filepath.Join(t.TempDir(), "d.db"))
	resp, err := http.Get(s.URL + "/app.js")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `"`+client.EnvProtocol+`":"stepwise"`)
	assert.NotContains(t, string(body), "Parent")
}
