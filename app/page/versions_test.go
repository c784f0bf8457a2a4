package page

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/components/htmltest"
)

const sentWithIDs = `{"type":"user_message","message_id":"m1","parent_id":null,"content":"first question","event_id":1}
{"type":"answer_start","message_id":"m2","parent_id":"m1","event_id":2}
{"type":"message_start","message":{"id":"a"},"event_id":3}
{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"An answer."},"event_id":4}
{"type":"message_stop","event_id":5}`

// editForm is the editor of the first user message, nil when closed.
func editForm(h *harness) *htmltest.Node {
	return h.render().First(htmltest.TestID("edit-form"))
}

// An edit the backend refuses (the message is gone, say) opens its editor
// again with the text sent and the backend's reason; Cancel drops it.
func TestRefusedEditKeepsItsText(t *testing.T) {
	h := nativePage(t, "en")
	h.feed(sentWithIDs)
	h.run(components.EditCommand{MessageID: "m1", Text: "  a better question ", ParentID: ""})
	require.Len(t, h.sent, 1)
	edit := h.sent[0].(backend.Edit)
	assert.Nil(t, editForm(h), "the editor closed as the edit went")

	h.run(backend.Outcome{CommandID: edit.ID, Err: &backend.CommandError{Type: "not_found", Message: "no message m1 in this conversation"}})
	form := editForm(h)
	require.NotNil(t, form, "the editor is open again")
	assert.Equal(t, "a better question", form.First(htmltest.TestID("edit-input")).Attr("value"))
	assert.Contains(t, form.First(htmltest.TestID("edit-error")).Text(), "no message m1 in this conversation")
	assert.Empty(t, noticeText(h), "said in the editor, not twice")

	// Sent again, the reason goes; refused again, it is back.
	h.reset()
	h.run(components.EditCommand{MessageID: "m1", Text: "a better question"})
	assert.Nil(t, editForm(h))
	h.run(backend.Outcome{CommandID: h.sent[0].(backend.Edit).ID, Err: &backend.CommandError{Type: "not_found", Message: "still gone"}})
	require.NotNil(t, editForm(h))
	assert.Equal(t, 2, h.m.forms[components.EditFormKey("m1")].Reopen, "a refusal is told from the one before (the editor opens again)")

	h.run(DiscardEdit{MessageID: "m1"})
	assert.Nil(t, editForm(h), "cancelled, the message shows as it was")
	assert.Contains(t, h.render().Text(), "first question")
}

// An edit refused before it goes (too large for a frame, or unsendable
// offline) keeps its text the same way; an accepted one leaves nothing.
func TestEditRefusedHereKeepsItsText(t *testing.T) {
	h := nativePage(t, "en")
	h.feed(sentWithIDs)
	long := strings.Repeat("word ", 20000)
	h.run(components.EditCommand{MessageID: "m1", Text: long})
	assert.Empty(t, h.sent, "not sent")
	form := editForm(h)
	require.NotNil(t, form)
	assert.Equal(t, strings.TrimSpace(long), form.First(htmltest.TestID("edit-input")).Attr("value"))
	assert.Contains(t, form.First(htmltest.TestID("edit-error")).Text(), "too long")

	h.doErr = backend.ErrOffline
	h.run(components.EditCommand{MessageID: "m1", Text: "shorter"})
	form = editForm(h)
	require.NotNil(t, form)
	assert.Equal(t, "shorter", form.First(htmltest.TestID("edit-input")).Attr("value"))
	assert.Contains(t, form.First(htmltest.TestID("edit-error")).Text(), "not connected")

	h.doErr = nil
	h.run(components.EditCommand{MessageID: "m1", Text: "shorter"})
	h.run(backend.Outcome{CommandID: h.sent[len(h.sent)-1].(backend.Edit).ID})
	assert.Nil(t, editForm(h))
	assert.Empty(t, h.m.forms)
}

// What is typed in a message's editor is kept as a draft: after a reload
// the editor is open with it. Sent or cancelled, the draft goes; refused,
// it stays.
func TestEditorDraftSurvivesAReload(t *testing.T) {
	h := nativePage(t, "en")
	h.run(DraftLoaded{})
	h.feed(sentWithIDs)
	key := components.EditFormKey("m1")
	h.run(components.FormDraft{Key: key, Value: "a better qu"})
	kept := lastKeptDraft(t, h)
	assert.Equal(t, "a better qu", kept.Forms[key])

	again := nativePage(t, "en")
	again.feed(sentWithIDs)
	again.run(DraftLoaded{Draft: kept})
	form := editForm(again)
	require.NotNil(t, form, "the editor is open after the reload")
	assert.Equal(t, "a better qu", form.First(htmltest.TestID("edit-input")).Attr("value"))
	assert.Nil(t, form.First(htmltest.TestID("edit-error")))

	again.run(DiscardEdit{MessageID: "m1"})
	assert.Nil(t, editForm(again))
	assert.NotContains(t, lastKeptDraft(t, again).Forms, key, "cancelled, its draft goes")

	h.doErr = backend.ErrOffline
	h.run(components.EditCommand{MessageID: "m1", Text: "a better question"})
	assert.Equal(t, "a better question", lastKeptDraft(t, h).Forms[key], "refused, it is the draft")
	h.doErr = nil
	h.run(components.EditCommand{MessageID: "m1", Text: "a better question"})
	assert.NotContains(t, lastKeptDraft(t, h).Forms, key, "sent, its draft goes")
}

// lastKeptDraft is the draft the page last had kept.
func lastKeptDraft(t *testing.T, h *harness) persist.Draft {
	t.Helper()
	for i := len(h.other) - 1; i >= 0; i-- {
		if k, ok := h.other[i].(KeepDraft); ok {
			return k.Draft
		}
	}
	t.Fatal("no draft kept")
	return persist.Draft{}
}
