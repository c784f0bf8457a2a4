package wire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// historySeeds are histories and near misses: members in another case or
// twice, messages null, empty or of the wrong type, data after the object.
var historySeeds = []string{
	`{"session_id":"s","agent_status":"idle","last_event_id":"7","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"yo"}],"tool_calls":[{"id":"t","name":"n","args":{"q":1}}]}],"workspace":{"sources":[{"query":"q","sources":[{"url":"https://a.example","favicon":null}]}]},"pending_approval":null}`,
	`{"Messages":[{"role":"user","content":"a"}],"messages":[{"role":"user","content":"b"}]}`,
	`{"MESSAGES":[],"Agent_Status":"running","agent_status":"idle"}`,
	`{"messages":null}`, `{"messages":[]}`, `{"messages":{}}`, `{"messages":"x"}`, `{"messages":[1]}`,
	`{"messages":[null,{"role":"tool","status":"success"}]}`,
	`{"messages":[{"role":1}]}`, `{"agent_status":5,"messages":[]}`, `{"session_id":"a\u005fb","sess\u0069on_id":"c"}`,
	`{}`, `{} `, `{}{}`, `{} x`, `{"messages":[]`, `{"messages":[],}`, `{"a":1 "b":2}`, `[]`, `null`, ``,
	`{"messages":[{"role":"user","content":"a"}],"messages":null}`,
}

// TestDecodeHistoryTicks: tick runs once after each message.
func TestDecodeHistoryTicks(t *testing.T) {
	ticks := 0
	h, err := DecodeHistoryPaced([]byte(historySeeds[0]), func() { ticks++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Messages) != 2 || ticks != 2 {
		t.Fatalf("%d messages, %d ticks; want 2 and 2", len(h.Messages), ticks)
	}
}

// TestDecodeHistoryAgrees: the paced decoder reads the seeds as
// json.Unmarshal does.
func TestDecodeHistoryAgrees(t *testing.T) {
	for _, s := range historySeeds {
		checkHistoryAgrees(t, []byte(s))
	}
}

// FuzzDecodeHistoryPaced: DecodeHistory reads any data as json.Unmarshal
// into a History does, or fails where it fails.
func FuzzDecodeHistoryPaced(f *testing.F) {
	for _, s := range historySeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../../server/replay/testdata/conformance/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var c struct {
			History json.RawMessage `json:"history"`
		}
		if json.Unmarshal(data, &c) == nil && len(c.History) > 0 {
			f.Add([]byte(c.History))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkHistoryAgrees(t, data) })
}

func checkHistoryAgrees(t *testing.T, data []byte) {
	t.Helper()
	got, err := DecodeHistory(data)
	var want History
	wantErr := json.Unmarshal(data, &want)
	if wantErr == nil && (len(data) == 0 || firstNonSpace(data) != '{') {
		wantErr = errNotObject // DecodeHistory takes objects only
	}
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("%q: error %v, json.Unmarshal's %v", data, err, wantErr)
	case err == nil && !reflect.DeepEqual(*got, want):
		t.Fatalf("%q: decoded\n%#v\njson.Unmarshal\n%#v", data, *got, want)
	}
}

var errNotObject = json.Unmarshal([]byte(`1`), &struct{}{})

func firstNonSpace(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}
