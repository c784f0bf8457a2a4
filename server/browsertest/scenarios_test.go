//go:build browser

package browsertest

import (
	"testing"
	"time"
)

// TestScenarioButtonsComeFromTheServer: the empty state suggests the
// scenarios the server plays, the -scenarios ones (here testdata's
// gated-group) after the built-in ones.
func TestScenarioButtonsComeFromTheServer(t *testing.T) {
	p := newPage(t)
	p.open("/?lang=en")
	p.waitJS(`document.querySelector('[data-scenario="gated-group"]')`, 10*time.Second)
	names := eval[[]string](p, `[...document.querySelectorAll('[data-scenario]')].map(b => b.dataset.scenario)`)
	if len(names) < 2 || names[0] != "timeline" || names[len(names)-1] != "gated-group" {
		t.Fatalf("scenario buttons %v: want the built-in ones first, then gated-group", names)
	}
}
