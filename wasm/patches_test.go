// Host tests (see runtime_patch_test.go).
//go:build !js

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// prepared is a directory tools/patchmod made for some of the patches of
// wasm/patches.txt: go.mod (replacing the patched modules with their
// copies), go.sum, overlay.json (Go's patched files) and the copies.
type prepared string

// preparePatches runs tools/patchmod as the Makefile does, but for the
// named patches only, into a temporary directory: each patch test sees
// its own patch alone, whatever GOFLAGS the test itself runs with.
func preparePatches(t *testing.T, names ...string) prepared {
	t.Helper()
	list, err := os.Open("patches.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer list.Close()
	var lines []string
	scan := bufio.NewScanner(list)
	for scan.Scan() {
		f := strings.Fields(strings.SplitN(scan.Text(), "#", 2)[0])
		for _, name := range names {
			if len(f) == 2 && f[1] == name {
				abs, err := filepath.Abs(name)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(lines, f[0]+" "+abs)
			}
		}
	}
	if len(lines) != len(names) {
		t.Fatalf("wasm/patches.txt lists %d of %q", len(lines), names)
	}
	dir := t.TempDir()
	patches := filepath.Join(dir, "patches.txt")
	if err := os.WriteFile(patches, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "mod")
	run := exec.Command("go", "run", "../tools/patchmod", "-patches", patches, "-out", out)
	run.Env = withGoFlags("")
	if msg, err := run.CombinedOutput(); err != nil {
		t.Fatalf("tools/patchmod: %v\n%s", err, msg)
	}
	return prepared(out)
}

// goFlags are the GOFLAGS that build with p, as the Makefile's do with
// bin/mod.
func (p prepared) goFlags() string {
	return "-modfile=" + filepath.Join(string(p), "go.mod") + " -overlay=" + filepath.Join(string(p), "overlay.json")
}

// moduleCopy is the directory of p's patched copy of modulePath, and the
// version it is a copy of.
func (p prepared) moduleCopy(t *testing.T, modulePath string) (dir, version string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(string(p), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[0] == "replace" && f[1] == modulePath {
			_, version, _ = strings.Cut(f[3], "@")
			return f[3], version
		}
	}
	t.Fatalf("tools/patchmod's go.mod replaces no %s:\n%s", modulePath, text)
	return "", ""
}

// stockModule is the module cache's directory of modulePath, as go.mod
// pins it.
func stockModule(t *testing.T, modulePath string) string {
	t.Helper()
	list := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", modulePath)
	list.Env = withGoFlags("")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", modulePath, err)
	}
	return strings.TrimSpace(string(out))
}

// withGoFlags is the environment with GOFLAGS set to flags: a go command
// a test runs builds with what it names, not with the GOFLAGS the
// Makefile gave the test.
func withGoFlags(flags string, more ...string) []string {
	return append(append(os.Environ(), "GOFLAGS="+flags), more...)
}

// needTools skips the test unless every tool is installed; under CI
// (CI set, as .ci/run's machine does) it fails instead, so that a missing
// tool cannot pass for a patch that works.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " is not installed (.ci/run installs it)"
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg + "; skipped outside CI")
		}
	}
}
