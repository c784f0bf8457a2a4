// The patch tests run on the host: they build wasm programs and run them
// under Node (with the wasm_exec.js the site serves, from server/site,
// which does not build for js).
//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stepwise/server/site"
)

// TestRuntimePatch checks wasm/goruntime-wasm.patch against the Go that
// runs the test, as tools/patchmod applies it: with it a collection left
// to the background mark workers must give JavaScript the event loop back
// before it finishes (testdata/gcslice under Node), where the stock
// runtime marks the whole heap first, and a collection inside a call from
// JavaScript must still return; calls from JavaScript must read the clock
// less; and the overlay, which every go command of the Makefile builds
// with, must build the runtime of other platforms too.
func TestRuntimePatch(t *testing.T) {
	needTools(t, "node")
	patched := preparePatches(t, "goruntime-wasm.patch").goFlags()

	for _, platform := range [][2]string{{goEnv(t, "GOHOSTOS"), goEnv(t, "GOHOSTARCH")}, {"wasip1", "wasm"}, {"windows", "amd64"}} {
		build := exec.Command("go", "build", "runtime")
		build.Env = withGoFlags(patched, "GOOS="+platform[0], "GOARCH="+platform[1])
		if out, err := build.CombinedOutput(); err != nil {
			t.Errorf("the runtime for %s/%s does not build with the overlay: %v\n%s", platform[0], platform[1], err, out)
		}
	}

	dir := t.TempDir()
	stock := buildWasm(t, "./testdata/gcslice", filepath.Join(dir, "stock.wasm"), "")
	sliced := buildWasm(t, "./testdata/gcslice", filepath.Join(dir, "sliced.wasm"), patched)

	stockTasks := tasksDuringCollection(t, stock, "idle")
	slicedTasks := tasksDuringCollection(t, sliced, "idle")
	t.Logf("tasks run while the collection marked: stock runtime %d, patched %d", stockTasks, slicedTasks)
	if stockTasks != 0 {
		t.Errorf("the stock runtime let %d tasks run during an idle collection: golang/go#54444 may be fixed in %s, and the patch no longer needed", stockTasks, goEnv(t, "GOVERSION"))
	}
	if slicedTasks < 2 {
		t.Errorf("with the patch, %d tasks ran during the collection; want the mark cut into slices with the event loop's tasks between them", slicedTasks)
	}
	// A callback that waits for a collection: JavaScript is inside the
	// call, so cutting the mark short could only stall (the runtime then
	// finds every goroutine asleep and dies).
	tasksDuringCollection(t, sliced, "callback")

	// Calls from JavaScript park goroutines (about 1,000 reads of the
	// clock in checkTimeouts for these 3,000; the stock runtime's total
	// varies by a few), and the patched checkTimeouts reads none without a
	// note to check.
	wasmExec := servedWasmExec(t, dir)
	plain := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "events-stock.wasm"), ""))
	fewer := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "events-patched.wasm"), patched))
	t.Logf("clock reads during 3,000 calls from JavaScript: stock runtime %d, patched %d", plain.Calls["runtime.nanotime1"], fewer.Calls["runtime.nanotime1"])
	if fewer.Calls["runtime.nanotime1"] > plain.Calls["runtime.nanotime1"]-750 {
		t.Errorf("with the patch Go read the clock %d times during 3,000 calls from JavaScript, the stock runtime %d: want one read fewer for every four calls at least", fewer.Calls["runtime.nanotime1"], plain.Calls["runtime.nanotime1"])
	}
}

// buildWasm builds the program in pkg (a ./testdata directory) for
// js/wasm with the given GOFLAGS ("": the stock modules and Go).
func buildWasm(t *testing.T, pkg, wasmFile, goFlags string) string {
	t.Helper()
	build := exec.Command("go", "build", "-o", wasmFile, pkg)
	build.Env = withGoFlags(goFlags, "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build (GOFLAGS=%s): %v\n%s", goFlags, err, out)
	}
	return wasmFile
}

// tasksDuringCollection runs a build of testdata/gcslice in the given mode
// and reports how many tasks the event loop ran before its collection
// finished.
func tasksDuringCollection(t *testing.T, wasmFile, mode string) int {
	t.Helper()
	// A guard against a hang, not a measure: the run takes about a second.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	wasmExec := filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec.js")
	out, err := exec.CommandContext(ctx, "node", "testdata/gcslice/run.js", wasmExec, wasmFile, mode).CombinedOutput()
	if err != nil {
		t.Fatalf("node run.js %s: %v\n%s", mode, err, out)
	}
	var result struct {
		Ticks    *int
		Finished bool
	}
	if err := json.Unmarshal(out, &result); err != nil || result.Ticks == nil {
		t.Fatalf("run.js %s printed %q, want {\"ticks\":N,\"finished\":true}", mode, out)
	}
	if !result.Finished {
		t.Fatalf("%s: the collection had not finished after %d tasks: Go did not come back by itself to go on marking", mode, *result.Ticks)
	}
	return *result.Ticks
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(fmt.Errorf("go env %s: %w", name, err))
	}
	return strings.TrimSpace(string(out))
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
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "globalThis.Go") {
		t.Fatalf("the site's wasm_exec.js: status %d:\n%s", rec.Code, rec.Body)
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
