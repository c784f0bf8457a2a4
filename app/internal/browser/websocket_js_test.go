//go:build js && wasm

package browser

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// These run under Node, against the WebSocket server of TestUnderNode
// (node_test.go), whose address is in JSWS_TEST_URL.

func serverURL(t *testing.T, path string) string {
	t.Helper()
	base := os.Getenv("JSWS_TEST_URL")
	if base == "" {
		t.Skip("run by TestUnderNode, which serves the other side")
	}
	return base + path
}

// within bounds a test that would otherwise hang: not a measure.
func within(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// readN reads until n messages have come.
func readN(t *testing.T, ctx context.Context, c *WebSocket, n int) [][]byte {
	t.Helper()
	var got [][]byte
	for len(got) < n {
		msgs, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("after %d messages of %d: %v", len(got), n, err)
		}
		got = append(got, msgs...)
	}
	return got
}

// Messages come in the order sent, text and binary alike; what is written
// reaches the other side; closed, the connection refuses to write and
// read.
func TestReadInOrderAndWrite(t *testing.T) {
	ctx := within(t)
	c, err := DialWebSocket(ctx, serverURL(t, "/greet"))
	if err != nil {
		t.Fatal(err)
	}
	got := readN(t, ctx, c, 3)
	want := [][]byte{[]byte("one"), []byte("two"), {0, 1, 2, 255}}
	if len(got) != 3 || !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) || !bytes.Equal(got[2], want[2]) {
		t.Fatalf("read %q, want %q", got, want)
	}
	for _, text := range []string{"hi", "Xin chào 👋"} {
		if err := c.WriteText([]byte(text)); err != nil {
			t.Fatal(err)
		}
		if echo := readN(t, ctx, c, 1); string(echo[0]) != "echo:"+text {
			t.Fatalf("echo %q, want %q", echo[0], "echo:"+text)
		}
	}
	c.CloseNow()
	if err := c.WriteText([]byte("late")); !errors.Is(err, ErrWebSocketClosed) {
		t.Fatalf("WriteText after CloseNow: %v, want ErrWebSocketClosed", err)
	}
	if _, err := c.Read(ctx); !errors.Is(err, ErrWebSocketClosed) {
		t.Fatalf("Read after CloseNow: %v, want ErrWebSocketClosed", err)
	}
	c.CloseNow() // twice is harmless
}

// What came before the other side closed is read first; then the reason,
// with its code.
func TestClosedByTheOtherSide(t *testing.T) {
	ctx := within(t)
	c, err := DialWebSocket(ctx, serverURL(t, "/close"))
	if err != nil {
		t.Fatal(err)
	}
	if got := readN(t, ctx, c, 1); string(got[0]) != "bye" {
		t.Fatalf("read %q, want bye", got[0])
	}
	_, err = c.Read(ctx)
	if err == nil || !strings.Contains(err.Error(), "(4001)") {
		t.Fatalf("Read after the close: %v, want the code 4001", err)
	}
	if err := c.WriteText([]byte("late")); err == nil {
		t.Fatal("WriteText on a closed connection did not fail")
	}
}

// A message over the read limit closes the connection with an error; a
// larger limit takes it.
func TestReadLimit(t *testing.T) {
	ctx := within(t)
	c, err := DialWebSocket(ctx, serverURL(t, "/big"))
	if err != nil {
		t.Fatal(err)
	}
	var readErr error
	for readErr == nil {
		var msgs [][]byte
		msgs, readErr = c.Read(ctx)
		for _, m := range msgs {
			if len(m) > 32<<10 {
				t.Fatalf("read a message of %d bytes over the default limit", len(m))
			}
		}
	}
	if !strings.Contains(readErr.Error(), "over the read limit") {
		t.Fatalf("Read: %v, want the read limit", readErr)
	}
	if err := c.WriteText([]byte("late")); err == nil {
		t.Fatal("WriteText after the limit closed the connection did not fail")
	}

	c, err = DialWebSocket(ctx, serverURL(t, "/big"))
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(64 << 10)
	got := readN(t, ctx, c, 2)
	if len(got[0]) != 40<<10 || string(got[1]) != "after" {
		t.Fatalf("read %d and %q, want 40 KiB and after", len(got[0]), got[1])
	}
	c.CloseNow()
}

// A URL the browser refuses is an error, not a panic; a dial that does
// not open in time ends with its context. (Not here: a server that is not
// there. Browsers follow the error event with a close event, as the
// standard says, and WebSocket waits for that; Node 20's client fires the
// error alone. In Chromium, TestServerKilledMidRun redials a killed server.)
func TestDialFails(t *testing.T) {
	ctx := within(t)
	serverURL(t, "") // skips outside TestUnderNode
	if c, err := DialWebSocket(ctx, "not a url"); err == nil || c != nil {
		t.Fatalf("DialWebSocket(not a url) = %v, %v; want an error", c, err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := DialWebSocket(short, serverURL(t, "/hang")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("DialWebSocket(a server that never answers) = %v, want the context's deadline", err)
	}
}

// Read ends with its context and closes the connection: the other side
// sees a normal closure (TestUnderNode checks).
func TestReadEndsWithItsContext(t *testing.T) {
	ctx := within(t)
	c, err := DialWebSocket(ctx, serverURL(t, "/silent"))
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := c.Read(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Read = %v, want the context's deadline", err)
	}
	if err := c.WriteText([]byte("late")); !errors.Is(err, ErrWebSocketClosed) {
		t.Fatalf("WriteText after: %v, want ErrWebSocketClosed", err)
	}
}
