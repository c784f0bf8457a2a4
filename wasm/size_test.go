//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hotPackages run on a stream's path: decoding and applying events,
// rendering, diffing and updating the DOM, parsing Markdown, allocating.
// Compiled without inlining, their small functions (and the ones they
// would inline from each other) become calls in the loops that make up a
// stream's time. Inlining is off for all packages only in "What does not
// pay" (docs/performance.md): 5k about a quarter slower.
var hotPackages = []string{
	"runtime", "reflect", "strings", "bytes", "strconv", "unicode",
	"unicode/utf8", "unicode/utf16", "slices", "maps", "sync", "sync/atomic",
	"math", "math/bits", "iter", "syscall/js", "container/list",
	"github.com/maxence-charriere/go-app/v10/pkg/app",
	// AG-UI events and AI SDK chunks are decoded with encoding/json, their
	// SSE lines read with bufio: without inlining, decoding is a fifth
	// slower (docs/performance.md).
	"encoding/json", "bufio",
}

// TestNoInlineListIsColdWasmPackages checks the Makefile's WASM_NOINLINE,
// the packages app.wasm is compiled without inlining for their smaller
// brotli: each must be a package of the wasm (a name that matches none
// is silently ignored by go build, and the bytes come back), and none may
// be one of Stepwise's, goldmark's, the runtime's or another on a
// stream's path (hotPackages).
func TestNoInlineListIsColdWasmPackages(t *testing.T) {
	cold := makefileList(t, "WASM_NOINLINE")
	if len(cold) == 0 {
		t.Fatal("the Makefile's WASM_NOINLINE is empty")
	}
	list := exec.Command("go", "list", "-deps", "-tags", makefileWasmTags(t), ".")
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, pkg := range cold {
		if !slices.Contains(deps, pkg) {
			t.Errorf("WASM_NOINLINE names %s, which app.wasm does not link", pkg)
		}
		if slices.Contains(hotPackages, pkg) || strings.HasPrefix(pkg, "internal/runtime/") ||
			strings.HasPrefix(pkg, "stepwise/") || strings.HasPrefix(pkg, "github.com/yuin/goldmark") {
			t.Errorf("WASM_NOINLINE names %s, which runs on a stream's path", pkg)
		}
	}
	// The Makefile's wasm build gives each of them -l.
	text := makefileText(t)
	if !strings.Contains(text, "$(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)") {
		t.Error("the Makefile's WASM_BUILD no longer compiles WASM_NOINLINE without inlining")
	}
}

// makefileList returns the words of a Makefile variable set with :=,
// continued over lines ending in a backslash.
func makefileList(t *testing.T, name string) []string {
	t.Helper()
	lines := strings.Split(makefileText(t), "\n")
	for i, line := range lines {
		n, value, ok := strings.Cut(line, ":=")
		if !ok || strings.TrimSpace(n) != name {
			continue
		}
		for strings.HasSuffix(value, "\\") && i+1 < len(lines) {
			i++
			value = strings.TrimSuffix(value, "\\") + " " + lines[i]
		}
		return strings.Fields(value)
	}
	t.Fatalf("the Makefile sets no %s", name)
	return nil
}

func makefileText(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}
