package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastSeeds are frames of the kinds a stream is made of, and near misses
// the fast decoder must hand to encoding/json.
var fastSeeds = []string{
	`{"type": "message_start", "message": {"id": "m", "role": "assistant", "message_type": "chat"}, "event_id": "1"}`,
	`{"type": "group_start", "index": 0, "event_id": "2"}`,
	`{"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t1_0", "name": "search_stock", "input": {"symbol": "VNM"}, "tool_content_message": "Tìm t1_0"}, "event_id": "3"}`,
	`{"type": "content_block_stop", "index": 1, "event_id": "4"}`,
	`{"type": "content_block_start", "index": 7, "content_block": {"type": "tool_result", "tool_use_id": "t1_3", "tool_name": "search_stock", "content": "VNM: 82,000", "status": "success"}, "event_id": "15"}`,
	`{"type": "group_end", "index": 11, "summary": "Nhóm 1", "event_id": "23"}`,
	`{"type": "content_block_start", "index": 12, "content_block": {"type": "text", "text": ""}, "event_id": "24"}`,
	`{"type": "content_block_delta", "index": 12, "delta": {"type": "text_delta", "text": "từ 0 "}, "event_id": "25"}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"a\n\"b\" \u00e9 \ud83d\ude00"}}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"tool_result","tool_use_id":"x","content":[{"type":"text","text":"hi"}],"is_error":true}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":[]}}`,
	`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`,
	`{"type":"terminal_error","message":"boom","error":{"message":"x"},"event_id":7}`,
	`{"type":"x","event_id":1.5e3,"index":-0}`,
	`{"type":"x","index":01}`, `{"type":"x","index":1.0}`, `{"type":"x","index":99999999999999999999}`,
	`{"type":"x","index":null}`, `{"type":"x","delta":null}`, `{"type":"x","Type":"y"}`,
	`{"type":"x","type":"y"}`, `{"type":"x","text":"\x"}`, `{"type":"x","event_id":"\q"}`,
	"{\"type\":\"x\",\"text\":\"a\xffb\"}", "{\"type\":\"x\",\"event_id\":\"a\xffb\"}",
	"{\"type\":\"a\x01\"}", `{"type":"x"} x`, `{"type":"x",}`, `{"type":"x"`, `{}`, `{"delta":{}}`,
	`{"type":"x","content_block":{"is_error":truex}}`, `{"type":"x","message":{"a":[1,2,{"b":"}"}]}}`,
	`{"type":"x","message":{"a":]}`, `{"type":"x","message":[1,2`, `{"content":"top-level content is Activity's"}`,
}

// TestDecodeEventFast checks that the stream's usual frames take the fast
// path and read exactly as encoding/json reads them.
func TestDecodeEventFast(t *testing.T) {
	for _, s := range fastSeeds[:12] {
		got, ok := decodeEventFast([]byte(s))
		if !ok {
			t.Errorf("not decoded fast: %s", s)
			continue
		}
		var want Event
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nfast %+v\njson %+v", s, got, want)
		}
	}
	for _, s := range fastSeeds {
		checkFastAgrees(t, []byte(s))
	}
}

// FuzzDecodeEventFast: whenever the fast decoder accepts a frame,
// encoding/json accepts it too and reads the same event.
func FuzzDecodeEventFast(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) { checkFastAgrees(t, frame) })
}

func checkFastAgrees(t *testing.T, frame []byte) {
	t.Helper()
	got, ok := decodeEventFast(frame)
	if !ok {
		return
	}
	var want Event
	if err := json.Unmarshal(frame, &want); err != nil {
		t.Fatalf("fast decoder accepted what encoding/json rejects (%v): %q", err, frame)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nfast %+v\njson %+v", frame, got, want)
	}
}

func BenchmarkDecodeEvent(b *testing.B) {
	frames := [][]byte{[]byte(fastSeeds[3]), []byte(fastSeeds[2]), []byte(fastSeeds[7])}
	for b.Loop() {
		for _, f := range frames {
			DecodeEvent(f)
		}
	}
}

func BenchmarkDecodeEventJSON(b *testing.B) {
	frames := [][]byte{[]byte(fastSeeds[3]), []byte(fastSeeds[2]), []byte(fastSeeds[7])}
	for b.Loop() {
		for _, f := range frames {
			var ev Event
			json.Unmarshal(f, &ev)
		}
	}
}
