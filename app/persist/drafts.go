package persist

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// What is typed and not sent yet survives a reload (docs/interaction.md,
// "What survives a reload"): the composer's text, and the state of the
// forms still waiting (a question's choices, an approval's edited
// arguments, as each view gives it). It is kept per conversation in the
// tab's sessionStorage (F5 keeps it, closing the tab forgets it, another
// tab has its own), cleared as it is sent or answered, at most
// MaxDraftBytes a conversation and MaxDrafts conversations. The page
// (package page) decides what the draft holds; this reads and writes it.

const (
	DraftKeyPrefix = "stepwise.draft."
	MaxDraftBytes  = 256 << 10
	MaxDrafts      = 50
)

// Draft is what one conversation keeps: the composer's text, and each
// waiting form's state by its card's key (as its view gives it).
type Draft struct {
	At    int64             `json:"at"` // Unix milliseconds: the oldest go first
	Text  string            `json:"text,omitempty"`
	Forms map[string]string `json:"forms,omitempty"`
}

func (d Draft) Empty() bool { return d.Text == "" && len(d.Forms) == 0 }

// LoadDraft reads the draft of conversation id; none when there is none,
// the storage refuses, or it is unreadable.
func LoadDraft(kv KeyValueStore, id string) Draft {
	var d Draft
	if v, ok, err := kv.Get(DraftKeyPrefix + id); err == nil && ok {
		if json.Unmarshal([]byte(v), &d) != nil {
			return Draft{}
		}
	}
	return d
}

// SaveDraft keeps d for conversation id (an empty one is removed). One
// larger than MaxDraftBytes keeps its text only, cut to fit; a new
// conversation's draft makes the oldest beyond MaxDrafts go.
func SaveDraft(kv KeyValueStore, id string, d Draft, now time.Time) error {
	key := DraftKeyPrefix + id
	if d.Empty() {
		return kv.Remove(key)
	}
	d.At = now.UnixMilli()
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if len(raw) > MaxDraftBytes {
		d.Forms = nil
		d.Text = cutUTF8(d.Text, MaxDraftBytes-64)
		raw, _ = json.Marshal(d)
	}
	_, existed, _ := kv.Get(key)
	if err := kv.Set(key, string(raw)); err != nil {
		return err
	}
	if !existed {
		pruneDrafts(kv)
	}
	return nil
}

// pruneDrafts removes the oldest drafts beyond MaxDrafts.
func pruneDrafts(kv KeyValueStore) {
	keys, err := kv.Keys()
	if err != nil {
		return
	}
	at := map[string]int64{}
	for _, k := range keys {
		if !strings.HasPrefix(k, DraftKeyPrefix) {
			continue
		}
		var d Draft
		if v, ok, _ := kv.Get(k); ok {
			_ = json.Unmarshal([]byte(v), &d)
		}
		at[k] = d.At
	}
	if len(at) <= MaxDrafts {
		return
	}
	byAge := slices.SortedFunc(maps.Keys(at), func(a, b string) int {
		if at[a] != at[b] {
			if at[a] < at[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, k := range byAge[:len(byAge)-MaxDrafts] {
		kv.Remove(k)
	}
}

// cutUTF8 cuts s to at most n bytes, on a character boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
