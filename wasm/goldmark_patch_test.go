// Host tests (see runtime_patch_test.go).
//go:build !js

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGoldmarkPatch checks wasm/goldmark-wasm.patch the way the Makefile
// uses it (tools/patchmod, on the release go.mod pins): goldmark's own
// tests pass on the patched copy (the CommonMark spec among them: the lazy
// regular expressions and table must parse as before), and the packages it
// changes allocate almost nothing as a program starts, where the stock
// ones compile their regular expressions and fill the table.
func TestGoldmarkPatch(t *testing.T) {
	dir, version := preparePatches(t, "goldmark-wasm.patch").moduleCopy(t, "github.com/yuin/goldmark")
	stockDir := stockModule(t, "github.com/yuin/goldmark")

	test := exec.Command("go", "test", "-count=1", "./...")
	test.Dir = dir
	test.Env = withGoFlags("-mod=mod")
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("goldmark's own tests fail with the patch: %v\n%s", err, out)
	}

	stock := goldmarkInitBytes(t, stockDir, version)
	patched := goldmarkInitBytes(t, dir, version)
	t.Logf("bytes allocated by package initialisation, stock / patched: %v / %v", stock, patched)
	for _, pkg := range []string{"util", "parser", "extension"} {
		if s, p := stock[pkg], patched[pkg]; p*10 > s {
			t.Errorf("goldmark/%s allocates %d bytes as the program starts with the patch, %d without: want a tenth at most", pkg, p, s)
		}
	}
	// Given both patterns, a linkify parser compiles neither of goldmark's.
	if o, d := patched["linkify with options"], patched["linkify with defaults"]; o*10 > d {
		t.Errorf("a linkify parser given its patterns allocates %d bytes with the patch, %d with goldmark's: want a tenth at most", o, d)
	}
}

var (
	initTraceLine = regexp.MustCompile(`^init github\.com/yuin/goldmark/(\w+) @.* (\d+) bytes`)
	linkifyLine   = regexp.MustCompile(`^(linkify with \w+) (\d+) bytes`)
)

// goldmarkInitBytes runs testdata/goldmarkinit against the goldmark in
// dir and returns the bytes each of goldmark's packages allocated as it
// started, by package name (util, parser, extension...), and what its
// linkify parsers took ("linkify with options", "linkify with defaults").
func goldmarkInitBytes(t *testing.T, dir, version string) map[string]int {
	t.Helper()
	mod := t.TempDir()
	main, err := os.ReadFile(filepath.Join("testdata", "goldmarkinit", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	goMod := fmt.Sprintf("module goldmarkinit\n\ngo 1.24\n\nrequire github.com/yuin/goldmark %s\n\nreplace github.com/yuin/goldmark => %s\n", version, dir)
	for name, text := range map[string][]byte{"main.go": main, "go.mod": []byte(goMod)} {
		if err := os.WriteFile(filepath.Join(mod, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command("go", "run", ".")
	run.Dir = mod
	run.Env = withGoFlags("-mod=mod", "GODEBUG=inittrace=1")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("go run testdata/goldmarkinit: %v\n%s", err, out)
	}
	bytes := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := initTraceLine.FindStringSubmatch(line); m != nil {
			bytes[m[1]], _ = strconv.Atoi(m[2])
		}
		if m := linkifyLine.FindStringSubmatch(line); m != nil {
			bytes[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	for _, pkg := range []string{"util", "parser", "extension"} {
		if _, ok := bytes[pkg]; !ok {
			t.Fatalf("no init trace of goldmark/%s:\n%s", pkg, out)
		}
	}
	return bytes
}
