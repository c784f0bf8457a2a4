package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components"
)

// Issue 37 (minor): what is typed and not sent is kept per conversation
// and comes back with the page; sent, it goes.
func TestDraftsKeptPerConversation(t *testing.T) {
	kv := &memoryKeyValues{}
	now := time.Now()
	require.NoError(t, saveDraft(kv, "A", pageDraft{Text: "half a thought", Forms: map[string]string{"k": "[1]"}}, now))
	require.NoError(t, saveDraft(kv, "B", pageDraft{Text: "another"}, now))
	a := loadDraft(kv, "A")
	assert.Equal(t, "half a thought", a.Text)
	assert.Equal(t, "[1]", a.Forms["k"])
	assert.Equal(t, "another", loadDraft(kv, "B").Text)
	require.NoError(t, saveDraft(kv, "A", pageDraft{}, now))
	_, ok, _ := kv.Get(draftKeyPrefix + "A")
	assert.False(t, ok, "an empty draft leaves nothing behind")

	// Bounded: a huge text is cut, and only the newest conversations stay.
	require.NoError(t, saveDraft(kv, "C", pageDraft{Text: strings.Repeat("é", maxDraftBytes), Forms: map[string]string{"k": "x"}}, now))
	c := loadDraft(kv, "C")
	assert.LessOrEqual(t, len(c.Text), maxDraftBytes)
	assert.Empty(t, c.Forms)
	for i := range maxDrafts + 5 {
		require.NoError(t, saveDraft(kv, fmt.Sprintf("S%03d", i), pageDraft{Text: "t"}, now.Add(time.Duration(i)*time.Second)))
	}
	keys, _ := kv.Keys()
	assert.Len(t, keys, maxDrafts)
	assert.Empty(t, loadDraft(kv, "B").Text, "the oldest went")
	assert.Equal(t, "t", loadDraft(kv, fmt.Sprintf("S%03d", maxDrafts+4)).Text)

	// A browser that refuses storage keeps nothing and fails nothing.
	refused := &memoryKeyValues{Refuse: true}
	assert.Equal(t, pageDraft{}, loadDraft(refused, "A"))
}

// The controller puts the kept text back in the composer and a form's
// state into its props, and forgets them once sent or answered.
func TestControllerRestoresAndForgetsDrafts(t *testing.T) {
	kv := &memoryKeyValues{}
	saveDraft(kv, "s1", pageDraft{Text: "typed before F5", Forms: map[string]string{"k": `[{"Selected":[0]}]`}}, time.Now())
	c := newController(t, "en", &fakeConn{})
	c.drafts.kv, c.drafts.cur = kv, loadDraft(kv, "s1")
	feed(c, questionEvents)
	assert.Equal(t, `[{"Selected":[0]}]`, c.forms["k"].Restore, "the question starts from its kept choices")
	assert.Contains(t, html(c), `checked`, "the kept option is checked")

	c.onFormDraft(app.Context{}, app.Action{Value: components.FormDraft{Key: "k", Value: `[{"Selected":[0],"Skipped":true}]`}})
	assert.Equal(t, `[{"Selected":[0],"Skipped":true}]`, loadDraft(kv, "s1").Forms["k"])
	c.onAnswer(app.Context{}, app.Action{Value: components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}}})
	assert.Empty(t, loadDraft(kv, "s1").Forms, "answered: its state goes")

	c.onDraftChanged(app.Context{}, app.Action{Value: "almost"})
	assert.Equal(t, "almost", loadDraft(kv, "s1").Text)
	c.draftSent()
	_, ok, _ := kv.Get(draftKeyPrefix + "s1")
	assert.False(t, ok)
}
