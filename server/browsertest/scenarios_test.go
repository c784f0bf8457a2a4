//go:build browser

package browsertest

import (
	"testing"
	"time"
)

// TestScenarioButtonsComeFromTheServer: the empty state suggests the
// scenarios the server plays, the -scenarios ones (here testdata's
// gated-group and late-result) after the built-in ones.
func TestScenarioButtonsComeFromTheServer(t *testing.T) {
	p := newPage(t)
	p.open("/?lang=en")
	p.waitJS(`document.querySelector('[data-scenario="gated-group"]')`, 10*time.Second)
	names := eval[[]string](p, `[...document.querySelectorAll('[data-scenario]')].map(b => b.dataset.scenario)`)
	n := len(names)
	if n < 3 || names[0] != "timeline" || names[n-2] != "gated-group" || names[n-1] != "late-result" {
		t.Fatalf("scenario buttons %v: want the built-in ones first, then gated-group and late-result", names)
	}
}
