package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// headSeeds add to fastSeeds frames whose head only the fast reader
// takes, and near misses it must leave to encoding/json.
var headSeeds = []string{
	`{"type":"command_result","command_id":"c1","ok":false,"error":{"type":"busy","message":"x"}}`,
	`{"type":"reset","last_event_id":"12","reason":"log_truncated"}`,
	`{"type":"x","EVENT_ID":"1"}`, `{"TYPE":"x"}`, `{"type":"x","Event_Id":"1","event_id":"2"}`,
	`{"type":"x","other":null}`, `{"type":"x","n":1e400}`, `{"type":"x","u":"\ud800"}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"type":"x"}`,
	`[1]`, `"type"`, ``, ` {"type" : "x" , "event_id" : 3 } `,
}

// TestFrameHeadFast: the frames a stream is made of, results and resets
// take the fast path and read as encoding/json reads them.
func TestFrameHeadFast(t *testing.T) {
	for _, s := range append(append([]string{}, fastSeeds[:14]...), headSeeds[:2]...) {
		if _, _, ok := frameHeadFast([]byte(s)); !ok {
			t.Errorf("not read fast: %s", s)
		}
	}
	for _, s := range append(append([]string{}, fastSeeds...), headSeeds...) {
		checkHeadAgrees(t, []byte(s))
	}
}

// FuzzFrameHead: FrameHead reads what encoding/json reads, and the fast
// reader accepts only what encoding/json accepts.
func FuzzFrameHead(f *testing.F) {
	for _, s := range append(append([]string{}, fastSeeds...), headSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) { checkHeadAgrees(t, frame) })
}

func checkHeadAgrees(t *testing.T, frame []byte) {
	t.Helper()
	var want struct {
		Type    json.RawMessage `json:"type"`
		EventID json.RawMessage `json:"event_id"`
	}
	err := json.Unmarshal(frame, &want)
	typ, id, ok := FrameHead(frame)
	if ok != (err == nil) {
		t.Fatalf("%q: FrameHead ok %v, encoding/json error %v", frame, ok, err)
	}
	if !bytes.Equal(typ, want.Type) || !bytes.Equal(id, want.EventID) {
		t.Fatalf("%q: FrameHead %s %s, encoding/json %s %s", frame, typ, id, want.Type, want.EventID)
	}
}

func BenchmarkFrameHead(b *testing.B) {
	frames := [][]byte{[]byte(fastSeeds[3]), []byte(fastSeeds[2]), []byte(fastSeeds[7])}
	for b.Loop() {
		for _, f := range frames {
			FrameHead(f)
		}
	}
}

func BenchmarkFrameHeadJSON(b *testing.B) {
	frames := [][]byte{[]byte(fastSeeds[3]), []byte(fastSeeds[2]), []byte(fastSeeds[7])}
	for b.Loop() {
		for _, f := range frames {
			var head struct {
				Type    json.RawMessage `json:"type"`
				EventID json.RawMessage `json:"event_id"`
			}
			json.Unmarshal(f, &head)
		}
	}
}
