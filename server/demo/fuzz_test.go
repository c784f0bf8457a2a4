package demo

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"stepwise/state/wire"
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
	f.Add([]byte(`{"type":"regenerate","message_id":"m2"}`))
	f.Add([]byte(`{"type":"select_branch","message_id":"m1"}`))
	f.Add([]byte(`{"type":"feedback","message_id":"m2","rating":"down","comment":"\u0000\ud800"}`))
	f.Add([]byte(`{"type":"user_message","parent_id":null,"content":[{"type":"text","text":"edit"},{"type":"image","source":{"type":"file","file_id":"../../etc/passwd"}}]}`))
	f.Add([]byte(`{"type":"user_message","parent_id":"m1","content":[{"type":"document","source":{"type":"url","url":"file:///etc/passwd"}}]}`))
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

// Whatever a client uploads, under whatever name and type, the server
// answers (never a 5xx but storage_full), keeps only files that are what
// they say, and leaves no piece of a refused one.
func FuzzUpload(f *testing.F) {
	f.Add("chart.png", "image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"))
	f.Add("a.txt", "text/plain", []byte("caf\xc3"))
	f.Add("../../x.md", "", []byte("# hi"))
	f.Add("d.json", "application/json; charset=utf-8", []byte("[1,2]"))
	f.Add("r.pdf", "application/pdf", []byte("%PDF-1.7"))
	f.Add("w.webp", "image/webp", []byte("RIFF\x00\x00\x00\x00WEBPVP8X"))
	f.Add("\x00\u202e.png", "image/png", []byte{})
	a := openAgent(f, filepath.Join(f.TempDir(), "stepwise.db"), Options{Uploads: UploadLimits{MaxFileBytes: 1 << 16, ClientBytesPerHour: 1 << 40, MaxSessionBytes: 1 << 40}})
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	f.Fuzz(func(t *testing.T, name, contentType string, body []byte) {
		if strings.ContainsFunc(contentType, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			t.Skip("no client can send this header")
		}
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/fz/files?name="+url.QueryEscape(name), bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", contentType)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			FileID string `json:"file_id"`
			Error  *struct {
				Type string `json:"type"`
			} `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode >= 500 && resp.StatusCode != http.StatusInsufficientStorage {
			t.Fatalf("%d for %q %q", resp.StatusCode, name, contentType)
		}
		if resp.StatusCode != http.StatusCreated {
			if out.Error == nil || out.Error.Type == "" {
				t.Fatalf("%d without an error type", resp.StatusCode)
			}
			return
		}
		m, err := a.files.meta("fz", out.FileID)
		if err != nil {
			t.Fatal(err)
		}
		ft, err := wire.ResolveFileType(m.Name, m.MediaType)
		if err != nil || wire.CheckFileHead(ft, body) != nil || int64(len(body)) != m.Size || strings.ContainsAny(m.Name, "/\\\x00") {
			t.Fatalf("kept %+v for %q %q %q", m, name, contentType, body)
		}
		entries, _ := os.ReadDir(filepath.Join(a.files.dir, "fz"))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Fatalf("a piece left: %s", e.Name())
			}
		}
	})
}
