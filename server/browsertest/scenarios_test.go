//go:build browser

package browsertest

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestScenarioButtonsComeFromTheServer: the empty state suggests the
// scenarios the server plays, the -scenarios ones (here testdata's, by
// name) after the built-in ones.
func TestScenarioButtonsComeFromTheServer(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata's scenarios: %v %v", files, err)
	}
	var extra []string
	for _, f := range files {
		extra = append(extra, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
	}
	sort.Strings(extra)
	p := newPage(t)
	p.open("/?lang=en")
	p.waitJS(`document.querySelector('[data-scenario="gated-group"]')`, 10*time.Second)
	names := eval[[]string](p, `[...document.querySelectorAll('[data-scenario]')].map(b => b.dataset.scenario)`)
	n := len(names)
	if n <= len(extra) || names[0] != "timeline" || !slices.Equal(names[n-len(extra):], extra) {
		t.Fatalf("scenario buttons %v: want the built-in ones first, then %v", names, extra)
	}
}
