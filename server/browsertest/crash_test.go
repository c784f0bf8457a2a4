//go:build browser

package browsertest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// realServer is the stepwise binary in a child process, so a test can kill
// it the way a crash would.
type realServer struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// buildServer builds the server binary once per test.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stepwise")
	cmd := exec.Command("go", "build", "-o", bin, "stepwise/server")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freeAddr returns a loopback address nothing listens on, so the server
// can be started twice on the same one (the page reconnects to its origin).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// startReal starts the binary and waits until it listens.
func startReal(t *testing.T, bin string, args ...string) *realServer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &realServer{cmd: cmd, done: make(chan struct{})}
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), "serving on ") {
				said = true
				close(listening)
			}
		}
		cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(s.kill)
	select {
	case <-listening:
	case <-s.done:
		t.Fatal("the server exited at start-up")
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not start")
	}
	return s
}

// kill ends the server with SIGKILL: no shutdown, no flush.
func (s *realServer) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// Issue 8, item 1: the server is killed (SIGKILL) in the middle of /long
// and started again with the same flags. The page must not hang on a
// silent spinner: it reconnects, shows the run as ended (no tool left
// spinning, the restart said in the conversation), and the next message is
// sent, played and shown. A reload (F5) then shows the whole conversation,
// nothing lost.
func TestServerKilledMidRun(t *testing.T) {
	bin := buildServer(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	args := []string{"-addr", addr, "-web", filepath.Join(wd, "../../web"),
		"-data", filepath.Join(t.TempDir(), "stepwise.db"), "-sandbox-addr", "off"} // addr's port + 1 may be taken
	base := "http://" + addr

	first := startReal(t, bin, args...)
	p := newPage(t)
	p.openAt(base, "/?session=crash&lang=fr")
	p.waitConnected()
	p.send("/long")
	// Mid-run: /long plays 40 groups at its own pace, for minutes; two
	// groups are early in it.
	p.waitJS(`document.querySelectorAll('[data-kind="group"]').length >= 2 && `+agentStatus+` === "running"`, 30*time.Second)
	first.kill()
	p.waitJS(`document.querySelector('[data-testid="connection"]').dataset.state !== "open"`, 30*time.Second)

	startReal(t, bin, args...)
	p.waitJS(`document.querySelector('[data-testid="connection"]').dataset.state === "open"`, 60*time.Second)
	// The run's end arrives: no tool spins any more, the status says the
	// run failed, and the conversation says why.
	p.waitJS(agentStatus+` === "error"`, 30*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="tool"][data-status="active"], [data-kind="tool"][data-status="awaiting"]').length`); n != 0 {
		t.Fatalf("%d tools still spin after the restart", n)
	}
	if n := eval[int](p, `document.querySelectorAll('[data-testid="stop"]').length`); n != 0 {
		t.Fatalf("the Stop button still shows after the run ended")
	}
	last := eval[string](p, `(() => { const items = document.querySelectorAll('[data-testid="conversation"] [data-kind]:not([data-kind="tool"])'); return items[items.length-1].dataset.kind })()`)
	if last != "error" {
		t.Fatalf("the last item is %q, want the error that says the agent restarted", last)
	}
	if got := eval[string](p, `[...document.querySelectorAll('[data-kind="error"]')].pop().textContent`); !strings.Contains(got, "L'agent a redémarré") {
		t.Fatalf("the restart error reads %q, want it in French", got)
	}
	groupsBefore := eval[int](p, `document.querySelectorAll('[data-kind="group"]').length`)

	// The next message is sent, played and shown.
	p.send("/parallel")
	p.waitJS(`document.querySelectorAll('[data-kind="user"]').length === 2`, 15*time.Second)
	p.waitJS(agentStatus+` === "idle"`, 60*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="group"]').length`); n <= groupsBefore {
		t.Fatalf("the second run added no group (%d before, %d after)", groupsBefore, n)
	}
	p.screenshot("crash-restart")
	before := p.view()

	// F5 shows the same conversation: nothing lost, nothing twice.
	p.reload()
	p.waitConnected()
	p.waitJS(`document.querySelectorAll('[data-kind="user"]').length === 2 && `+agentStatus+` === "idle"`, 30*time.Second)
	sameView(t, p.view(), before)
}
