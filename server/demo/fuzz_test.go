package demo

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// Whatever bytes the data file gives back, the event sent is UTF-8 with no
// control character, and still valid JSON when it was.
func FuzzStoredEvent(f *testing.F) {
	f.Add([]byte(`{"type":"content_block_delta","delta":{"text":"VCB\xff\xfe"}}`))
	f.Add([]byte("{\"text\":\"a\nb\"}"))
	f.Add([]byte("\xed\xa0\x80\xc3"))
	f.Fuzz(func(t *testing.T, v []byte) {
		orig := bytes.Clone(v)
		out := storedEvent(v)
		if !utf8.Valid(out) {
			t.Fatalf("not UTF-8: %q", out)
		}
		for _, c := range out {
			if c < 0x20 {
				t.Fatalf("a control character: %q", out)
			}
		}
		if json.Valid(orig) && !json.Valid(out) {
			t.Fatalf("valid JSON %q became %q", orig, out)
		}
		if !bytes.Equal(v, orig) {
			t.Fatal("the file's bytes were changed")
		}
	})
}

// Whatever a client posts as a command, the log holds only UTF-8 and the
// agent keeps answering.
func FuzzCommands(f *testing.F) {
	f.Add([]byte(`{"type":"user_message","content":"/approval"}`))
	f.Add([]byte(`{"type":"approval","approval_key":"s1_ap.1","decisions":[{"type":"edit","edited_action":{"name":"place_order","args":{"symbol":"VCB` + "\xff\xfe" + `"}}}]}`))
	f.Add([]byte(`{"type":"approval","approval_key":"s1_ap.1","decisions":[{"type":"edit","edited_action":{"name":"place_order","args":{"symbol":"\ud800"}}}]}`))
	f.Add([]byte(`{"type":"user_message","content":[{"type":"text","text":"\xc3("}]}`))
	f.Add([]byte(`{"type":"stop"}`))
	a := newTestAgent(f)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := http.Post(srv.URL+"/api/sessions/fz/commands", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("%d for %q", resp.StatusCode, body)
		}
		// The file's own bytes: reading repairs them (storedEvent).
		err = a.db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketSessions).Bucket([]byte("fz"))
			if b == nil || b.Bucket(bucketEvents) == nil {
				return nil
			}
			return b.Bucket(bucketEvents).ForEach(func(_, ev []byte) error {
				if !utf8.Valid(ev) {
					t.Fatalf("stored after %q: %q", body, ev)
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
