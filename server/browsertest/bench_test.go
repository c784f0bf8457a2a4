//go:build browser

package browsertest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/profiler"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"stepwise/app/backend/replay"
)

// TestBench is `make bench`: the in-browser stream benchmark of
// ../shared/bench/README.md (Stepwise side by side with the framework-free
// floor and the React peer, in one run), start-up times and sizes. It
// prints figures and checks nothing (targets are read by a person, never
// asserted), so it runs only when STEPWISE_BENCH=1.
func TestBench(t *testing.T) {
	skipUnlessBench(t)
	benchStreams(t, fullStreamRuns)
	benchLongConversation(t)

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
	// Stepwise only: the stream is played in this many tabs of one
	// browser, one after the other, and the last is measured (0 or 1: a
	// fresh browser, as for the references).
	visits int
}

const (
	pageFloor    = "floor"
	pageStepwise = "stepwise"
	pageReact    = "react"
)

var allPages = []string{pageFloor, pageStepwise, pageReact}

var fullStreamRuns = []streamRun{
	{"1k", 1000, "max", 0, allPages, 0},
	{"5k", 5000, "max", 0, allPages, 0},
	// A person's third visit: the first came from the network, the second
	// from the service worker's copy, whose compiled code Chromium keeps;
	// the third runs that code, optimised where the second was busy.
	{"5k-3rd", 5000, "max", 0, []string{pageFloor, pageStepwise}, 3},
	{"20k", 20000, "max", 0, allPages, 0},
	// The React peer regroups every block per event: 100k would take it
	// most of an hour, so it plays up to 20k.
	{"100k", 100000, "max", 0, []string{pageFloor, pageStepwise}, 0},
	{"1k@100", 1000, "100", 0, allPages, 0},
	// 33,000 warm-up events leave about 2,000 top-level items (970 groups,
	// 970 answers); the references have no warm-up, so Stepwise alone.
	{"1k@100+2k", 34000, "100", 33000, []string{pageStepwise}, 0},
}

var quickStreamRuns = []streamRun{fullStreamRuns[1], fullStreamRuns[3]} // 5k, 20k

// pageResult is one page's run of one stream.
type pageResult struct {
	replay.Result
	jsHeap, goHeap, wasmMem float64 // MB
	// Main-thread time (ms) over the run, from Performance.getMetrics:
	// the whole of the tasks, script, style recalculation and layout.
	task, script, style, layout float64
}

func (r pageResult) perEvent() float64 { return 1000 * r.Ms / float64(r.Events) }

// benchStreams plays each run on each of its pages, one after the other,
// and prints the figures with the ratios to the floor and the React peer.
//
// This machine kind's speed wanders between runs, even minutes apart
// (docs/performance.md), so a ratio of one round says little.
// STEPWISE_BENCH_ROUNDS=N (make bench: 3) plays each run N rounds; a
// round plays every page once, back to back, so each of its ratios
// compares pages under the same load, and the summary gives the median of
// the rounds' ratios with their range.
func benchStreams(t *testing.T, runs []streamRun) {
	pages := allPages
	if p := os.Getenv("STEPWISE_BENCH_PAGES"); p != "" {
		pages = strings.Split(p, ",")
	}
	rounds := 1
	if n, err := strconv.Atoi(os.Getenv("STEPWISE_BENCH_ROUNDS")); err == nil && n > 1 {
		rounds = n
	}
	streams := benchStreamServer
	floor := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "floor"), streams)
	react := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "react-peer"), streams)
	names := map[string]string{pageFloor: "floor", pageStepwise: "Stepwise", pageReact: "React peer"}

	fmt.Printf("streams of ../shared/bench/gen-events.py, each page in a fresh tab, one after the other, %d round(s); %s\n", rounds, chromiumVersion())
	if flags := os.Getenv("STEPWISE_JS_FLAGS"); flags != "" {
		fmt.Printf("V8 flags: %s\n", flags)
	}
	fmt.Println("run        page         events       ms  µs/event  ×floor  long  max ms  p50/p95 ms    dom  JS MB  Go MB wasm MB | per event µs: task script style layout")
	// results[run][round][page]
	results := map[string][]map[string]pageResult{}
	for _, r := range runs {
		file := streams.generate(t, r.events)
		for round := 0; round < rounds; round++ {
			played := map[string]pageResult{}
			results[r.name] = append(results[r.name], played)
			for _, pg := range r.pages {
				// The targets are ratios to the floor: the React peer, slow
				// and only for comparison, plays the first round.
				if !contains(pages, pg) || pg == pageReact && round > 0 {
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
				visits := 1
				if pg == pageStepwise {
					visits = max(r.visits, 1)
				}
				res := playStream(t, streams, url, pg == pageStepwise, visits)
				played[pg] = res
				ratio := "–"
				if f, ok := played[pageFloor]; ok && pg != pageFloor {
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
	}

	// over collects num's time over den's of each round that played both.
	over := func(run, num, den string) []float64 {
		var v []float64
		for _, round := range results[run] {
			a, ok1 := round[num]
			b, ok2 := round[den]
			if ok1 && ok2 {
				v = append(v, a.Ms/b.Ms)
			}
		}
		return v
	}
	if rounds > 1 {
		fmt.Printf("ratios (median [min–max] of %d rounds):\n", rounds)
	} else {
		fmt.Println("ratios:")
	}
	for _, r := range runs {
		if r.rate != "max" || !contains(pages, pageStepwise) || !contains(r.pages, pageStepwise) {
			continue
		}
		line := fmt.Sprintf("  %-6s Stepwise/floor %s", r.name, ratioSpread(over(r.name, pageStepwise, pageFloor)))
		if contains(pages, pageReact) && contains(r.pages, pageReact) {
			line += ", Stepwise/React " + ratioSpread(over(r.name, pageStepwise, pageReact))
		}
		fmt.Println(line)
	}
	// growth compares a page's cost per event in two runs, round by round.
	growth := func(big, small string) {
		for _, pg := range allPages {
			var v []float64
			for i := 0; i < len(results[big]) && i < len(results[small]); i++ {
				b, ok1 := results[big][i][pg]
				s, ok2 := results[small][i][pg]
				if ok1 && ok2 {
					v = append(v, b.perEvent()/s.perEvent())
				}
			}
			if len(v) > 0 {
				fmt.Printf("  %s/%s per-event cost, %s: %s\n", big, small, names[pg], ratioSpread(v))
			}
		}
	}
	growth("20k", "5k")
	growth("100k", "20k")
}

// ratioSpread is "median [min–max]" of v, or its one value; "–" for none.
func ratioSpread(v []float64) string {
	switch len(v) {
	case 0:
		return "–"
	case 1:
		return fmt.Sprintf("%.2f", v[0])
	}
	v = slices.Sorted(slices.Values(v))
	return fmt.Sprintf("%.2f [%.2f–%.2f]", median(v), v[0], v[len(v)-1])
}

// playStream opens url, lets its page fetch the stream once the harness
// has read the page's counters, waits for window.__result and reads the
// page's memory and main-thread time. With visits > 1 (Stepwise), it
// first plays the stream in visits-1 tabs of the same browser, one after
// the other, and measures a new tab after them.
func playStream(t *testing.T, streams *streamServer, url string, stepwise bool, visits int) pageResult {
	// A long stream (the React peer's 20k, 100k) takes minutes.
	p := newPageWithin(t, 40*time.Minute)
	defer p.close()
	browser := p
	for v := 1; v < visits; v++ {
		gate := streams.hold()
		p.open(strings.TrimPrefix(url, serverURL))
		gate.waitRequested()
		kept := eval[float64](p, cacheStorageUsage)
		gate.release()
		p.waitJS(`window.__result`, 30*time.Minute)
		if v == 1 {
			// The network's app.wasm: the next visit compiles the
			// service worker's copy.
			p.waitJS(workerServesWasm, time.Minute)
		} else {
			waitCodeKept(p, kept)
		}
		p.do(chromedp.Navigate("about:blank"))
		tab, closeTab := chromedp.NewContext(browser.ctx)
		defer closeTab()
		p = &page{t: t, ctx: tab}
	}
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
	if d, err := time.ParseDuration(os.Getenv("STEPWISE_BENCH_SETTLE")); err == nil {
		time.Sleep(d)
	}
	before := pageMetrics(t, p)
	gate.release()
	p.waitJS(`window.__result`, 30*time.Minute)
	after := pageMetrics(t, p)
	var res pageResult
	res.Result = eval[replay.Result](p, `window.__result`)
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

// waitCodeKept waits, up to 10 s, for Chromium to keep the code V8
// compiled in p's visit beside the service worker's copy of app.wasm
// (Cache Storage's usage grows past kept by half a MB), as a person's
// visit would last that long. V8 offers a module's code once it has
// optimised 1,000 bytes and then nothing more for 2 s, or at once from 1
// MB (--wasm-caching-threshold, --wasm-caching-timeout-ms,
// --wasm-caching-hard-threshold); in this headless Chromium only the
// second has been seen to come, during the stream, so a visit that
// optimised less keeps nothing and the next visit compiles again: it
// says so and goes on.
func waitCodeKept(p *page, kept float64) {
	start := time.Now()
	for time.Since(start) < 10*time.Second {
		if eval[float64](p, cacheStorageUsage) > kept+512<<10 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Printf("  (Chromium kept no compiled code of the visit before: the next visit compiles app.wasm again)\n")
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

// staticFile finds a request's file among files read by readTree ("/" is
// /index.html); when there is none it answers 404 and reports false.
func staticFile(files map[string][]byte, w http.ResponseWriter, r *http.Request) (name string, body []byte, ok bool) {
	name = r.URL.Path
	if name == "/" {
		name = "/index.html"
	}
	if body, ok = files[name]; !ok {
		http.NotFound(w, r)
	}
	return name, body, ok
}

// readTree reads every file below dir, by its path from dir ("/a/b.js").
func readTree(dir string) (map[string][]byte, error) {
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
	return files, err
}

// benchStaticServer serves dir's files at the root, and /streams/ from
// the stream server.
func benchStaticServer(t *testing.T, dir string, streams *streamServer) string {
	files, err := readTree(dir)
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/streams/") {
			streams.ServeHTTP(w, r)
			return
		}
		name, body, ok := staticFile(files, w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBenchProfile is `make bench-profile`: Chromium's sampling profiler
// over Stepwise playing a stream at max rate (STEPWISE_BENCH_RUNS names
// it, 5k by default), its samples split by what they were doing: JSON
// decoding, the store, go-app's render and diff, the views, Markdown, the
// JS/wasm boundary, the Go runtime, the browser's own work. The wasm must
// keep its function names (the target builds it without -s -w). The
// profile is written to STEPWISE_PROFILE_OUT (a .cpuprofile DevTools opens)
// when set.
func TestBenchProfile(t *testing.T) {
	skipUnlessBench(t)
	run := namedStreamRun()
	streams := benchStreamServer
	file := streams.generate(t, run.events)
	p, gate := openHeldReplay(t, streams, file, run)
	defer p.close()
	if _, err := chromedp.Call(p.ctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, profiler.Start, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	gate.release()
	p.waitJS(`window.__result`, 30*time.Minute)
	stop, err := chromedp.Call(p.ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	res := eval[replay.Result](p, `window.__result`)
	if out := os.Getenv("STEPWISE_PROFILE_OUT"); out != "" {
		b, _ := json.Marshal(stop.Profile)
		os.WriteFile(out, b, 0o644)
	}
	printProfile(stop.Profile, res)
	p.close()
	traceStream(t, streams, "/?replay=/streams/"+file+"&rate="+run.rate+"&lang=en")
	floor := benchStaticServer(t, filepath.Join("..", "..", "..", "shared", "bench", "floor"), streams)
	traceFloor(t, streams, floor+"/?events=/streams/"+file+"&rate="+run.rate)
}

// namedStreamRun is the run STEPWISE_BENCH_RUNS names, 5k by default: the
// one stream a profile or trace plays.
func namedStreamRun() streamRun {
	for _, r := range fullStreamRuns {
		if r.name == os.Getenv("STEPWISE_BENCH_RUNS") {
			return r
		}
	}
	return fullStreamRuns[1]
}

// openHeldReplay opens Stepwise replaying the stream file at run's rate in
// a new tab, and returns once the page has asked for the stream, which
// waits at the returned gate until it is released.
func openHeldReplay(t *testing.T, streams *streamServer, file string, run streamRun) (*page, *streamGate) {
	p := newPageWithin(t, 40*time.Minute)
	gate := streams.hold()
	p.open("/?replay=/streams/" + file + "&rate=" + run.rate + "&lang=en")
	gate.waitRequested()
	return p, gate
}

// traceEvent is what the stream traces read of Chromium's trace events.
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Tdur float64 `json:"tdur"`
	Pid  int64   `json:"pid"`
	Tid  int64   `json:"tid"`
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

// streamTraceCategories are the trace's categories: "toplevel" has every
// thread's tasks, of every process, for printThreadCPU.
var streamTraceCategories = []string{"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline",
	"v8", "v8.wasm", "disabled-by-default-v8.gc", "blink", "cc"}

// traceFloor plays the stream on the framework-free floor under the same
// tracing, for printThreadCPU's figures side by side with Stepwise's.
func traceFloor(t *testing.T, streams *streamServer, url string) {
	res, events := tracePlay(t, streams, func(p *page) { p.do(chromedp.Navigate(url)) })
	printMainThread("the floor", res, events)
}

// tracePlay opens a page (open), then plays its stream under Chromium's
// tracing, from the stream's request to its result.
func tracePlay(t *testing.T, streams *streamServer, open func(p *page)) (replay.Result, []traceEvent) {
	p := newPageWithin(t, 40*time.Minute)
	defer p.close()
	gate := streams.hold()
	open(p)
	gate.waitRequested()
	stop := startTrace[traceEvent](t, p, streamTraceCategories...)
	gate.release()
	p.waitJS(`window.__result`, 30*time.Minute)
	res := eval[replay.Result](p, `window.__result`)
	return res, stop()
}

// printThreadCPU prints the CPU time (thread time, not wall time) of each
// thread of every process of the browser while a stream played, its
// top-level events summed: on two cores, what else wanted them beside the
// page's main thread (V8 optimising the wasm, rasterising, compositing).
func printThreadCPU(page string, res replay.Result, events []traceEvent) {
	type thread struct{ pid, tid int64 }
	processName := map[int64]string{}
	threadName := map[thread]string{}
	byThread := map[thread][]traceEvent{}
	for _, e := range events {
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			processName[e.Pid] = e.Args.Name
		case e.Ph == "M" && e.Name == "thread_name":
			threadName[thread{e.Pid, e.Tid}] = e.Args.Name
		case e.Ph == "X":
			byThread[thread{e.Pid, e.Tid}] = append(byThread[thread{e.Pid, e.Tid}], e)
		}
	}
	cpu := map[string]float64{} // by process and thread name: pools have many threads
	var total float64
	for th, xs := range byThread {
		sort.Slice(xs, func(i, j int) bool {
			if xs[i].Ts != xs[j].Ts {
				return xs[i].Ts < xs[j].Ts
			}
			return xs[i].Dur > xs[j].Dur
		})
		end := math.Inf(-1)
		for _, e := range xs {
			if e.Ts >= end { // top-level: not inside the one before
				cpu[processName[th.pid]+" / "+threadName[th]] += e.Tdur
				total += e.Tdur
				end = e.Ts + e.Dur
			}
		}
	}
	fmt.Printf("CPU by thread, %s (%d events in %.0f ms under tracing): %.0f ms in all\n", page, res.Events, res.Ms, total/1000)
	for _, kv := range sortedByValue(cpu) {
		if kv.v >= 5000 {
			fmt.Printf("  %-50s %6.0f ms\n", kv.k, kv.v/1000)
		}
	}
}

// traceStream plays a stream on Stepwise again under Chromium's tracing
// (no sampling profiler: it slows script) and prints the renderer main
// thread's time by kind: script, style, layout, paint, GC, task overhead;
// then the CPU time (not wall time) of that thread beside V8's compiling
// of the wasm: on the main thread as functions first run (baseline,
// Liftoff) and on worker threads as they get hot (optimised, TurboFan),
// which on two cores takes CPU the main thread would otherwise have.
func traceStream(t *testing.T, streams *streamServer, url string) {
	res, events := tracePlay(t, streams, func(p *page) { p.open(url) })
	printMainThread("Stepwise", res, events)
}

// printMainThread splits the renderer main thread's busy time of a traced
// stream by kind (script, style, layout, paint...), with the largest
// events' self time, and what V8 spent compiling the wasm, if any.
func printMainThread(page string, res replay.Result, events []traceEvent) {
	var main struct{ pid, tid int64 }
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			main.pid, main.tid = e.Pid, e.Tid
		}
	}
	var xs []traceEvent
	// V8's wasm compiling: CPU ms and count, by where it ran.
	var lazyCPU, optimisingCPU float64
	var lazyFunctions, optimisingJobs int
	for _, e := range events {
		if e.Ph != "X" {
			continue
		}
		if e.Pid == main.pid && e.Tid == main.tid {
			xs = append(xs, e)
			if e.Name == "wasm.CompileLazy" {
				lazyCPU += e.Tdur
				lazyFunctions++
			}
		} else if e.Pid == main.pid && e.Name == "wasm.ExecuteCompilationUnits" {
			optimisingCPU += e.Tdur
			optimisingJobs++
		}
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].Ts != xs[j].Ts {
			return xs[i].Ts < xs[j].Ts
		}
		return xs[i].Dur > xs[j].Dur
	})
	// Self time of each event: its duration less its children's.
	selfTime := map[string]float64{}
	var mainCPU float64 // top-level events' thread time
	var stack []int
	childTime := make([]float64, len(xs))
	pop := func() {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		selfTime[xs[i].Name] += xs[i].Dur - childTime[i]
		if len(stack) > 0 {
			childTime[stack[len(stack)-1]] += xs[i].Dur
		}
	}
	for i, e := range xs {
		for len(stack) > 0 && xs[stack[len(stack)-1]].Ts+xs[stack[len(stack)-1]].Dur <= e.Ts {
			pop()
		}
		if len(stack) == 0 {
			mainCPU += e.Tdur
		}
		stack = append(stack, i)
	}
	for len(stack) > 0 {
		pop()
	}
	kind := func(name string) string {
		switch {
		case name == "UpdateLayoutTree" || name == "RecalculateStyles" || strings.Contains(name, "StyleInvalidat"):
			return "style"
		case name == "Layout" || name == "IntersectionObserverController::computeIntersections" || strings.HasPrefix(name, "LocalFrameView::") && strings.Contains(name, "Layout"):
			return "layout"
		case strings.Contains(name, "Paint") || name == "Layerize" || name == "UpdateLayer" || name == "UpdateLayerTree" || name == "Commit" || strings.Contains(name, "Composit"):
			return "paint, composite"
		case strings.Contains(name, "GC") || strings.Contains(name, "Scavenge") || strings.Contains(name, "MarkCompact"):
			return "JS garbage collection"
		case name == "RunTask" || name == "ThreadControllerImpl::RunTask" || strings.HasPrefix(name, "ThreadController") || name == "SequenceManager":
			return "task scheduling"
		case name == "FunctionCall" || name == "EventDispatch" || name == "TimerFire" || name == "FireAnimationFrame" ||
			strings.HasPrefix(name, "v8") || strings.HasPrefix(name, "V8") || name == "EvaluateScript" || name == "RunMicrotasks" || strings.HasPrefix(name, "wasm"):
			return "script (wasm and JS)"
		}
		return "other"
	}
	byKind := map[string]float64{}
	other := map[string]float64{}
	var total float64
	for name, d := range selfTime {
		byKind[kind(name)] += d
		total += d
		if kind(name) == "other" {
			other[name] += d
		}
	}
	n := float64(res.Events)
	fmt.Printf("trace, %s: %d events in %.0f ms; renderer main thread busy %.0f ms (%.0f µs/event)\n", page, res.Events, res.Ms, total/1000, total/n)
	for _, kv := range sortedByValue(byKind) {
		fmt.Printf("  %-24s %6.1f%% %6.0f µs/event\n", kv.k, 100*kv.v/total, kv.v/n)
	}
	for i, kv := range sortedByValue(other) {
		if i == 8 {
			break
		}
		fmt.Printf("    other: %-40s %6.0f µs/event\n", kv.k, kv.v/n)
	}
	for i, kv := range sortedByValue(selfTime) {
		if i == 12 {
			break
		}
		fmt.Printf("    self: %-40s %6.0f µs/event\n", kv.k, kv.v/n)
	}
	frames := 0
	for _, e := range xs {
		if e.Name == "ProxyMain::BeginMainFrame" {
			frames++
		}
	}
	fmt.Printf("  %d frames\n", frames)
	fmt.Printf("CPU time: renderer main thread %.0f ms while busy %.0f ms (the rest it waited for a core);\n", mainCPU/1000, total/1000)
	fmt.Printf("  V8 compiling the wasm: on the main thread %.0f ms (%d functions on first call, baseline), on worker threads %.0f ms (%d jobs, optimised)\n",
		lazyCPU/1000, lazyFunctions, optimisingCPU/1000, optimisingJobs)
	printThreadCPU(page, res, events)
}

// profileCategories name what a sample was doing, by the function on top
// of its stack and, for Go code, the nearest caller that says more: the
// first rule that matches a frame, leaf first, wins; a leaf in the JS/wasm
// boundary or a DOM call counts as the boundary whoever called it.
// (V8 names wasm functions with '/', '-', '(', ')', '*' replaced by '_'.)
var profileCategories = []struct{ name, prefix string }{
	{"JSON decoding (encoding/json)", "encoding_json."},
	{"store (state)", "stepwise_state"},
	{"Markdown (goldmark)", "github.com_yuin_goldmark"},
	{"views (components)", "stepwise_components"},
	{"go-app render and diff", "github.com_maxence_charriere_go_app"},
	{"controller, replay driver (app)", "stepwise_app"},
}

func printProfile(prof *profiler.Profile, res replay.Result) {
	nodes := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range prof.Nodes {
		nodes[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	category := func(id int64) string {
		leaf := nodes[id].CallFrame
		switch {
		case leaf.FunctionName == "(idle)":
			return "idle"
		case leaf.FunctionName == "(garbage collector)":
			return "JS garbage collector"
		case leaf.FunctionName == "(program)":
			return "browser (style, layout, paint, tasks)"
		case strings.HasSuffix(leaf.URL, "/app.js") || strings.HasSuffix(leaf.URL, "wasm_exec.js") ||
			strings.HasPrefix(leaf.FunctionName, "syscall/js.") || strings.HasPrefix(leaf.FunctionName, "syscall_js.") ||
			leaf.FunctionName == "wasm-to-js" || leaf.FunctionName == "js-to-wasm" || (leaf.URL == "" && !strings.Contains(leaf.FunctionName, ".")):
			return "JS/wasm boundary, DOM calls"
		}
		for n := id; ; {
			name := nodes[n].CallFrame.FunctionName
			for _, c := range profileCategories {
				if strings.HasPrefix(name, c.prefix) {
					return c.name
				}
			}
			up, ok := parent[n]
			if !ok {
				break
			}
			n = up
		}
		if strings.HasPrefix(leaf.FunctionName, "runtime.") || strings.HasPrefix(leaf.URL, "wasm://") {
			return "Go runtime (scheduler, GC, allocation)"
		}
		return "other JS"
	}
	byCategory := map[string]float64{}
	self := map[string]float64{}
	var total float64
	for i, id := range prof.Samples {
		dt := float64(prof.TimeDeltas[i])
		c := category(id)
		byCategory[c] += dt
		if c != "idle" {
			total += dt
			self[nodes[id].CallFrame.FunctionName] += dt
		}
	}
	n := float64(res.Events)
	fmt.Printf("profile: %d events in %.0f ms (%.0f µs/event); busy samples %.0f ms (%.0f µs/event)\n", res.Events, res.Ms, 1000*res.Ms/n, total/1000, total/n)
	for _, kv := range sortedByValue(byCategory) {
		if kv.k == "idle" {
			continue
		}
		fmt.Printf("  %-42s %6.1f%% %7.0f µs/event\n", kv.k, 100*kv.v/total, kv.v/n)
	}
	fmt.Println("top functions by self time:")
	for i, kv := range sortedByValue(self) {
		if i == 25 {
			break
		}
		fmt.Printf("  %5.1f%% %s\n", 100*kv.v/total, kv.k)
	}
}

type keyValue struct {
	k string
	v float64
}

func sortedByValue(m map[string]float64) []keyValue {
	var out []keyValue
	for k, v := range m {
		out = append(out, keyValue{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].v > out[j].v })
	return out
}
