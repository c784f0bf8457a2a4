//go:build js && wasm

package browser

// The browser's WebSocket seen from Go: dial, read the messages in order,
// write text, close. It replaces coder/websocket in the wasm (the server
// keeps it): that package imports net/http, whose package initialisers
// keep crypto/tls and most of the standard library's crypto in the binary
// (with go-app's server side, see wasm/goapp-wasm.patch), for a wrapper of
// the same few calls.

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"syscall/js"
)

// ErrWebSocketClosed is returned by Read and WriteText once the
// connection is closed.
var ErrWebSocketClosed = errors.New("websocket: connection closed")

// WebSocket is an open WebSocket. Read is for one goroutine; WriteText and
// CloseNow may be called from any.
type WebSocket struct {
	ws        js.Value
	readLimit int

	// batch is web/boot.js's stepwiseQueue for this socket (take, stop),
	// undefined without it (then each message is queued by received).
	batch js.Value

	mu      sync.Mutex
	queue   [][]byte      // messages received and not yet read
	signal  chan struct{} // a message was queued (capacity 1)
	closed  chan struct{} // closed when the socket is
	closeMu sync.Once
	err     error // why it closed, set before closed is

	funcs []js.Func
}

// DialWebSocket opens a WebSocket to url (ws: or wss:) and waits until it is open,
// closed by the other side, or ctx ends (then it closes it).
func DialWebSocket(ctx context.Context, url string) (c *WebSocket, err error) {
	defer func() {
		// new WebSocket throws on a malformed URL.
		if r := recover(); r != nil {
			c, err = nil, errors.New("websocket: "+errorString(r))
		}
	}()
	c = &WebSocket{
		ws:        js.Global().Get("WebSocket").New(url),
		readLimit: 32 << 10,
		signal:    make(chan struct{}, 1),
		closed:    make(chan struct{}),
	}
	c.ws.Set("binaryType", "arraybuffer")
	opened := make(chan struct{})
	c.on("open", func(js.Value) { close(opened) })
	if q := js.Global().Get("stepwiseQueue"); q.Type() == js.TypeFunction {
		wake := js.FuncOf(func(js.Value, []js.Value) any {
			c.wake()
			return nil
		})
		c.funcs = append(c.funcs, wake)
		c.batch = q.Invoke(c.ws, wake)
	} else {
		c.on("message", c.received)
	}
	c.on("close", func(e js.Value) {
		c.close(errors.New("websocket: closed (" + strconv.Itoa(e.Get("code").Int()) + ")"))
	})
	// An error event is always followed by a close event; it says nothing
	// more (browsers hide the reason).
	select {
	case <-opened:
		return c, nil
	case <-c.closed:
		return nil, c.err
	case <-ctx.Done():
		c.CloseNow()
		return nil, ctx.Err()
	}
}

// on sets the socket's onNAME handler. Handlers run on the browser's event
// loop and must not block.
func (c *WebSocket) on(name string, fn func(js.Value)) {
	f := js.FuncOf(func(this js.Value, args []js.Value) any {
		fn(args[0])
		return nil
	})
	c.funcs = append(c.funcs, f)
	c.ws.Set("on"+name, f)
}

// received queues a message event's data.
func (c *WebSocket) received(e js.Value) {
	b := messageBytes(e.Get("data"))
	c.mu.Lock()
	c.queue = append(c.queue, b)
	c.mu.Unlock()
	c.wake()
}

// wake tells Read that messages wait.
func (c *WebSocket) wake() {
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

// readBatch is the most messages Read takes from stepwiseQueue at once.
// What Read returns is applied and rendered in one task of the browser: a
// backlog of tens of thousands of messages (a long conversation replayed
// on open) taken whole makes long tasks, and the page paints only between
// batches; much smaller batches make more renders and bring the newest
// answer later.
const readBatch = 4096

// takeBatch moves up to max of the messages stepwiseQueue holds to the
// queue, all of them if max is 0.
func (c *WebSocket) takeBatch(max int) {
	if c.batch.IsUndefined() {
		return
	}
	data := c.batch.Call("take", max)
	n := data.Length()
	if n == 0 {
		return
	}
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = messageBytes(data.Index(i))
	}
	c.mu.Lock()
	c.queue = append(c.queue, msgs...)
	c.mu.Unlock()
}

// messageBytes is a message's data as bytes (text, or binary: the socket's
// binaryType is arraybuffer).
func messageBytes(data js.Value) []byte {
	if data.Type() == js.TypeString {
		return []byte(data.String())
	}
	arr := js.Global().Get("Uint8Array").New(data)
	b := make([]byte, arr.Length())
	js.CopyBytesToGo(b, arr)
	return b
}

// SetReadLimit sets the largest message Read accepts (32 KiB until set);
// a larger one closes the connection.
func (c *WebSocket) SetReadLimit(n int) { c.readLimit = n }

// Read returns the messages received and not yet read, at least one, in
// the order received: those that came together are read together, up to
// readBatch of them (web/boot.js gathers them), so that the reader can
// handle them as one. When ctx ends it closes the connection; once the
// connection is closed and every message received has been read, it
// returns the reason.
func (c *WebSocket) Read(ctx context.Context) ([][]byte, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			msgs := c.queue
			c.queue = nil
			c.mu.Unlock()
			for i, b := range msgs {
				if len(b) > c.readLimit {
					// Those before it are read; then the connection is closed.
					c.closeWith("message too big")
					if i > 0 {
						return msgs[:i], nil
					}
					return nil, errors.New("websocket: message of " + strconv.Itoa(len(b)) + " bytes over the read limit")
				}
			}
			return msgs, nil
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
			// Taken only when woken: a batch left over is taken in a
			// later task (stepwiseQueue wakes again).
			c.takeBatch(readBatch)
		case <-c.closed:
			c.mu.Lock()
			more := len(c.queue) > 0
			c.mu.Unlock()
			if !more {
				return nil, c.err
			}
		case <-ctx.Done():
			c.CloseNow()
			return nil, ctx.Err()
		}
	}
}

// WriteText sends b as a text message. It fails once the socket is
// closing: the browser would drop the message without a word.
func (c *WebSocket) WriteText(b []byte) (err error) {
	select {
	case <-c.closed:
		return c.err
	default:
	}
	if c.ws.Get("readyState").Int() != 1 { // OPEN
		return ErrWebSocketClosed
	}
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("websocket: " + errorString(r))
		}
	}()
	c.ws.Call("send", string(b))
	return nil
}

// CloseNow closes the connection without waiting for the other side.
// Messages not yet read are dropped.
func (c *WebSocket) CloseNow() { c.closeWith("") }

// closeWith closes with status 1000, the only one below 3000 a page may
// send (close throws on any other).
func (c *WebSocket) closeWith(reason string) {
	c.close(ErrWebSocketClosed)
	c.mu.Lock()
	c.queue = nil
	c.mu.Unlock()
	c.ws.Call("close", 1000, reason)
}

// close marks the connection closed and lets go of the handlers (once):
// the socket holds no Go function afterwards, so none can be called after
// its release.
func (c *WebSocket) close(err error) {
	c.closeMu.Do(func() {
		c.err = err
		if !c.batch.IsUndefined() {
			c.takeBatch(0) // what came before the close is still read
			c.batch.Call("stop")
		}
		for _, name := range []string{"open", "message", "close"} {
			c.ws.Set("on"+name, js.Null())
		}
		for _, f := range c.funcs {
			f.Release()
		}
		close(c.closed)
	})
}

func errorString(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	return "failed"
}
