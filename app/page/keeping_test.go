package page

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/components/htmltest"
	"stepwise/components/i18n"
	"stepwise/state"
)

// drafts are the KeepDraft commands the page asked for.
func (h *harness) drafts() []persist.Draft {
	var out []persist.Draft
	for _, c := range h.other {
		if k, ok := c.(KeepDraft); ok {
			out = append(out, k.Draft)
		}
	}
	return out
}

// lastDraft is the draft the page asked to keep last.
func (h *harness) lastDraft(t *testing.T) persist.Draft {
	t.Helper()
	d := h.drafts()
	require.NotEmpty(t, d, "nothing was kept")
	return d[len(d)-1]
}

// Issue 37 (minor): the kept text comes back into the composer and a
// form's state into its props; both are forgotten once sent or answered.
func TestDraftsComeBackAndGoOnceSent(t *testing.T) {
	h := nativePage(t, "en")
	h.run(DraftLoaded{Draft: persist.Draft{Text: "typed before F5", Forms: map[string]string{"k": `[{"Selected":[0]}]`}}})
	assert.Equal(t, "typed before F5", h.m.Props().Draft.Text)
	assert.Empty(t, h.drafts(), "loading writes nothing")
	h.feed(questionEvents)
	assert.Equal(t, `[{"Selected":[0]}]`, h.m.Props().Forms["k"].Restore, "the question starts from its kept choices")
	assert.NotNil(t, h.render().First(func(n *htmltest.Node) bool { _, ok := n.Attrs["checked"]; return ok }), "the kept option is checked")

	h.run(components.FormDraft{Key: "k", Value: `[{"Selected":[0],"Skipped":true}]`})
	assert.Equal(t, `[{"Selected":[0],"Skipped":true}]`, h.lastDraft(t).Forms["k"])
	h.reset()
	h.run(components.AnswerCommand{Key: "k", Answers: map[string]string{"Q?": "A"}})
	assert.Empty(t, h.lastDraft(t).Forms, "answered: its state goes")

	h.run(DraftChanged{Text: "almost"})
	assert.Equal(t, "almost", h.lastDraft(t).Text)
	h.reset()
	h.run(Send{Text: "almost"})
	assert.True(t, h.lastDraft(t).Empty(), "sent: nothing is kept")
}

// A message given back to the composer (too large) is kept as a draft; a
// page whose drafts are not kept (no DraftLoaded: a replay, no storage)
// asks for nothing.
func TestDraftsGivenBackAndNotKept(t *testing.T) {
	h := nativePage(t, "en")
	h.run(DraftLoaded{})
	big := string(make([]byte, 70<<10))
	h.run(Send{Text: big})
	assert.Equal(t, big, h.lastDraft(t).Text)

	g := nativePage(t, "en")
	g.run(DraftChanged{Text: "x"})
	g.run(Send{Text: "x"})
	assert.Empty(t, g.drafts())
}

// Issue 37.3: offline before the history came, the page shows what the
// conversation last showed with a banner, until the live history
// replaces it; without a copy it says it has none.
func TestLastShownUntilTheLiveHistory(t *testing.T) {
	h := nativePage(t, "en")
	h.now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	h.run(backend.Connection{State: backend.Reconnecting})
	kept := state.New(state.Options{Kept: state.KeptByBackend})
	kept.ApplyJSON([]byte(`{"type":"user_message","text":"Plan my trip","event_id":1}`))
	h.run(backend.Loaded{Store: kept, Changes: state.Changes{List: true, Status: true, Pending: true, Sources: true}, LastShown: h.now.Add(-time.Hour)})
	assert.Equal(t, []string{"Plan my trip"}, userTexts(h.m.Store()))
	assert.Contains(t, h.m.Props().LastShown, "as last loaded (11:00)")
	assert.Empty(t, h.m.Props().Conversations.Entries, "a copy is not a new entry of the list")

	live := state.New(state.Options{Kept: state.KeptByBackend})
	h.run(backend.Loaded{Store: live})
	assert.Empty(t, h.m.Props().LastShown, "the live history replaces it")

	// Connected without a live history: the stream brings it from its
	// start, so the copy goes.
	g := nativePage(t, "en")
	g.now = time.Date(2026, 5, 3, 9, 0, 0, 0, time.UTC)
	g.run(backend.Loaded{Store: kept, LastShown: g.now.AddDate(0, 0, -2)})
	assert.Contains(t, g.m.Props().LastShown, "(2026-05-01 09:00)", "another day: its date")
	g.run(backend.Connection{State: backend.Open})
	assert.Empty(t, g.m.Props().LastShown)
	assert.Empty(t, g.m.Store().Items())

	n := nativePage(t, "en")
	n.run(backend.Connection{State: backend.Closed})
	n.run(backend.NotKept{})
	assert.Contains(t, n.m.Props().LastShown, "cannot be shown offline")
	n.run(backend.Connection{State: backend.Open})
	assert.Empty(t, n.m.Props().LastShown, "said only while offline")
}

// Issue 38.8: the page says when the storage is full, when a restored
// conversation lacks its oldest messages, and when the browser refuses.
func TestStorageNotices(t *testing.T) {
	h := agentPage(t)
	for ev, want := range map[backend.Event]string{
		backend.StorageFull{}:    "storage for this site is full",
		backend.Trimmed{}:        "only the newest messages of this conversation were kept",
		backend.StorageRefused{}: "does not let the page save conversations",
	} {
		h.run(ev)
		assert.Contains(t, noticeText(h), want)
	}
}

// Deleting a conversation has the backend forget what it keeps of it.
func TestDeleteForgetsWhatTheBackendKeeps(t *testing.T) {
	h := nativePage(t, "en")
	h.run(DeleteConversation{ID: "s2"})
	assert.Equal(t, []backend.Command{backend.Forget{ID: "s2"}}, h.sent)
}

// The Sources button toggles the panel; the back and forward buttons of a
// phone set it.
func TestSourcesPanelOpensAndCloses(t *testing.T) {
	h := nativePage(t, "en")
	h.run(ToggleSources{})
	assert.True(t, h.m.Props().SourcesOpen)
	closed := false
	h.run(ToggleSources{Open: &closed})
	assert.False(t, h.m.Props().SourcesOpen)
	h.run(ToggleSources{Open: &closed})
	assert.False(t, h.m.Props().SourcesOpen, "set, not toggled")
}

// A language chosen in the menu: the page speaks it once its catalog is
// loaded, and says so when it could not be.
func TestLanguageChosenInTheMenu(t *testing.T) {
	h := nativePage(t, "en")
	h.run(LanguageFailed{Lang: "de"})
	assert.Contains(t, noticeText(h), "Deutsch")
	h.run(SetLocale{Locale: i18n.Match("vi")})
	assert.Equal(t, "vi", h.m.Settings().Locale.Lang())
	assert.Equal(t, "vi", h.m.Props().Settings.Locale.Lang())
}
