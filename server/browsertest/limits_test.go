//go:build browser

package browsertest

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stepwise/server/demo"
	"stepwise/server/site"
)

// A message refused by the server's limit on new conversations says so on
// itself, with the server's sentence and a retry, over WebSocket and SSE;
// nothing is added to the conversation, and Edit takes the text back to
// the composer (docs/interaction.md, "Sending").
func TestNewConversationOverTheLimitIsRefused(t *testing.T) {
	scenarios, err := demo.LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	a, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), scenarios, demo.Options{ClientSessionsPerHour: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	a.Speed = 50
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: &demo.Handler{Agent: a}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close) // after the page's (an open SSE stream holds Close)
	p := newPage(t)
	p.openAt(srv.URL, "/?session=limit-first&lang=en")
	p.waitConnected()
	p.send("/error")
	p.waitJS(agentStatus+` === "error"`, 30*time.Second)
	for _, transport := range []string{"ws", "sse"} {
		p.openAt(srv.URL, "/?session=limit-"+transport+"&lang=en&transport="+transport)
		p.waitConnected()
		p.send("one conversation too many")
		failed := `document.querySelector('[data-testid="outgoing"][data-state="failed"]')`
		p.waitJS(failed+` && `+failed+`.textContent.includes('too many conversations')`, 15*time.Second)
		if n := eval[int](p, `document.querySelectorAll('[data-kind="user"]').length`); n != 0 {
			t.Errorf("%s: %d user messages shown, want none", transport, n)
		}
		status := eval[string](p, failed+`.querySelector('.outgoing-text').textContent`)
		if !strings.HasPrefix(status, "Not sent: ") {
			t.Errorf("%s: the message says %q", transport, status)
		}
		p.screenshot("refused-new-conversation-" + transport)
		p.click(`[data-testid="outgoing-edit"]`)
		p.waitJS(composerValue+` === "one conversation too many"`, 5*time.Second)
	}
}
