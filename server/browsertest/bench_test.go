//go:build browser

package browsertest

import (
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	client "stepwise/app"
)

// TestBench is `make bench`: the in-browser stream benchmark of
// ../shared/bench/README.md (Stepwise side by side with the framework-free
// floor and the React peer, in one run), start-up times and sizes. It
// prints figures and checks nothing (targets are read by a person, never
// asserted), so it runs only when STEPWISE_BENCH=1.
func TestBench(t *testing.T) {
	skipUnlessBench(t)
	benchStreams(t, fullStreamRuns)

	benchStartup(t)
	benchEmbed(t)

	for _, f := range []string{"app.wasm", "app.wasm.gz", "app.wasm.br"} {
		if st, err := os.Stat(filepath.Join("..", "..", "web", f)); err == nil {
			fmt.Printf("size: %-12s %9d bytes (%.2f MB)\n", f, st.Size(), float64(st.Size())/1e6)
		}
	}
}

// TestBenchStream is `make bench-stream`: the stream part alone, to
// iterate on. STEPWISE_BENCH_RUNS picks runs by name (comma-separated,
// e.g. "5k,20k"); STEPWISE_BENCH_PAGES picks pages (e.g. "floor,stepwise").
func TestBenchStream(t *testing.T) {
	skipUnlessBench(t)
	runs := quickStreamRuns
	if names := os.Getenv("STEPWISE_BENCH_RUNS"); names != "" {
		runs = nil
		for _, r := range fullStreamRuns {
			for _, n := range strings.Split(names, ",") {
				if r.name == n {
					runs = append(runs, r)
				}
			}
		}
	}
	benchStreams(t, runs)
}

// TestBenchStartup is the start-up and embed parts of TestBench alone.
func TestBenchStartup(t *testing.T) {
	skipUnlessBench(t)
	benchStartup(t)
	benchEmbed(t)
}

func skipUnlessBench(t *testing.T) {
	if os.Getenv("STEPWISE_BENCH") != "1" {
		t.Skip("set STEPWISE_BENCH=1 (make bench)")
	}
}

// streamRun is one stream played on each page in turn.
type streamRun struct {
	name   string
	events int    // gen-events.py's N
	rate   string // "max" or events per second
	warm   int    // Stepwise only: events applied before the timed run
	pages  []string
}

const (
	pageFloor    = "floor"
	pageStepwise = "stepwise"
	pageReact    = "react"
)

var allPages = []string{pageFloor, pageStepwise, pageReact}

var fullStreamRuns = []streamRun{
	{"1k", 1000, "max", 0, allPages},
	{"5k", 5000, "max", 0, allPages},
	{"20k", 20000, "max", 0, allPages},
	// The React peer regroups every block per event: 100k would take it
	// most of an hour, so it plays up to 20k.
	{"100k", 100000, "max", 0, []string{pageFloor, pageStepwise}},
	{"1k@100", 1000, "100", 0, allPages},
	// 33,000 warm-up events leave about 2,000 top-level items (970 groups,
	// 970 answers); the references have no warm-up, so Stepwise alone.
	{"1k@100+2k", 34000, "100", 33000, []string{pageStepwise}},
}

var quickStreamRuns = []streamRun{fullStreamRuns[1], fullStreamRuns[2]}

// pageResult is one page's run of one stream.
type pageResult struct {
	client.ReplayResult
	jsHeap, goHeap, wasmMem float64 // MB
	// Main-thread time (ms) over the run, from Performance.getMetrics:
	// the whole of the tasks, script, style recalculation and layout.
	task, script, style, layout float64
}

func (r pageResult) perEvent() float64 { return 1000 * r.Ms / float64(r.Events) }

// benchStreams plays each run on each of its pages, one after the other,
// and prints the figures with the ratios to the floor and the React peer.
func benchStreams(t *testing.T, runs []streamRun) {
	pages := allPages
	if p := os.Getenv("STEPWISE_BENCH_PAGES"); p != "" {
		pages = strings.Split(p, ",")
	}
	streams := benchStreamServer
	floor := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "floor"), streams)
	react := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "react-peer"), streams)
	names := map[string]string{pageFloor: "floor", pageStepwise: "Stepwise", pageReact: "React peer"}

	fmt.Printf("streams of ../shared/bench/gen-events.py, each page in a fresh tab, one after the other; %s\n", chromiumVersion())
	fmt.Println("run        page         events       ms  µs/event  ×floor  long  max ms  p50/p95 ms    dom  JS MB  Go MB wasm MB | per event µs: task script style layout")
	results := map[string]map[string]pageResult{}
	for _, r := range runs {
		file := streams.generate(t, r.events)
		results[r.name] = map[string]pageResult{}
		for _, pg := range r.pages {
			if !contains(pages, pg) {
				continue
			}
			var url string
			switch pg {
			case pageFloor:
				url = floor + "/?events=/streams/" + file + "&rate=" + r.rate
			case pageReact:
				url = react + "/?events=/streams/" + file + "&rate=" + r.rate
			case pageStepwise:
				url = serverURL + "/?replay=/streams/" + file + "&rate=" + r.rate + "&lang=en"
				if r.warm > 0 {
					url += fmt.Sprintf("&warm=%d", r.warm)
				}
			}
			res := playStream(t, streams, url, pg == pageStepwise)
			results[r.name][pg] = res
			ratio := "–"
			if f, ok := results[r.name][pageFloor]; ok && pg != pageFloor {
				ratio = fmt.Sprintf("%.2f", res.Ms/f.Ms)
			}
			lat := "–"
			if res.P50 != nil && res.P95 != nil {
				lat = fmt.Sprintf("%.1f/%.1f", *res.P50, *res.P95)
			}
			goHeap, wasm := "–", "–"
			if pg == pageStepwise {
				goHeap, wasm = fmt.Sprintf("%.1f", res.goHeap), fmt.Sprintf("%.1f", res.wasmMem)
			}
			n := float64(res.Events)
			fmt.Printf("%-10s %-11s %7d %8.0f %9.1f %7s %5d %7.0f %11s %6d %6.1f %6s %7s | %6.0f %6.0f %5.0f %6.0f\n",
				r.name, names[pg], res.Events, res.Ms, res.perEvent(), ratio, res.LongTasks, res.MaxTask, lat, res.DOM,
				res.jsHeap, goHeap, wasm, 1000*res.task/n, 1000*res.script/n, 1000*res.style/n, 1000*res.layout/n)
		}
	}

	fmt.Println("ratios:")
	for _, r := range runs {
		s, ok := results[r.name][pageStepwise]
		if !ok || r.rate != "max" {
			continue
		}
		line := fmt.Sprintf("  %-5s Stepwise/floor", r.name)
		if f, ok := results[r.name][pageFloor]; ok {
			line += fmt.Sprintf(" %.2f", s.Ms/f.Ms)
		} else {
			line += " –"
		}
		if re, ok := results[r.name][pageReact]; ok {
			line += fmt.Sprintf(", Stepwise/React %.2f", s.Ms/re.Ms)
		}
		fmt.Println(line)
	}
	growth := func(big, small string) {
		for _, pg := range allPages {
			b, ok1 := results[big][pg]
			s, ok2 := results[small][pg]
			if ok1 && ok2 {
				fmt.Printf("  %s/%s per-event cost, %s: %.2f\n", big, small, names[pg], b.perEvent()/s.perEvent())
			}
		}
	}
	growth("20k", "5k")
	growth("100k", "20k")
}

// playStream opens url, lets its page fetch the stream once the harness
// has read the page's counters, waits for window.__result and reads the
// page's memory and main-thread time.
func playStream(t *testing.T, streams *streamServer, url string, stepwise bool) pageResult {
	// A long stream (the React peer's 20k, 100k) takes minutes.
	p := newPageWithin(t, 40*time.Minute)
	defer p.close()
	gate := streams.hold()
	if stepwise {
		p.open(strings.TrimPrefix(url, serverURL))
	} else {
		p.do(chromedp.Navigate(url))
	}
	if _, err := chromedp.Call(p.ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	gate.waitRequested()
	before := pageMetrics(t, p)
	gate.release()
	p.waitJS(`window.__result`, 30*time.Minute)
	after := pageMetrics(t, p)
	var res pageResult
	res.ReplayResult = eval[client.ReplayResult](p, `window.__result`)
	res.task = 1000 * (after["TaskDuration"] - before["TaskDuration"])
	res.script = 1000 * (after["ScriptDuration"] - before["ScriptDuration"])
	res.style = 1000 * (after["RecalcStyleDuration"] - before["RecalcStyleDuration"])
	res.layout = 1000 * (after["LayoutDuration"] - before["LayoutDuration"])
	heap, err := chromedp.Call(p.ctx, cdpruntime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		t.Fatalf("Runtime.getHeapUsage: %v", err)
	}
	res.jsHeap = heap.UsedSize / 1e6
	if stepwise {
		mem := eval[struct {
			HeapInUse float64 `json:"heapInUse"`
			Sys       float64 `json:"sys"`
		}](p, `window.stepwise.memory()`)
		res.goHeap, res.wasmMem = mem.HeapInUse/1e6, mem.Sys/1e6
	}
	return res
}

func pageMetrics(t *testing.T, p *page) map[string]float64 {
	m, err := chromedp.Call(p.ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		t.Fatalf("Performance.getMetrics: %v", err)
	}
	out := map[string]float64{}
	for _, x := range m.Metrics {
		out[x.Name] = x.Value
	}
	return out
}

func chromiumVersion() string {
	exe := os.Getenv("CHROMIUM")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	b, _ := exec.Command(exe, "--version").Output()
	return strings.TrimSpace(string(b))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// streamServer serves the generated streams (testdata/bench-N.jsonl) at
// /streams/ of every page's server (Stepwise's is TestMain's), so that each
// page fetches its stream from its own origin. A request waits at the gate
// the harness holds, so that the page's counters are read after its
// start-up and before its run.
type streamServer struct {
	mu   sync.Mutex
	gate *streamGate
}

var benchStreamServer = &streamServer{}

type streamGate struct {
	requested, released chan struct{}
	once                sync.Once
}

func (g *streamGate) waitRequested() { <-g.requested }
func (g *streamGate) release()       { close(g.released) }

func (s *streamServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	g := s.gate
	s.gate = nil
	s.mu.Unlock()
	if g != nil {
		g.once.Do(func() { close(g.requested) })
		<-g.released
	}
	name := path.Base(r.URL.Path)
	if !strings.HasPrefix(name, "bench-") {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, filepath.Join("testdata", name))
}

// hold makes the next stream request wait until the gate is released.
func (s *streamServer) hold() *streamGate {
	g := &streamGate{requested: make(chan struct{}), released: make(chan struct{})}
	s.mu.Lock()
	s.gate = g
	s.mu.Unlock()
	return g
}

// generate writes testdata/bench-N.jsonl with ../shared/bench/gen-events.py
// (always anew: a file kept from another version of the generator would
// measure another stream) and returns its name.
func (s *streamServer) generate(t *testing.T, n int) string {
	name := fmt.Sprintf("bench-%d.jsonl", n)
	gen := filepath.Join("..", "..", "..", "shared", "bench", "gen-events.py")
	if b, err := exec.Command("python3", gen, fmt.Sprint(n), filepath.Join("testdata", name)).CombinedOutput(); err != nil {
		t.Fatalf("generating %s: %v: %s", name, err, b)
	}
	return name
}

// benchStaticServer serves dir's files at the root, and /streams/ from
// the stream server.
func benchStaticServer(t *testing.T, dir string, streams *streamServer) string {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files["/"+filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/streams/") {
			streams.ServeHTTP(w, r)
			return
		}
		name := r.URL.Path
		if name == "/" {
			name = "/index.html"
		}
		body, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
