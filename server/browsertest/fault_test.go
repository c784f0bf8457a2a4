//go:build browser

package browsertest

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"stepwise/server/demo"
	"stepwise/server/site"
	"stepwise/state"
)

// TestFaultDroppedConnections drops the connection 50 times at random
// points of the long scenario; the page must end equal to an uninterrupted
// run: no item twice, none missing.
func TestFaultDroppedConnections(t *testing.T) {
	scenarios, err := demo.LoadScenarios("")
	if err != nil {
		t.Fatal(err)
	}
	faulty := openAgent(t, scenarios)
	faulty.Speed = 4
	api := &demo.Handler{Agent: faulty, DropRate: 0.06, MaxDrops: 50}
	handler, err := site.New(site.Config{WebDir: "../../web", Scenarios: scenarios, API: api})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	defer srv.Close()

	p := newPage(t)
	p.openAt(srv.URL, "/?session=fault&lang=en")
	p.waitConnected()
	p.send("/long")
	p.waitJS(agentStatus+` === "idle" && document.querySelectorAll('[data-kind="group"]').length === 40`, 120*time.Second)
	if d := api.Drops(); d < 50 {
		t.Fatalf("only %d connections were dropped, want 50", min(d, 50))
	}
	// The uninterrupted run: the session's whole log applied in one go.
	st := state.New(state.DefaultOptions())
	events, err := faulty.Events("fault")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		st.ApplyJSON(ev)
	}
	b, _ := json.Marshal(st.View())
	var want map[string]any
	json.Unmarshal(b, &want)
	sameView(t, p.view(), want)
	if n := eval[int](p, `document.querySelectorAll('[data-testid="conversation"] .chunk > *').length`); n != len(st.Items()) {
		t.Fatalf("the page shows %d top-level items, the run has %d", n, len(st.Items()))
	}
}
