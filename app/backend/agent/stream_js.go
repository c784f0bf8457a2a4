//go:build js && wasm

package agent

import (
	"sync/atomic"
	"syscall/js"
	"time"

	"stepwise/app/internal/browser"
	"stepwise/state/wire"
)

// The agent transport: one fetch per run, its body read as it streams
// (the browser's fetch through syscall/js: net/http would bring crypto/tls
// into app.wasm), stopped by aborting it. What it reads goes to the
// Backend's events, from the request's goroutine.

// fetchStream is the request being streamed.
type fetchStream struct {
	abort  js.Value // its AbortController
	resume bool     // an AI SDK resume (GET), not a run
	// stopped: Stop aborted it; the reader applies nothing more.
	stopped atomic.Bool
	// timedOut: the watchdog aborted it, nothing having come for the
	// silence timeout.
	timedOut atomic.Bool
	// alive is signalled on each read: the watchdog starts its wait again.
	alive chan struct{}
	done  chan struct{} // closed when the reader ends
}

// maxHead is how much of an answer that is not a stream is read, to say
// what it was.
const maxHead = 8 << 10

// startRequest sends req and streams its answer into ev. It returns the
// stream, to abort it.
func startRequest(req Request, silence time.Duration, ev events) stream {
	st := &fetchStream{abort: js.Global().Get("AbortController").New(), resume: req.Method == "GET",
		alive: make(chan struct{}, 1), done: make(chan struct{})}
	if silence > 0 {
		go st.watch(silence)
	}
	go func() {
		defer close(st.done)
		// ended reports how the stream ended: the watchdog's timeout, or
		// err (a Stop's abort is dropped by the Backend).
		ended := func(err error) {
			if st.timedOut.Load() {
				ev.silent()
				return
			}
			ev.end(err)
		}
		headers := map[string]any{"Accept": "text/event-stream"}
		init := map[string]any{
			"method":      req.Method,
			"headers":     headers,
			"signal":      st.abort.Get("signal"),
			"credentials": "same-origin",
			"cache":       "no-store",
		}
		if req.Body != nil {
			headers["Content-Type"] = "application/json"
			init["body"] = string(req.Body)
		}
		resp, err := browser.Await(js.Global().Call("fetch", req.URL, init))
		if err != nil {
			ended(err)
			return
		}
		st.ping()
		status := resp.Get("status").Int()
		if status == 204 {
			ev.none()
			return
		}
		ctype := ""
		if h := resp.Get("headers").Call("get", "content-type"); h.Type() == js.TypeString {
			ctype = h.String()
		}
		reader := resp.Get("body").Call("getReader")
		if p := wire.CheckStreamResponse(status, ctype, nil); p != nil && (p.Status != 0 || ctype != "") {
			head := readHead(reader)
			p = wire.CheckStreamResponse(status, ctype, head)
			if p != nil {
				ev.problem(p)
				return
			}
		}
		ev.started()
		// A stream that comes faster than the page applies it is read
		// from the browser's buffer, each read answered at once: without
		// a pause the page would take no click (not even Stop) nor paint
		// until the stream slowed down.
		slice := time.Now()
		parser := wire.SSEParser{MaxData: MaxEvent}
		skipped := 0
		var frames [][]byte
		collect := func(e wire.SSEEvent) {
			if !e.Done() && e.Data != "" {
				frames = append(frames, []byte(e.Data))
			}
		}
		for {
			r, err := browser.Await(reader.Call("read"))
			if err != nil {
				ended(err)
				return
			}
			if st.stopped.Load() {
				return // stopped: what was read is not applied
			}
			st.ping()
			if r.Get("done").Bool() {
				break
			}
			chunk := r.Get("value")
			buf := make([]byte, chunk.Get("length").Int())
			js.CopyBytesToGo(buf, chunk)
			parser.Feed(buf, collect)
			if parser.Skipped > skipped {
				skipped = parser.Skipped
				ev.dropped()
			}
			if len(frames) > 0 {
				batch := frames
				frames = nil
				ev.frames(batch)
			}
			if time.Since(slice) > browser.PacedSlice {
				browser.PauseTask()
				slice = time.Now()
			}
		}
		parser.Close(collect)
		if len(frames) > 0 {
			ev.frames(frames)
		}
		ev.end(nil)
	}()
	return st
}

// readHead reads the start of a body that is not a stream.
func readHead(reader js.Value) []byte {
	var head []byte
	for len(head) < maxHead {
		r, err := browser.Await(reader.Call("read"))
		if err != nil || r.Get("done").Bool() {
			break
		}
		chunk := r.Get("value")
		buf := make([]byte, chunk.Get("length").Int())
		js.CopyBytesToGo(buf, chunk)
		head = append(head, buf...)
	}
	reader.Call("cancel").Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	return head
}

// Stop aborts the request: its pending read fails at once, and nothing
// read after is applied.
func (st *fetchStream) Stop() {
	if st != nil {
		st.stopped.Store(true)
		st.abort.Call("abort")
	}
}

// ping tells the watchdog that something came.
func (st *fetchStream) ping() {
	select {
	case st.alive <- struct{}{}:
	default:
	}
}

// watch aborts the request when nothing comes for silence: no answer, no
// byte of the stream (an SSE comment, a keep-alive, counts).
func (st *fetchStream) watch(silence time.Duration) {
	t := time.NewTimer(silence)
	defer t.Stop()
	for {
		select {
		case <-st.alive:
			if !t.Stop() {
				<-t.C
			}
			t.Reset(silence)
		case <-st.done:
			return
		case <-t.C:
			if !st.stopped.Load() {
				st.timedOut.Store(true)
				st.abort.Call("abort")
			}
			return
		}
	}
}

// unloading is set when the page goes away (F5, closing the tab): the
// browser then cuts the stream, which is not the agent's failure, and the
// conversation must stay as saved so the reload resumes it.
var unloading bool

func pageUnloading() bool { return unloading }

// aborted reports the error of a request the page aborted (Stop).
func aborted(err error) bool { return browser.Aborted(err) }

func watchUnload() {
	js.Global().Call("addEventListener", "pagehide", js.FuncOf(func(js.Value, []js.Value) any {
		unloading = true
		return nil
	}))
	js.Global().Call("addEventListener", "beforeunload", js.FuncOf(func(js.Value, []js.Value) any {
		unloading = true
		return nil
	}))
}
