package app

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
)

// What is typed and not sent yet survives a reload (docs/interaction.md,
// "What survives a reload"): the composer's text, and the state of the
// forms still waiting (a question's choices, an approval's edited
// arguments, as each view gives it). It is kept per conversation in the
// tab's sessionStorage (F5 keeps it, closing the tab forgets it, another
// tab has its own), cleared as it is sent or answered, at most
// maxDraftBytes a conversation and maxDrafts conversations.

const (
	draftKeyPrefix = "stepwise.draft."
	maxDraftBytes  = 256 << 10
	maxDrafts      = 50
)

// pageDraft is what one conversation keeps.
type pageDraft struct {
	At    int64             `json:"at"` // Unix milliseconds: the oldest go first
	Text  string            `json:"text,omitempty"`
	Forms map[string]string `json:"forms,omitempty"`
}

func (d pageDraft) empty() bool { return d.Text == "" && len(d.Forms) == 0 }

// loadDraft reads the draft of conversation id; none when there is none,
// the storage refuses, or it is unreadable.
func loadDraft(kv keyValueStore, id string) pageDraft {
	var d pageDraft
	if v, ok, err := kv.Get(draftKeyPrefix + id); err == nil && ok {
		if json.Unmarshal([]byte(v), &d) != nil {
			return pageDraft{}
		}
	}
	return d
}

// saveDraft keeps d for conversation id (an empty one is removed). One
// larger than maxDraftBytes keeps its text only, cut to fit; a new
// conversation's draft makes the oldest beyond maxDrafts go.
func saveDraft(kv keyValueStore, id string, d pageDraft, now time.Time) error {
	key := draftKeyPrefix + id
	if d.empty() {
		return kv.Remove(key)
	}
	d.At = now.UnixMilli()
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if len(raw) > maxDraftBytes {
		d.Forms = nil
		d.Text = cutUTF8(d.Text, maxDraftBytes-64)
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

// pruneDrafts removes the oldest drafts beyond maxDrafts.
func pruneDrafts(kv keyValueStore) {
	keys, err := kv.Keys()
	if err != nil {
		return
	}
	at := map[string]int64{}
	for _, k := range keys {
		if !strings.HasPrefix(k, draftKeyPrefix) {
			continue
		}
		var d pageDraft
		if v, ok, _ := kv.Get(k); ok {
			_ = json.Unmarshal([]byte(v), &d)
		}
		at[k] = d.At
	}
	if len(at) <= maxDrafts {
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
	for _, k := range byAge[:len(byAge)-maxDrafts] {
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

// draftsModel is the controller's part.
type draftsModel struct {
	kv  keyValueStore // nil: nothing is kept (a replay)
	cur pageDraft
}

// mountDrafts reads what this conversation kept, puts its text back in the
// composer, and follows the changes.
func (c *Controller) mountDrafts(ctx app.Context, kv keyValueStore) {
	ctx.Handle(components.ActionDraftChanged, c.onDraftChanged)
	ctx.Handle(components.ActionFormDraft, c.onFormDraft)
	if c.cfg.Replay != "" || c.cfg.SessionID == "" || kv == nil {
		return
	}
	c.drafts.kv = kv
	c.drafts.cur = loadDraft(kv, c.cfg.SessionID)
	if c.drafts.cur.Text != "" {
		c.draft = components.Draft{Text: c.drafts.cur.Text, Seq: c.draft.Seq + 1}
	}
}

func (c *Controller) storeDraft() {
	if c.drafts.kv != nil {
		saveDraft(c.drafts.kv, c.cfg.SessionID, c.drafts.cur, time.Now()) // a refusing browser keeps nothing
	}
}

// onDraftChanged keeps the composer's text. The page needs no render.
func (c *Controller) onDraftChanged(ctx app.Context, a app.Action) {
	ctx.PreventUpdate()
	text, _ := a.Value.(string)
	if text == c.drafts.cur.Text {
		return
	}
	c.drafts.cur.Text = text
	c.storeDraft()
}

// onFormDraft keeps a form's state. The page needs no render.
func (c *Controller) onFormDraft(ctx app.Context, a app.Action) {
	ctx.PreventUpdate()
	v, ok := a.Value.(components.FormDraft)
	if !ok || v.Key == "" || c.drafts.cur.Forms[v.Key] == v.Value {
		return
	}
	if c.drafts.cur.Forms == nil {
		c.drafts.cur.Forms = map[string]string{}
	}
	c.drafts.cur.Forms[v.Key] = v.Value
	c.storeDraft()
}

// draftSent forgets the composer's text once it is sent.
func (c *Controller) draftSent() {
	if c.drafts.cur.Text != "" {
		c.drafts.cur.Text = ""
		c.storeDraft()
	}
}

// draftGivenBack keeps a message given back to the composer.
func (c *Controller) draftGivenBack(text string) {
	c.drafts.cur.Text = text
	c.storeDraft()
}

// formDone forgets a form's state once it is answered or no longer waits.
func (c *Controller) formDone(key string) {
	if _, ok := c.drafts.cur.Forms[key]; ok {
		delete(c.drafts.cur.Forms, key)
		c.storeDraft()
	}
}

// formRestore is what a form kept, for its view to start from.
func (c *Controller) formRestore(key string) string { return c.drafts.cur.Forms[key] }
