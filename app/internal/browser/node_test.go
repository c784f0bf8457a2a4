//go:build !js

package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestUnderNode runs the package's tests (websocket_js_test.go among them) in wasm under
// Node, whose WebSocket is the browser's API, against a coder/websocket
// server here: the order of messages, text and binary, writes, the read
// limit, a close by the other side with its code, dials that fail or time
// out, and a Read that ends with its context.
func TestUnderNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a wasm test binary")
	}
	if _, err := exec.LookPath("node"); err != nil {
		skipOutsideCI(t, "node not installed (.ci/run installs it)")
	}
	hasWebSocket := func(nodeOptions string) bool {
		check := exec.Command("node", "-e", "process.stdout.write(typeof WebSocket)")
		check.Env = append(os.Environ(), "NODE_OPTIONS="+nodeOptions)
		out, _ := check.Output()
		return string(out) == "function"
	}
	nodeOptions := os.Getenv("NODE_OPTIONS")
	if !hasWebSocket(nodeOptions) {
		// Node 20 has the WebSocket client behind a flag, on by default
		// from Node 22.
		nodeOptions = strings.TrimSpace(nodeOptions + " --experimental-websocket")
		if !hasWebSocket(nodeOptions) {
			skipOutsideCI(t, "this Node has no WebSocket client")
		}
	}

	done := make(chan struct{})
	var mu sync.Mutex
	var silentClosed []websocket.StatusCode
	accept := func(w http.ResponseWriter, r *http.Request) *websocket.Conn {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err != nil {
			t.Errorf("accept %s: %v", r.URL.Path, err)
			return nil
		}
		return c
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/greet", func(w http.ResponseWriter, r *http.Request) {
		c := accept(w, r)
		if c == nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		c.Write(ctx, websocket.MessageText, []byte("one"))
		c.Write(ctx, websocket.MessageText, []byte("two"))
		c.Write(ctx, websocket.MessageBinary, []byte{0, 1, 2, 255})
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			c.Write(ctx, websocket.MessageText, append([]byte("echo:"), msg...))
		}
	})
	mux.HandleFunc("/close", func(w http.ResponseWriter, r *http.Request) {
		c := accept(w, r)
		if c == nil {
			return
		}
		c.Write(r.Context(), websocket.MessageText, []byte("bye"))
		c.Close(4001, "done")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		c := accept(w, r)
		if c == nil {
			return
		}
		defer c.CloseNow()
		c.Write(r.Context(), websocket.MessageText, []byte(strings.Repeat("x", 40<<10)))
		c.Write(r.Context(), websocket.MessageText, []byte("after"))
		c.Read(r.Context()) // until the client closes
	})
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		c := accept(w, r)
		if c == nil {
			return
		}
		defer c.CloseNow()
		_, _, err := c.Read(r.Context())
		mu.Lock()
		silentClosed = append(silentClosed, websocket.CloseStatus(err))
		mu.Unlock()
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		// Never answers the upgrade, until the client gives up.
		select {
		case <-r.Context().Done():
		case <-done:
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(done)

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execPath := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
	// A guard against a hang, not a measure.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-v", "-exec", execPath, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "NODE_OPTIONS="+nodeOptions,
		"JSWS_TEST_URL=ws"+strings.TrimPrefix(srv.URL, "http"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		t.Fatalf("the wasm tests failed:\n%s", out)
	}
	for _, name := range []string{"TestReadInOrderAndWrite", "TestClosedByTheOtherSide", "TestReadLimit", "TestDialFails", "TestReadEndsWithItsContext"} {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass under Node:\n%s", name, out)
		}
	}

	// The connection whose Read ended with its context closed normally.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		got := append([]websocket.StatusCode(nil), silentClosed...)
		mu.Unlock()
		if len(got) == 1 {
			if got[0] != websocket.StatusNormalClosure {
				t.Errorf("the server saw the connection close with %v, want a normal closure", got[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server saw %d closes of /silent, want 1", len(got))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// skipOutsideCI skips the test for want of a tool, or fails it under CI
// (CI set), whose machine .ci/run gives every tool: a test that cannot
// run there must not pass for one that did.
func skipOutsideCI(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; skipped outside CI")
}
