package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the server itself when STEPWISE_TEST_SERVE holds its
// arguments (a JSON list): the tests start the real server in a child
// process, so they can kill it.
func TestMain(m *testing.M) {
	if raw := os.Getenv("STEPWISE_TEST_SERVE"); raw != "" {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			panic(err)
		}
		os.Exit(serve(args))
	}
	os.Exit(m.Run())
}

// servingOn finds the server's address in its start-up line.
var servingOn = regexp.MustCompile(`serving on (http://[^\s"/]+)`)

// server is the real server running in a child process.
type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	URL  string // http://host:port
	done chan struct{}
	err  error // Wait's, once done is closed

	mu  sync.Mutex
	log []string
}

// startServer starts the server with these flags and waits until it
// listens.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	return startServerEnv(t, nil, args...)
}

// startServerEnv is startServer with these variables added to the
// environment ("NAME=value").
func startServerEnv(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), env...), "STEPWISE_TEST_SERVE="+string(raw))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, done: make(chan struct{})}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log = append(s.log, line)
			s.mu.Unlock()
			if m := servingOn.FindStringSubmatch(line); m != nil {
				listening <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.kill()
		if t.Failed() {
			s.mu.Lock()
			for _, l := range s.log {
				t.Log("server:", l)
			}
			s.mu.Unlock()
		}
	})
	select {
	case s.URL = <-listening:
	case <-s.done:
		t.Fatalf("the server exited: %v; log:\n%s", s.err, strings.Join(s.log, "\n"))
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not start")
	}
	return s
}

// kill ends the server with SIGKILL, as a crash would.
func (s *server) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// stop ends the server with SIGTERM and returns its exit code.
func (s *server) stop() int {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		s.t.Fatal("the server did not stop on SIGTERM")
	}
	var exit *exec.ExitError
	if errors.As(s.err, &exit) {
		return exit.ExitCode()
	}
	return 0
}

// fakeWeb makes a web directory with a stand-in app.wasm.
func fakeWeb(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
