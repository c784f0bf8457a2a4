package page

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

func uploadingPage(t *testing.T) *harness {
	h := nativePage(t, "en")
	h.m.traits.Uploads = true
	h.m.limits = state.UploadLimits{FileBytes: 1000, Files: 3, MessageBytes: 1500}
	return h
}

func chips(h *harness) []components.DraftFile { return h.m.Props().Attach.Files }

// Files are checked, uploaded at once, and go with the message as file
// blocks; one refused keeps its chip with the reason and is not sent.
func TestFilesUploadThenGoWithTheMessage(t *testing.T) {
	h := uploadingPage(t)
	require.True(t, h.m.Props().Attach.On)
	h.run(AttachFiles{Files: []PickedFile{
		{Name: "chart.png", MediaType: "image/png", Size: 600, Thumb: "blob:1"},
		{Name: "big.csv", MediaType: "text/csv", Size: 1200},
		{Name: "notes.md", MediaType: "", Size: 300},
	}})
	require.Equal(t, []backend.Command{
		backend.Upload{ID: "f1", Name: "chart.png", MediaType: "image/png"},
		backend.Upload{ID: "f3", Name: "notes.md", MediaType: "text/markdown"},
	}, h.sent)
	assert.Equal(t, "big.csv is larger than 0.9 KB, the most a file may be.", chips(h)[1].Error)

	// Sent while uploading: the text stays in the composer.
	h.reset()
	h.run(Send{Text: "look"})
	assert.Empty(t, h.sent)
	assert.Equal(t, "look", h.m.draft.Text)
	assert.Equal(t, "Wait until the files have finished uploading.", h.m.notice)

	h.run(backend.UploadProgress{ID: "f1", Sent: 300, Total: 600})
	assert.Equal(t, 0.5, chips(h)[0].Progress)
	h.run(backend.Uploaded{ID: "f1", File: wire.UploadedFile{FileID: "fa", FileInfo: wire.FileInfo{Name: "chart.png", MediaType: "image/png", Size: 600}}})
	h.run(backend.Uploaded{ID: "f3", Err: &backend.CommandError{Type: "type_mismatch"}})
	assert.Equal(t, "notes.md is not what its name says.", chips(h)[2].Error)

	h.run(Send{Text: "look"})
	require.Len(t, h.sent, 1)
	send := h.sent[0].(backend.Send)
	assert.Equal(t, "look", send.Text)
	assert.Equal(t, []wire.ContentBlock{{Type: "image", Source: &wire.BlockSource{Type: "file", FileID: "fa"}}}, send.Files)
	assert.Empty(t, chips(h), "the composer is empty once sent")
	assert.Contains(t, h.other, ReleaseThumb{URL: "blob:1"})
}

// A message written during a run is queued with its files; taken back
// into the composer, its files come back too. Files alone make a message.
func TestQueuedMessageKeepsItsFiles(t *testing.T) {
	h := uploadingPage(t)
	h.feed(`{"type":"message_start","message":{"id":"a","role":"assistant"},"event_id":1}`)
	h.run(AttachFiles{Files: []PickedFile{{Name: "a.txt", MediaType: "text/plain", Size: 10}, {Name: "b.png", MediaType: "image/png", Size: 10, Thumb: "blob:q"}}})
	h.run(backend.Uploaded{ID: "f1", File: wire.UploadedFile{FileID: "fa", FileInfo: wire.FileInfo{Name: "a.txt", MediaType: "text/plain", Size: 10}}})
	h.run(backend.Uploaded{ID: "f2", File: wire.UploadedFile{FileID: "fb", FileInfo: wire.FileInfo{Name: "b.png", MediaType: "image/png", Size: 10}}})
	h.reset()
	h.run(Send{Text: ""})
	assert.Empty(t, h.sent, "queued during the run")
	assert.Empty(t, chips(h))
	assert.Contains(t, h.other, ReleaseThumb{URL: "blob:q"}, "a queued message's previews are released as it leaves the composer")
	h.run(EditMessage{ID: h.m.outbox.list[0].ID})
	require.Len(t, chips(h), 2)
	assert.Equal(t, "a.txt", chips(h)[0].Name)
	assert.Empty(t, chips(h)[1].Thumb, "its preview was released: a type icon instead")
}

// An upload refused for a reason the page has no words for says the
// backend's.
func TestUploadRefusalInTheBackendsWords(t *testing.T) {
	h := uploadingPage(t)
	h.run(AttachFiles{Files: []PickedFile{{Name: "a.txt", MediaType: "text/plain", Size: 10}}})
	h.run(backend.Uploaded{ID: "f1", Err: errors.New("disk on fire")})
	assert.Equal(t, "a.txt: disk on fire", chips(h)[0].Error)
}

// The message actions become the backend's commands; a refusal is said.
func TestMessageActionsAreCommands(t *testing.T) {
	h := nativePage(t, "en")
	h.run(components.EditCommand{MessageID: "m3", ParentID: "m2", Text: " again ", Files: []state.Attachment{{FileID: "fa", Name: "a.png", MediaType: "image/png", Image: true}}})
	h.run(Regenerate{MessageID: "m4"})
	h.run(SelectBranch{MessageID: "m1"})
	h.run(components.FeedbackCommand{MessageID: "m4", Rating: "down", Comment: "no"})
	assert.Equal(t, []backend.Command{
		backend.Edit{ID: "c1", ParentID: "m2", Text: "again", Files: []wire.ContentBlock{{Type: "image", Source: &wire.BlockSource{Type: "file", FileID: "fa"}}}},
		backend.Regenerate{ID: "c2", MessageID: "m4"},
		backend.SelectBranch{ID: "c3", MessageID: "m1"},
		backend.Rate{ID: "c4", MessageID: "m4", Rating: "down", Comment: "no"},
	}, h.sent)
	h.run(backend.Outcome{CommandID: "c2", Err: &backend.CommandError{Type: "not_found", Message: "no such message"}})
	assert.Contains(t, h.m.notice, "no such message")
}

// Where the files go inline with the request (the agent modes), the
// request-size check counts them: a message whose files make the request
// too large is refused before it is sent, its text and files kept.
func TestSendCountsTheFilesAgainstTheRequestLimit(t *testing.T) {
	h := newHarness(t, "en", backend.Traits{Store: state.Options{Kept: state.KeptAsAGUI}, Uploads: true},
		func(_ *state.Store, text string, files []wire.ContentBlock) error {
			size := len(text)
			for _, f := range files {
				if f.Source != nil {
					size += len(f.Source.Data)
				}
			}
			if size > 100 {
				return &backend.TooLargeError{Size: size, Limit: 100, Conversation: true}
			}
			return nil
		})
	h.m.limits = state.UploadLimits{FileBytes: 1000, Files: 3, MessageBytes: 1500}
	h.run(AttachFiles{Files: []PickedFile{{Name: "a.txt", MediaType: "text/plain", Size: 150}}})
	block := state.InlineBlock(wire.FileInfo{Name: "a.txt", MediaType: "text/plain", Size: 150}, strings.Repeat("QUJD", 50))
	h.run(backend.Uploaded{ID: "f1", File: wire.UploadedFile{FileInfo: *block.File}, Block: &block})
	h.reset()
	h.run(Send{Text: "look"})
	assert.Empty(t, h.sent)
	assert.Equal(t, "look", h.m.draft.Text)
	require.Len(t, chips(h), 1, "the file stays attached")
	assert.Contains(t, h.m.notice, "This conversation is too long to send")
}
