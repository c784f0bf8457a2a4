// The patch tests run on the host: they build the wasm and run it under
// Node (and syscalljs_patch_test.go takes the site's wasm_exec.js from
// server/site, which does not build for js).
//go:build !js

package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"stepwise/server/site"
)

// TestSyscallJSPatch checks wasm/gosyscalljs-wasm.patch against the Go
// that runs the test: it must apply to this release's syscall/js; with it,
// calls from JavaScript into Go must answer as with the stock package
// (this, arguments, more arguments than it takes inline, results, a call
// inside a call, a call to a released function), and the event and
// arguments objects of each call must get no reference, where the stock
// package holds them until a collection runs their finalizers. Both
// builds run under the wasm_exec.js the site serves (server/site), which
// the patched package needs.
func TestSyscallJSPatch(t *testing.T) {
	needTools(t, "node")
	overlay := preparePatches(t, "gosyscalljs-wasm.patch").goFlags()
	dir := t.TempDir()
	wasmExec := servedWasmExec(t, dir)
	stock := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "stock.wasm"), ""))
	patched := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "patched.wasm"), overlay))
	t.Logf("JavaScript values Go holds after 1,000 calls and 1,000 calls with one inside: stock %d, patched %d", stock.Held, patched.Held)

	// sum: 1,000 calls of base 1 + n + 2; nested: 1,000 of (0 + n + 1) + 1.
	const wantSum, wantNested = 1000*3 + 999*1000/2, 1000*2 + 999*1000/2
	wantMany := []string{
		"0:",
		"4: a <number: 2> <boolean: true> <null>",
		"5: a <number: 2> <boolean: true> <null> <undefined>",
		"9: <number: 1> <number: 2> <number: 3> <number: 4> <number: 5> <number: 6> <number: 7> <number: 8> <number: 9>",
	}
	for name, r := range map[string]jsEventsResult{"stock": stock, "patched": patched} {
		if r.Sum != wantSum || r.Nested != wantNested {
			t.Errorf("%s: sum %d, nested %d; want %d, %d", name, r.Sum, r.Nested, wantSum, wantNested)
		}
		if !slices.Equal(r.Many, wantMany) {
			t.Errorf("%s: a function of any number of arguments answered %q, want %q", name, r.Many, wantMany)
		}
		if want := []string{"once", "undefined"}; !slices.Equal(r.Once, want) || !slices.Equal(r.Errors, []string{"call to released function"}) {
			t.Errorf("%s: a function called twice that released itself in the first call answered %q and wrote %q to console.error; want %q and the stock package's error", name, r.Once, r.Errors, want)
		}
	}
	// Per call the stock package holds the event, its this (but for the
	// nested calls' undefined), its arguments object and its first argument
	// (the second is a number): 11,000 values for the 3,000 calls, the
	// inner ones included. Patched, the event and arguments objects of
	// every call get no reference: 6,000 fewer.
	// Per call the stock package reads the event, clears it, reads its id,
	// this, arguments object, that object's length and each argument, sets
	// the result and releases two objects; patched, two calls: at least six
	// fewer per call.
	t.Logf("calls out of the wasm by syscall/js during the 3,000 calls: stock %d, patched %d", stock.syscallJSCalls(), patched.syscallJSCalls())
	if patched.syscallJSCalls() > stock.syscallJSCalls()-6*3000 {
		t.Errorf("patched: syscall/js called out of the wasm %d times during 3,000 calls from JavaScript, the stock package %d: want six fewer per call at least", patched.syscallJSCalls(), stock.syscallJSCalls())
	}
	if want := stock.Held - 2*3000; patched.Held != want {
		t.Errorf("patched: Go holds %d JavaScript values after the calls, want %d (the stock package's %d less the event and arguments objects of 3,000 calls)", patched.Held, want, stock.Held)
	}
}

// servedWasmExec writes the wasm_exec.js the site serves into dir and
// returns its path.
func servedWasmExec(t *testing.T, dir string) string {
	t.Helper()
	web := filepath.Join(dir, "web")
	if err := os.MkdirAll(web, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(web, "app.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	handler, err := site.New(site.Config{WebDir: web})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/wasm_exec.js", nil)) // a Host the site answers to
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "syscall/js.takeEvent") {
		t.Fatalf("the site's wasm_exec.js: status %d, without syscall/js.takeEvent", rec.Code)
	}
	path := filepath.Join(dir, "wasm_exec.js")
	if err := os.WriteFile(path, rec.Body.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type jsEventsResult struct {
	Sum, Nested, Held  int
	Calls              map[string]int // calls out of the wasm during the first calls, by import name
	Many, Once, Errors []string
}

// syscallJSCalls is how many calls out of the wasm syscall/js made.
func (r jsEventsResult) syscallJSCalls() int {
	n := 0
	for name, c := range r.Calls {
		if strings.HasPrefix(name, "syscall/js.") {
			n += c
		}
	}
	return n
}

func runJSEvents(t *testing.T, wasmExec, wasmFile string) jsEventsResult {
	t.Helper()
	// A guard against a hang, not a measure.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "testdata/jsevents/run.js", wasmExec, wasmFile).CombinedOutput()
	if err != nil {
		t.Fatalf("node run.js: %v\n%s", err, out)
	}
	var r jsEventsResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("run.js printed %q: %v", out, err)
	}
	return r
}
