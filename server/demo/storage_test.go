package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

// fullDisk fails every write as a full disk does, while on.
type fullDisk struct {
	next batchWriter
	on   atomic.Bool
}

func (d *fullDisk) writeBatches(b []batch) error {
	if d.on.Load() {
		return fmt.Errorf("write stepwise.db: %w", syscall.ENOSPC)
	}
	return d.next.writeBatches(b)
}

func openWithDisk(t *testing.T, path string) (*Agent, *fullDisk) {
	t.Helper()
	disk := &fullDisk{}
	a := openAgent(t, path, Options{retryEvery: 20 * time.Millisecond, wrapWriter: func(w batchWriter) batchWriter {
		disk.next = w
		return disk
	}})
	return a, disk
}

// handleWithin runs Handle, failing the test if it does not return.
func handleWithin(t *testing.T, a *Agent, s *Session, text string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- a.Handle(s, message(text)) }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Handle did not return")
		return nil
	}
}

// lastError is the text of the newest error item.
func lastError(st *state.Store) string {
	items := st.Items()
	if len(items) == 0 || items[len(items)-1].Kind != state.KindError {
		return ""
	}
	return items[len(items)-1].Text
}

// The disk fills during a run: the run ends with an error that says so
// (the reader's stream gets it, unstored), a new message is refused with
// that reason (it comes back to the composer), and once a write succeeds
// again the conversation goes on with the next ids.
func TestFullDiskEndsTheRunAndRefusesNewWork(t *testing.T) {
	a, disk := openWithDisk(t, filepath.Join(t.TempDir(), "stepwise.db"))
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsDial(t, ctx, srv, "full")
	wsSend(t, ctx, c, `{"type":"subscribe","session_id":"full"}`)
	wsSend(t, ctx, c, `{"command_id":"c1","type":"user_message","content":"/gated"}`)
	viewer := state.New(state.DefaultOptions())
	results := map[string]map[string]any{}
	read := func(cond func() bool) {
		t.Helper()
		for !cond() {
			msg := wsReadValid(t, ctx, c)
			if r := readResult(msg); r != nil {
				results[r["command_id"].(string)] = r
				continue
			}
			viewer.ApplyJSON(msg)
		}
	}
	read(func() bool { return hasGroupWithTools(2)(viewer) && results["c1"] != nil })
	require.Equal(t, true, results["c1"]["ok"])

	disk.on.Store(true)
	a.Release("full")
	read(func() bool { return viewer.Status() == state.StatusError })
	assert.Contains(t, lastError(viewer), "disk is full")
	assert.Empty(t, openTools(viewer), "its running tools are cancelled")

	wsSend(t, ctx, c, `{"command_id":"c2","type":"user_message","content":"/error"}`)
	read(func() bool { return results["c2"] != nil })
	assert.Equal(t, false, results["c2"]["ok"])
	assert.Equal(t, "unavailable", results["c2"]["error"].(map[string]any)["type"])
	assert.Contains(t, results["c2"]["error"].(map[string]any)["message"], "disk is full")
	code, body := postCommand(t, srv, "other", []byte(`{"type":"user_message","content":"hello"}`))
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body["error"].(map[string]any)["message"], "disk is full")
	h, err := a.History("full")
	require.NoError(t, err)
	assert.Equal(t, "error", h["agent_status"])

	// A page loaded now (F5) gets the same conversation.
	s := attach(t, a, "full")
	reloaded := collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
	assert.Equal(t, viewer.LastEventID(), reloaded.LastEventID())

	// Space again: the closing events are stored, new work is taken, and
	// its ids follow those the reader has.
	disk.on.Store(false)
	waitInFile(s)
	n := len(mustEvents(t, a, "full"))
	assert.Equal(t, viewer.LastEventID().String(), strconv.Itoa(n), "the file holds what the reader was sent")
	wsSend(t, ctx, c, `{"command_id":"c3","type":"user_message","content":"/error"}`)
	read(func() bool { return results["c3"] != nil })
	assert.Equal(t, true, results["c3"]["ok"])
	read(func() bool {
		return viewer.Status() == state.StatusError && viewer.LastEventID().String() != strconv.Itoa(n)
	})
	assert.Zero(t, viewer.SkippedCount())
	users := 0
	for _, it := range viewer.Items() {
		if it.Kind == state.KindUser {
			users++
		}
	}
	assert.Equal(t, 2, users, "the new message shows: its id follows the reader's")
}

// waitInFile waits until the data file has every event of the session.
func waitInFile(s *Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.durable < s.count {
		s.stored.Wait()
	}
}

// readResult returns a command_result frame, nil for anything else.
func readResult(msg []byte) map[string]any {
	var m map[string]any
	if json.Unmarshal(msg, &m) != nil || m["type"] != "command_result" {
		return nil
	}
	return m
}

// A message whose own write fails is refused, and no reader was sent it.
func TestFullDiskRefusesTheMessageItCannotStore(t *testing.T) {
	a, disk := openWithDisk(t, filepath.Join(t.TempDir(), "stepwise.db"))
	s := attach(t, a, "m")
	sub, err := s.Subscribe("")
	require.NoError(t, err)
	defer sub.Cancel()
	disk.on.Store(true)
	err = handleWithin(t, a, s, "/error")
	require.ErrorIs(t, err, ErrStorage)
	assert.Contains(t, err.Error(), "disk is full")
	select {
	case ev := <-sub.Live:
		t.Fatalf("a reader was sent %s", ev)
	default:
	}
	disk.on.Store(false)
	require.Eventually(t, func() bool { return a.storageErr() == nil }, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, handleWithin(t, a, s, "/error"))
	settle(t, s)
	assert.JSONEq(t, `"1"`, string(mustField(t, mustEvents(t, a, "m")[0], "event_id")))
}

// A server started on a full disk starts, read-only: it shows what the
// file holds, closes in memory the run the last shutdown cut, and refuses
// new work until it can write.
func TestFullDiskAtStartOpensReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{})
	s, err := a.Attach("cut")
	require.NoError(t, err)
	require.NoError(t, a.Handle(s, message("/gated")))
	collect(t, s, "", hasGroupWithTools(2))
	s.Detach()
	require.NoError(t, a.Close())

	disk := &fullDisk{}
	disk.on.Store(true)
	b := openAgent(t, path, Options{retryEvery: 20 * time.Millisecond, wrapWriter: func(w batchWriter) batchWriter {
		disk.next = w
		return disk
	}})
	s2 := attach(t, b, "cut")
	st := collect(t, s2, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
	assert.Contains(t, lastError(st), "restarted")
	assert.ErrorIs(t, handleWithin(t, b, s2, "/error"), ErrStorage)
	disk.on.Store(false)
	waitInFile(s2)
	assert.Nil(t, b.storageErr())
	assert.Equal(t, st.LastEventID().String(), strconv.Itoa(len(mustEvents(t, b, "cut"))))
	require.NoError(t, handleWithin(t, b, s2, "/error"))
}

// The same on a real full disk: a 200 KB tmpfs (when this machine lets the
// test mount one; CI may not).
func TestFullDiskOnTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "stepwise.db")
	a := openAgent(t, path, Options{retryEvery: 20 * time.Millisecond})
	s, err := a.Attach("t")
	require.NoError(t, err)
	// Fill the disk but for a few pages.
	var fs syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &fs))
	filler := filepath.Join(dir, "filler")
	require.NoError(t, os.WriteFile(filler, make([]byte, int64(fs.Bavail)*fs.Bsize-24<<10), 0o600))

	require.NoError(t, handleWithin(t, a, s, "/long"))
	st := collect(t, s, "", func(st *state.Store) bool {
		return st.Status() != state.StatusRunning && st.Status() != state.StatusIdle
	})
	assert.Equal(t, state.StatusError, st.Status())
	assert.Contains(t, lastError(st), "disk is full")
	err = handleWithin(t, a, s, "/error")
	require.ErrorIs(t, err, ErrStorage)
	assert.True(t, errors.Is(err, syscall.ENOSPC), "%v", err)

	// A restart on the full disk: the server starts and shows the run.
	s.Detach()
	require.NoError(t, a.Close())
	b := openAgent(t, path, Options{retryEvery: 20 * time.Millisecond})
	s2 := attach(t, b, "t")
	st2 := collect(t, s2, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
	assert.NotEmpty(t, lastError(st2))

	// Space again.
	require.NoError(t, os.Remove(filler))
	require.Eventually(t, func() bool { return handleWithin(t, b, s2, "/error") == nil }, 10*time.Second, 50*time.Millisecond)
	settle(t, s2)
}
