//go:build browser

package browsertest

import (
	"bytes"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"stepwise/server/demo"
	"stepwise/server/site"
	"stepwise/state/wire"
)

// Issue 38, item 1: a conversation whose data file gives back an event
// that is not UTF-8 (two flipped bytes) still shows, live over the
// WebSocket: the page is not stuck on "Reconnecting", and the events
// after the damaged one arrive.
func TestDamagedConversationStillShows(t *testing.T) {
	scenarios, err := demo.LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a, err := demo.Open(path, scenarios, demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.Speed = 50
	s, err := a.Attach("poisoned")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := wire.DecodeClientFrame([]byte(`{"type":"user_message","content":"/error"}`))
	if err := a.Handle(s, f); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); s.Status() != "error"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the run did not end")
		}
	}
	s.Detach()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// The first text delta: "Đa" becomes "\xff\na".
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		ev := tx.Bucket([]byte("sessions")).Bucket([]byte("poisoned")).Bucket([]byte("events"))
		var key, val []byte
		ev.ForEach(func(k, v []byte) error {
			if key == nil && bytes.Contains(v, []byte(`"text":"Đa"`)) {
				key, val = bytes.Clone(k), bytes.ReplaceAll(v, []byte("Đa"), []byte("\xff\na"))
			}
			return nil
		})
		if key == nil {
			t.Fatal("no text delta to damage")
		}
		return ev.Put(key, val)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	b := openAgentAt(t, path, scenarios)
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: b}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()
	p := newPage(t)
	p.openAt(srv.URL, "/?session=poisoned&lang=en")
	// The terminal error comes after the damaged event, on the same socket.
	p.waitJS(agentStatus+` === "error" && document.querySelector('[data-kind="error"]') && `+
		`document.querySelector('[data-testid="conversation"]').textContent.includes("\uFFFD")`, 30*time.Second)
	p.waitConnected()
	p.screenshot("damaged-conversation")
	// And the conversation goes on.
	p.send("/error")
	p.waitJS(`document.querySelectorAll('[data-kind="user"]').length === 2 && `+agentStatus+` === "error" && `+
		`document.querySelectorAll('[data-kind="error"]').length === 2`, 30*time.Second)
	if state := eval[string](p, `document.querySelector('[data-testid="connection"]').dataset.state`); state != "open" {
		t.Fatalf("connection %q", state)
	}
}

// openAgentAt opens a demo agent on the data file at path.
func openAgentAt(t *testing.T, path string, scenarios demo.Scenarios) *demo.Agent {
	t.Helper()
	a, err := demo.Open(path, scenarios, demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.Speed = 50
	t.Cleanup(func() { a.Close() })
	return a
}
