//go:build browser

package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stepwise/app/backend/replay"
)

// TestBenchTiering (make bench-tiering) prints what V8 compiled of the
// wasm while Stepwise played a stream at max rate in a fresh tab
// (STEPWISE_BENCH_RUNS names it, 5k by default): the functions it
// optimised, largest first, and the optimised code it dropped. Chromium
// runs with V8's --trace-wasm-compilation-times and --trace-deopt
// (STEPWISE_JS_FLAGS), its output kept in STEPWISE_CHROMIUM_OUT; the wasm
// keeps its function names (the target builds it without -s -w).
func TestBenchTiering(t *testing.T) {
	skipUnlessBench(t)
	out := os.Getenv("STEPWISE_CHROMIUM_OUT")
	if out == "" || !strings.Contains(os.Getenv("STEPWISE_JS_FLAGS"), "--trace-wasm-compilation-times") {
		t.Skip("run by make bench-tiering")
	}
	module, err := os.ReadFile(filepath.Join("..", "..", "web", "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := wasmFunctionNames(module)
	if err != nil {
		t.Fatal(err)
	}
	run := namedStreamRun()
	streams := benchStreamServer
	p, gate := openHeldReplay(t, streams, streams.generate(t, run.events), run)
	defer p.close()
	goBefore := eval[goAllocs](p, `window.stepwise.memory()`)
	// What V8 printed before the stream (start-up) is left out.
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	gate.release()
	p.waitJS(`window.__result`, 30*time.Minute)
	res := eval[replay.Result](p, `window.__result`)
	goAfter := eval[goAllocs](p, `window.stepwise.memory()`)
	all, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The stream's request comes before its fetch, split and Markdown
	// warm-up: the count starts there, before the first event.
	tr := parseTiering(all[len(before):])
	if len(tr.compiles) == 0 {
		t.Fatalf("no compile traced in %s: does this Chromium's V8 still have --trace-wasm-compilation-times?", out)
	}
	fmt.Printf("%s at %s: %d events in %.0f ms\n", run.name, run.rate, res.Events, res.Ms)
	n := float64(res.Events)
	fmt.Printf("Go from the stream's request to its end: %.0f allocations (%.1f per event), %.0f KB (%.2f per event), %d collections\n",
		goAfter.Mallocs-goBefore.Mallocs, (goAfter.Mallocs-goBefore.Mallocs)/n,
		(goAfter.TotalAlloc-goBefore.TotalAlloc)/1024, (goAfter.TotalAlloc-goBefore.TotalAlloc)/1024/n, goAfter.NumGC-goBefore.NumGC)
	printTiering(os.Stdout, tr, names, 30)
}

// goAllocs is what window.stepwise.memory() says of Go's allocations.
type goAllocs struct {
	Mallocs    float64 `json:"mallocs"`
	TotalAlloc float64 `json:"totalAlloc"`
	NumGC      int     `json:"numGC"`
}
