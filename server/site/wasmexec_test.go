package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"
)

// The patched wasm_exec.js hands Go's strings to JavaScript as go-app's
// does: testdata/jsstrings prints the same under both (Node), constants,
// one address whose bytes change, invalid UTF-8, more addresses than the
// script keeps and a memory that grows.
func TestWasmExecPatchKeepsStrings(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		skipOutsideCI(t, "node not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "jsstrings.wasm")
	build := exec.Command("go", "build", "-o", wasm, "./testdata/jsstrings")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	site := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(site, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: site})
	require.NoError(t, err)
	script := func(h http.Handler) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/wasm_exec.js", nil))
		b, _ := io.ReadAll(rec.Body)
		return string(b)
	}
	stock, patched := script(&app.Handler{}), script(handler)
	require.NotEqual(t, stock, patched, "the site serves its patched wasm_exec.js")
	require.Contains(t, patched, "shortStrings")

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	runner, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js"))
	require.NoError(t, err)
	run := func(name, js string) string {
		d := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "wasm_exec.js"), []byte(js), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(d, "wasm_exec_node.js"), runner, 0o644))
		out, err := exec.Command("node", filepath.Join(d, "wasm_exec_node.js"), wasm).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	want, got := run("stock", stock), run("patched", patched)
	require.Contains(t, want, "\nPASS")
	require.Equal(t, want, got)
}

// skipOutsideCI skips the test for want of a tool, or fails it under CI
// (CI set), whose machine .ci/run gives every tool: a test that cannot
// run there must not pass for one that did.
func skipOutsideCI(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; skipped outside CI")
}
