package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestSyscallJSPatch checks wasm/gosyscalljs-wasm.patch against the Go
// that runs the test: it must apply to this release's syscall/js; with it,
// calls from JavaScript into Go must answer as with the stock package
// (this, arguments, results, a call inside a call), and the event and
// arguments objects of each call must be released when it returns, where
// the stock package holds them until a collection runs their finalizers.
func TestSyscallJSPatch(t *testing.T) {
	needTools(t, "node", "patch")
	overlayFile := goRootOverlay(t, "gosyscalljs-wasm.patch")
	dir := t.TempDir()
	stock := runJSEvents(t, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "stock.wasm")))
	patched := runJSEvents(t, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "patched.wasm"), "-overlay", overlayFile))
	t.Logf("JavaScript values Go holds after 1,000 calls and 1,000 calls with one inside: stock %d, patched %d", stock.Held, patched.Held)

	// sum: 1,000 calls of base 1 + n + 2; nested: 1,000 of (0 + n + 1) + 1.
	const wantSum, wantNested = 1000*3 + 999*1000/2, 1000*2 + 999*1000/2
	for name, r := range map[string]jsEventsResult{"stock": stock, "patched": patched} {
		if r.Sum != wantSum || r.Nested != wantNested {
			t.Errorf("%s: sum %d, nested %d; want %d, %d", name, r.Sum, r.Nested, wantSum, wantNested)
		}
	}
	// Per call the stock package holds the event, its this (but for the
	// nested calls' undefined), its arguments object and its first argument
	// (the second is a number): 11,000 values for the 3,000 calls, the
	// inner ones included. Patched, the event and arguments objects of
	// every call are released when it returns: 6,000 fewer.
	if want := stock.Held - 2*3000; patched.Held != want {
		t.Errorf("patched: Go holds %d JavaScript values after the calls, want %d (the stock package's %d less the event and arguments objects of 3,000 calls)", patched.Held, want, stock.Held)
	}
}

type jsEventsResult struct {
	Sum, Nested, Held int
}

func runJSEvents(t *testing.T, wasmFile string) jsEventsResult {
	t.Helper()
	// A guard against a hang, not a measure.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	wasmExec := filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec.js")
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
