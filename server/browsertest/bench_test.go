//go:build browser

package browsertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	client "stepwise/app"
)

// TestBench is `make bench`: the in-browser stream benchmark of
// ../shared/bench/README.md, start-up times and sizes. It prints figures
// and checks nothing (targets are read by a person, never asserted), so it
// runs only when STEPWISE_BENCH=1.
func TestBench(t *testing.T) {
	skipUnlessBench(t)
	gen := filepath.Join("..", "..", "..", "shared", "bench", "gen-events.py")
	for _, n := range []int{1000, 5000, 20000, 34000} {
		out := filepath.Join("testdata", fmt.Sprintf("bench-%d.jsonl", n))
		if _, err := os.Stat(out); err == nil {
			continue
		}
		if b, err := exec.Command("python3", gen, fmt.Sprint(n), out).CombinedOutput(); err != nil {
			t.Fatalf("generating %s: %v: %s", out, err, b)
		}
	}
	type memory struct {
		HeapInUse float64 `json:"heapInUse"`
		Sys       float64 `json:"sys"`
	}
	lat := func(p *float64) string {
		if p == nil {
			return "–"
		}
		return fmt.Sprintf("%.1f", *p)
	}
	runs := []struct{ name, file, rate, warm string }{
		{"5k max", "bench-5000", "max", ""},
		{"20k max", "bench-20000", "max", ""},
		{"1k 100/s", "bench-1000", "100", ""},
		{"1k 100/s onto 2k items", "bench-34000", "100", "33000"},
	}
	fmt.Println("stream                  events       ms  µs/event  long tasks  max task  p50 ms  p95 ms   dom  JS heap MB  Go heap MB  wasm MB")
	for _, r := range runs {
		p := newPage(t)
		url := "/?replay=/fixtures/" + r.file + ".jsonl&rate=" + r.rate + "&lang=en"
		if r.warm != "" {
			url += "&warm=" + r.warm
		}
		p.open(url)
		p.waitJS(`window.__result`, 10*time.Minute)
		res := eval[client.ReplayResult](p, `window.__result`)
		js := eval[float64](p, `performance.memory ? performance.memory.usedJSHeapSize : 0`)
		mem := eval[memory](p, `window.stepwise.memory()`)
		fmt.Printf("%-22s %7d %8.0f %9.1f %11d %9.0f %7s %7s %5d %11.1f %11.1f %8.1f\n",
			r.name, res.Events, res.Ms, 1000*res.Ms/float64(res.Events), res.LongTasks, res.MaxTask,
			lat(res.P50), lat(res.P95), res.DOM, js/1e6, mem.HeapInUse/1e6, mem.Sys/1e6)
	}

	benchStartup(t)

	for _, f := range []string{"app.wasm", "app.wasm.gz", "app.wasm.br"} {
		if st, err := os.Stat(filepath.Join("..", "..", "web", f)); err == nil {
			fmt.Printf("size: %-12s %9d bytes (%.2f MB)\n", f, st.Size(), float64(st.Size())/1e6)
		}
	}
}

// TestBenchStartup is the start-up part of TestBench alone.
func TestBenchStartup(t *testing.T) {
	skipUnlessBench(t)
	benchStartup(t)
}

func skipUnlessBench(t *testing.T) {
	if os.Getenv("STEPWISE_BENCH") != "1" {
		t.Skip("set STEPWISE_BENCH=1 (make bench)")
	}
}
