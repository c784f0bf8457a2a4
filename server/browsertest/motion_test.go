//go:build browser

package browsertest

import (
	"fmt"
	"testing"
	"time"
)

// Only the newest step of a running group slides in (web/stepwise.css): an
// entry animation on every step kept the browser restyling steps as their
// animations started and ended, and a finished group revealing its hidden
// steps restarted theirs.
func TestOnlyTheNewestStepSlidesIn(t *testing.T) {
	b := newFakeBackend("running")
	base := b.serve(t)
	p := newPageWithin(t, 2*time.Minute)
	p.openAt(base, "/?session=steps&lang=en")
	b.emit(`{"type":"message_start","message":{"id":"m","role":"assistant","message_type":"chat"}}`,
		`{"type":"group_start","index":0}`)
	for i := 1; i <= 5; i++ {
		b.emit(fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"t%d","name":"search","input":{},"tool_content_message":"Step %d"}}`, i, i, i),
			fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
	}
	p.waitJS(`document.querySelectorAll(".group .steps > .step").length === 5`, time.Minute)
	animated := `[...document.querySelectorAll(".group .steps > .step")].map(s => getComputedStyle(s).animationName)`
	names := eval[[]string](p, animated)
	for i, name := range names {
		want := "none"
		if i == len(names)-1 {
			want = "step-in"
		}
		if name != want {
			t.Errorf("running, step %d of %d has animation %q, want %q", i+1, len(names), name, want)
		}
	}
	b.emit(`{"type":"group_end","index":6,"summary":"Searched"}`)
	// Finished, the group collapses; opened again, its steps stay still.
	p.waitJS(`document.querySelector(".group.done .group-header[aria-expanded=false]") !== null`, time.Minute)
	p.waitJS(`(document.querySelector(".group .group-header").click(), true)`, 10*time.Second)
	p.waitJS(`document.querySelectorAll(".group .steps > .step").length === 5`, time.Minute)
	for i, name := range eval[[]string](p, animated) {
		if name != "none" {
			t.Errorf("finished and opened, step %d has animation %q", i+1, name)
		}
	}
}
