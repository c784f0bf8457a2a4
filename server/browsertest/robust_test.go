//go:build browser

package browsertest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"stepwise/server/replay"
)

// TestMalformedFramesLoseNothing plays a stream with invalid JSON, a
// non-object, an unknown event and a delta for no block: the page skips and
// counts them and shows exactly what `stepwise replay` says it should.
func TestMalformedFramesLoseNothing(t *testing.T) {
	var out, errs bytes.Buffer
	if code := replay.Run([]string{"--events", "testdata/bad-lines.jsonl"}, nil, &out, &errs); code != 0 {
		t.Fatalf("replay: %s", errs.String())
	}
	var want map[string]any
	if err := json.Unmarshal(out.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	if want["skipped"] != float64(4) {
		t.Fatalf("the fixture should have 4 bad lines, replay says %v", want["skipped"])
	}
	p := newPage(t)
	p.replayURL("/fixtures/bad-lines.jsonl", "max", "en")
	p.waitJS(`window.__result`, 20*time.Second)
	sameView(t, p.view(), want)
	if n := eval[int](p, `window.__result.skipped`); n != 4 {
		t.Errorf("__result.skipped = %d", n)
	}
	if eval[bool](p, `document.querySelector('[data-testid="conversation"]').textContent.includes('{not json')`) {
		t.Error("a raw frame shows in the conversation")
	}
}
