//go:build js && wasm

package replay

import (
	"math"
	"runtime"
	"syscall/js"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
)

// Replayer plays a JSONL file of stream events in the page, each event in
// its own browser task (../shared/bench/README.md): for rate 0 the next
// event is posted through a MessageChannel right after the previous one is
// applied; otherwise it waits 1000/rate ms. It records each event's latency
// to the next animation frame (rate mode), long tasks, and publishes
// window.__result at the end.
type Replayer struct {
	URL  string
	Rate float64
	// Warm events are applied in one task before the run; they are not
	// timed nor counted in the result.
	Warm int
	// Apply applies events and schedules their render. It is called
	// outside go-app's engine work: from a goroutine for the warm-up, in a
	// browser task of its own for each timed event.
	Apply func(lines ...[]byte)
	// Skipped returns the number of skipped events for the result.
	Skipped func() int
	// Prepare, when set, runs once the file is fetched, before the warm-up
	// and the run: what a live page does while it waits for the first
	// answer (components.MarkdownWarmUp, the fonts), not part of the
	// stream's cost.
	Prepare func()
	// Failed reports a file that could not be fetched.
	Failed func(err error)
	// Rendered, when set, calls done once the UI has rendered what Apply
	// applied: the UI renders on its own clock, so the last event is
	// painted only after that render, and the result waits for it.
	Rendered func(done func())
	// Drawing, when set, reports whether the page is still drawing what
	// the warm-up brought (app/dom/draw.go): the run starts once it is done,
	// as a person's next answer comes after they opened the conversation.
	Drawing func() bool
}

// play plays cfg's file in page, delivering each event's frame.
func play(cfg Config, page Page, deliver func(backend.Event)) {
	(&Replayer{
		URL: cfg.URL, Rate: cfg.Rate, Warm: cfg.Warm,
		Apply:    func(lines ...[]byte) { deliver(backend.Frames{Frames: lines}) },
		Failed:   func(err error) { deliver(backend.Failed{Err: err}) },
		Rendered: page.Rendered,
		Drawing:  page.Drawing,
		Prepare:  page.Prepare,
		Skipped:  page.Skipped,
	}).Start()
}

// Start fetches the file and plays it. It returns at once.
func (r *Replayer) Start() {
	go func() {
		lines, err := fetchLines(r.URL)
		if err != nil {
			if r.Failed != nil {
				r.Failed(err)
			}
			return
		}
		if r.Prepare != nil {
			r.Prepare()
		}
		if r.Warm > 0 {
			warm := min(r.Warm, len(lines))
			r.Apply(lines[:warm]...)
			lines = lines[warm:]
			// Let the warm-up render and paint, and collect its garbage,
			// before the timed run starts.
			afterFrames(2)
			for r.Drawing != nil && r.Drawing() {
				afterFrames(1)
			}
			runtime.GC()
			afterFrames(1)
		}
		r.play(lines)
	}()
}

func fetchLines(url string) ([][]byte, error) {
	body, err := browser.FetchBody(url)
	return SplitLines(body), err
}

func (r *Replayer) play(lines [][]byte) {
	global := js.Global()
	perf := global.Get("performance")
	now := func() float64 { return perf.Call("now").Float() }

	var longTasks int
	var maxTask float64
	// The run starts when the first event is applied, in a task of its own:
	// fetching and splitting the file happen before.
	start := math.Inf(1)
	var observer js.Value
	var onLong js.Func
	if po := global.Get("PerformanceObserver"); po.Truthy() {
		onLong = js.FuncOf(func(this js.Value, args []js.Value) any {
			entries := args[0].Call("getEntries")
			for i := 0; i < entries.Length(); i++ {
				e := entries.Index(i)
				// buffered: true also reports the page's start-up; only
				// tasks that end after the run began count.
				if e.Get("startTime").Float()+e.Get("duration").Float() < start {
					continue
				}
				longTasks++
				if d := e.Get("duration").Float(); d > maxTask {
					maxTask = d
				}
			}
			return nil
		})
		observer = po.New(onLong)
		opts := map[string]any{"type": "longtask", "buffered": true}
		func() {
			defer func() { recover() }() // longtask is not observable everywhere
			observer.Call("observe", opts)
		}()
	}

	var latencies []float64
	var step js.Func
	var finish func()
	i := 0
	// At max rate web/boot.js's stepwiseLoop posts the tasks and calls step
	// in each, with no arguments, while it returns true: a call out of the
	// wasm to post each next task, and an event and a port handed to Go
	// for each call in, were the driver's cost counted as the page's (the
	// floor's driver is plain JavaScript). Without boot.js, step posts them
	// itself.
	loop := global.Get("stepwiseLoop")
	var channel, port js.Value
	if r.Rate == 0 && loop.Type() != js.TypeFunction {
		channel = global.Get("MessageChannel").New()
		port = channel.Get("port2")
	}

	step = js.FuncOf(func(this js.Value, args []js.Value) any {
		if i >= len(lines) {
			return false
		}
		// The clock is read for the start and, at a rate, for each event's
		// latency: at max rate a call into JS per event would be the
		// driver's cost counted as the page's.
		var t0 float64
		if i == 0 || r.Rate > 0 {
			t0 = now()
		}
		if i == 0 {
			start = t0
		}
		r.Apply(lines[i])
		i++
		if r.Rate > 0 {
			var raf js.Func
			raf = js.FuncOf(func(this js.Value, args []js.Value) any {
				latencies = append(latencies, now()-t0)
				raf.Release()
				return nil
			})
			global.Call("requestAnimationFrame", raf)
		}
		switch {
		case i >= len(lines) && r.Rendered != nil:
			r.Rendered(finish)
		case i >= len(lines):
			finish()
		case r.Rate > 0:
			global.Call("setTimeout", step, 1000/r.Rate)
		case !port.IsUndefined():
			port.Call("postMessage", 0)
		default:
			return true // stepwiseLoop posts the next task
		}
		return false
	})
	if !port.IsUndefined() {
		channel.Get("port1").Set("onmessage", step)
	}

	finish = func() {
		// One animation frame, then one task, then the result.
		var raf, task js.Func
		raf = js.FuncOf(func(this js.Value, args []js.Value) any {
			raf.Release()
			global.Call("setTimeout", task, 0)
			return nil
		})
		task = js.FuncOf(func(this js.Value, args []js.Value) any {
			task.Release()
			res := Result{
				Events:    len(lines),
				Ms:        round1(now() - start),
				LongTasks: longTasks,
				MaxTask:   round1(maxTask),
				DOM:       global.Get("document").Call("querySelectorAll", "[data-kind]").Length(),
			}
			if r.Skipped != nil {
				res.Skipped = r.Skipped()
			}
			if r.Rate > 0 {
				p50, p95 := round1(Percentile(latencies, 50)), round1(Percentile(latencies, 95))
				res.P50, res.P95 = &p50, &p95
			}
			if observer.Truthy() {
				observer.Call("disconnect")
				onLong.Release()
			}
			global.Set("__result", js.ValueOf(map[string]any{
				"events": res.Events, "ms": res.Ms, "longTasks": res.LongTasks, "maxTask": res.MaxTask,
				"p50": nullable(res.P50), "p95": nullable(res.P95), "dom": res.DOM, "skipped": res.Skipped,
			}))
			return nil
		})
		global.Call("requestAnimationFrame", raf)
	}

	if len(lines) == 0 {
		start = now()
		finish()
		return
	}
	switch {
	case r.Rate > 0:
		global.Call("setTimeout", step, 0)
	case port.IsUndefined():
		loop.Invoke(step)
	default:
		port.Call("postMessage", 0)
	}
}

// afterFrames blocks until n animation frames have passed, then one task.
func afterFrames(n int) {
	done := make(chan struct{})
	var raf, task js.Func
	count := 0
	task = js.FuncOf(func(this js.Value, args []js.Value) any {
		close(done)
		return nil
	})
	raf = js.FuncOf(func(this js.Value, args []js.Value) any {
		if count++; count < n {
			js.Global().Call("requestAnimationFrame", raf)
		} else {
			js.Global().Call("setTimeout", task, 0)
		}
		return nil
	})
	js.Global().Call("requestAnimationFrame", raf)
	<-done
	raf.Release()
	task.Release()
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

func nullable(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
