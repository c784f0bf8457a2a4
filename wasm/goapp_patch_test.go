// Host tests (see syscalljs_patch_test.go).
//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoAppPatch checks wasm/goapp-wasm.patch the way the Makefile uses
// it: it applies to the go-app release go.mod names, the patched
// canUpdateValue (whether a component's prop changed) answers as
// reflect.DeepEqual does, go-app's own test of it included, and short
// strings given to JavaScript are converted once and shared. They run as
// js/wasm under Node: the patched copy leaves out the server side, so it
// builds for the browser only.
func TestGoAppPatch(t *testing.T) {
	needTools(t, "node", "patch")
	dir, _, _ := patchedModule(t, "github.com/maxence-charriere/go-app/v10", "goapp-wasm.patch")
	test, err := os.ReadFile(filepath.Join("testdata", "goapp", "node_stepwise_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "app", "node_stepwise_test.go"), test, 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command("go", "test", "-count=1", "-v",
		"-exec", filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "go_js_wasm_exec"),
		"-run", "^("+strings.Join(patchTests, "|")+")$", "./pkg/app")
	run.Dir = dir
	run.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=-mod=mod")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("go-app's prop comparison, patched: %v\n%s", err, out)
	}
	for _, name := range patchTests {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Fatalf("%s did not run:\n%s", name, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "allocations per") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// patchTests are the tests TestGoAppPatch runs in the patched go-app: its
// own of the prop comparison, and Stepwise's in testdata/goapp.
var patchTests = []string{"TestCanUpdateValue", "TestCanUpdateValueAsDeepEqual", "TestFormatStringAsFmt", "TestCanUpdateValueWithoutDeepEqual", "TestUpdateComponentUnchangedWithoutAllocation", "TestBaseContextMadeOnce", "TestSyscallJSArgSharesShortStrings", "TestDispatchRunsAtOnceWhenIdle", "TestNodesTakeNoExtraReferences", "TestTextGrowsByAppending"}

// patchedModule copies the module go.mod names at modulePath (its release
// in the module cache) and applies wasm/patchName to the copy, as the
// Makefile does. It returns the copy's directory, the module cache's and
// the release.
func patchedModule(t *testing.T, modulePath, patchName string) (dir, stockDir, version string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", modulePath).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", modulePath, err)
	}
	stockDir, version, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	dir = filepath.Join(t.TempDir(), "module")
	if err := os.CopyFS(dir, os.DirFS(stockDir)); err != nil {
		t.Fatal(err)
	}
	patchFile, err := os.Open(patchName)
	if err != nil {
		t.Fatal(err)
	}
	defer patchFile.Close()
	patch := exec.Command("patch", "--batch", "-s", "-p1", "-F0", "-d", dir)
	patch.Stdin = patchFile
	if out, err := patch.CombinedOutput(); err != nil {
		t.Fatalf("wasm/%s does not apply to %s %s: %v\n%s", patchName, modulePath, version, err, out)
	}
	return dir, stockDir, version
}
