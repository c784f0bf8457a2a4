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

// TestAppWasmLinksNoRegexp checks that app.wasm, built as the Makefile
// builds it, links no regular expressions: package regexp's compiler and
// matcher and the Unicode tables they keep were about 330 KB of its
// code. No package of the build imports regexp (go list -deps), and the
// linker reaches no function of regexp or regexp/syntax (its dependency
// graph, -dumpdep). Stepwise's own matchers are written out (tests keep
// the expressions as oracles); go-app's RouteWithRegexp and goldmark's
// API taking expressions are left out by the goappomitregexp and
// goldmarkomitregexp tags (wasm/goapp-wasm.patch,
// wasm/goldmark-wasm.patch), whose parsers match by hand.
func TestAppWasmLinksNoRegexp(t *testing.T) {
	tags := makefileWasmTags(t)
	list := exec.Command("go", "list", "-deps", "-tags", tags, ".")
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/yuin/goldmark/parser") {
		t.Fatalf("go list -deps finds no goldmark parser in app.wasm's packages: not what this test reads:\n%s", out)
	}
	for _, pkg := range []string{"regexp", "regexp/syntax"} {
		if slices.Contains(deps, pkg) {
			t.Errorf("app.wasm's packages include %s: go list -deps -f '{{.ImportPath}} {{.Imports}}' shows who imports it", pkg)
		}
	}

	args := []string{"build", "-tags", tags, "-trimpath"}
	for _, pkg := range makefileList(t, "WASM_NOINLINE") {
		args = append(args, "-gcflags="+pkg+"=-l")
	}
	args = append(args, "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "app.wasm"), ".")
	build := exec.Command("go", args...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err = build.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%.2000s", err, out)
	}
	edges := 0
	linked := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		from, to, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		edges++
		for _, sym := range []string{from, to} {
			if strings.HasPrefix(sym, "regexp.") || strings.HasPrefix(sym, "regexp/syntax.") {
				linked[sym] = true
			}
		}
	}
	if edges < 1000 {
		t.Fatalf("the linker's dependency graph has %d edges: not what this test reads:\n%.2000s", edges, out)
	}
	if len(linked) > 0 {
		names := make([]string, 0, len(linked))
		for sym := range linked {
			names = append(names, sym)
		}
		slices.Sort(names)
		t.Errorf("app.wasm links %d functions of regexp: %.20v", len(names), names)
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
