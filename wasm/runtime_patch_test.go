// Host tests (see syscalljs_patch_test.go).
//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRuntimePatch checks wasm/goruntime-wasm.patch against the Go that
// runs the test: it must apply to this release's runtime; with it a
// collection left to the background mark workers must give JavaScript the
// event loop back before it finishes (testdata/gcslice under Node), where
// the stock runtime marks the whole heap first, and a collection inside a
// call from JavaScript must still return; and calls from JavaScript must
// read the clock less.
func TestRuntimePatch(t *testing.T) {
	needTools(t, "node", "patch")
	overlayFile := goRootOverlay(t, "goruntime-wasm.patch")

	dir := t.TempDir()
	stock := buildWasm(t, "./testdata/gcslice", filepath.Join(dir, "stock.wasm"))
	sliced := buildWasm(t, "./testdata/gcslice", filepath.Join(dir, "sliced.wasm"), "-overlay", overlayFile)

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
	plain := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "events-stock.wasm")))
	patched := runJSEvents(t, wasmExec, buildWasm(t, "./testdata/jsevents", filepath.Join(dir, "events-patched.wasm"), "-overlay", overlayFile))
	t.Logf("clock reads during 3,000 calls from JavaScript: stock runtime %d, patched %d", plain.Calls["runtime.nanotime1"], patched.Calls["runtime.nanotime1"])
	if patched.Calls["runtime.nanotime1"] > plain.Calls["runtime.nanotime1"]-750 {
		t.Errorf("with the patch Go read the clock %d times during 3,000 calls from JavaScript, the stock runtime %d: want one read fewer for every four calls at least", patched.Calls["runtime.nanotime1"], plain.Calls["runtime.nanotime1"])
	}
}

// goRootOverlay applies patchName (a patch of GOROOT/src files, paths
// a/runtime/... or a/syscall/js/...) to copies of the files it names, as
// the Makefile does, and returns a go build -overlay file for them. The
// patch must apply to the release of the Go that runs the test.
func goRootOverlay(t *testing.T, patchName string) string {
	t.Helper()
	src := filepath.Join(goEnv(t, "GOROOT"), "src")
	dir := t.TempDir()
	patchFile, err := filepath.Abs(patchName)
	if err != nil {
		t.Fatal(err)
	}
	patchText, err := os.ReadFile(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string]string{}
	for _, line := range strings.Split(string(patchText), "\n") {
		name, ok := strings.CutPrefix(line, "--- a/")
		if !ok {
			continue
		}
		text, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		copyPath := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyPath, text, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(src, name)] = copyPath
	}
	if len(overlay) == 0 {
		t.Fatalf("wasm/%s names no file", patchName)
	}
	apply := exec.Command("patch", "--batch", "-s", "-p1", "-F0", "-d", dir, "-i", patchFile)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("wasm/%s does not apply to %s (redo it for this release): %v\n%s", patchName, goEnv(t, "GOVERSION"), err, out)
	}
	overlayJSON, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlayJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	return overlayFile
}

// buildWasm builds the program in pkg (a ./testdata directory) for
// js/wasm with the given build flags.
func buildWasm(t *testing.T, pkg, wasmFile string, flags ...string) string {
	t.Helper()
	build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", wasmFile, pkg)...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(flags, " "), err, out)
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

// needTools skips the test unless every tool is installed.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (.ci/run installs it)", tool)
		}
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(fmt.Errorf("go env %s: %w", name, err))
	}
	return strings.TrimSpace(string(out))
}
