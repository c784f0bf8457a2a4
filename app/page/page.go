// Package page is the page's model and its update, in plain Go: what the
// page shows (the conversation's store, forms, the draft, notices, the
// messages on their way, the conversations list) and every decision the
// page makes about it. As in Bubble Tea, Update takes a message (an action
// of the person's, an event of the backend's, the outcome of a command)
// and returns commands: values the controller (package app) carries out,
// whose results come back as messages. So the page's decisions are tested
// natively, without a browser or go-app's engine.
//
// The model knows its backend only through backend.Traits and Check: it
// never asks which protocol the backend speaks.
package page

import (
	"errors"
	"net/url"
	"strconv"
	"time"

	"stepwise/app/backend"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/components/i18n"
	"stepwise/state"
	"stepwise/state/wire"
)

// Options are what a page starts with.
type Options struct {
	Settings  components.Settings
	SessionID string // "" for none (a replay)
	// Traits and Check are the backend's (backend.Backend).
	Traits backend.Traits
	Check  func(conv *state.Store, text string, files []wire.ContentBlock) error
	// Base is the page's address: conversation links keep its other
	// parameters.
	Base *url.URL
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Uploads are the deployment's bounds on a message's files.
	Uploads state.UploadLimits
}

// Model is the page's model. It is changed only by Update, inside
// go-app's engine work (the controller's update).
type Model struct {
	settings components.Settings
	id       string
	traits   backend.Traits
	check    func(conv *state.Store, text string, files []wire.ContentBlock) error
	now      func() time.Time

	store *state.Store
	conn  backend.ConnState
	// noNetwork: the browser says it is offline.
	noNetwork       bool
	updateAvailable bool

	forms        components.Forms // replaced, never written into: it is a prop
	draft        components.Draft
	notice       string
	sourcesOpen  bool
	sourcesWidth int
	copied       string // the copy button showing "Copied"
	announce     announcer
	outbox       outbox // the messages sent that the conversation does not show yet
	conns        int    // the connections opened so far
	list         conversations

	// drafts is what is typed and not sent (drafts.go); keepDrafts: the
	// page keeps it (DraftLoaded came).
	drafts     persist.Draft
	keepDrafts bool
	// lastShown is when the conversation shown was saved, when it is
	// what the page last showed, kept by the browser (backend.Loaded's
	// LastShown); zero when it is the live conversation. notKept: the
	// backend cannot be reached and nothing was kept to show.
	lastShown time.Time
	notKept   bool

	// files are attached to the message being written (attachments.go);
	// limits bound them.
	files   []draftFile
	fileSeq int
	limits  state.UploadLimits

	seq int // the last command id given
	// editorsReopened counts the message editors the page opened again
	// (components.FormState.Reopen).
	editorsReopened int
	waiting         []sentCommand // commands waiting for their outcome, oldest first

	cmds []Cmd // Update's answer, reused
}

// sentCommand is a command waiting for its outcome.
type sentCommand struct {
	id       string
	key      string // a form's: the card it answers, or a message's editor (components.EditFormKey); "" for others
	msg      bool   // a message (its outcome goes to the outbox)
	edit     bool   // an edit of a user message: refused, its text goes back into its editor
	editText string // the edit's text
}

// maxWaiting bounds the commands kept for their outcome: a backend that
// never answers (it predates command_result) must not grow the list.
const maxWaiting = 64

// New returns a page with an empty conversation.
func New(o Options) *Model {
	m := &Model{
		settings:     o.Settings,
		id:           o.SessionID,
		traits:       o.Traits,
		check:        o.Check,
		now:          o.Now,
		store:        state.New(o.Traits.Store),
		conn:         backend.Connecting,
		sourcesWidth: 380,
		limits:       o.Uploads,
	}
	// The actions the backend carries out; every conversation can be
	// exported, and the newest content jumped to.
	m.settings.Offers = o.Traits.Offers
	m.settings.Offers.Export, m.settings.Offers.Jump = true, true
	if m.now == nil {
		m.now = time.Now
	}
	if m.check == nil {
		m.check = func(*state.Store, string, []wire.ContentBlock) error { return nil }
	}
	m.list.base = o.Base
	return m
}

// Store is the conversation. The model owns it: read it, never change it.
func (m *Model) Store() *state.Store { return m.store }

// Settings are the page's settings.
func (m *Model) Settings() components.Settings { return m.settings }

// Copied is the copy button showing "Copied" ("" for none).
func (m *Model) Copied() string { return m.copied }

// Props are the page's props, but what the controller adds of the DOM's
// (Frozen, Waiting) and of the deployment (Scenarios, Starting, Resuming).
func (m *Model) Props() components.PageProps {
	store := m.store
	return components.PageProps{
		Settings:        m.settings,
		Items:           store.Items(),
		Status:          store.Status(),
		Sources:         store.Sources(),
		Connection:      m.connection(),
		Forms:           m.forms,
		Draft:           m.draft,
		Notice:          m.notice,
		Offline:         m.offline(),
		NoNetwork:       m.noNetwork,
		Outgoing:        m.outbox.view(m.offline()),
		LastShown:       m.lastShownNote(),
		UpdateAvailable: m.updateAvailable,
		SourcesOpen:     m.sourcesOpen,
		SourcesWidth:    m.sourcesWidth,
		SourcesRev:      store.SourcesRev(),
		Plan:            newestPlan(store),
		Announcement:    m.announce.text,
		Copied:          m.copied,
		Conversations:   m.list.props(m.traits.Listed),
		Attach:          m.attachProps(),
	}
}

// newestPlan is the store's newest plan, nil when there is none.
func newestPlan(s *state.Store) *state.Plan {
	if p, ok := s.Plan(); ok {
		return &p
	}
	return nil
}

// connection is the state the header shows: the browser's own word that
// it is offline comes before the transport finds out.
func (m *Model) connection() backend.ConnState {
	if m.noNetwork {
		return backend.Closed
	}
	return m.conn
}

// offline is true when the page has lost its backend, or the browser its
// network.
func (m *Model) offline() bool {
	return m.noNetwork || m.conn == backend.Reconnecting || m.conn == backend.Closed
}

// Update applies msg and returns the commands to carry out, in order. The
// slice is the model's: it is valid until the next Update.
func (m *Model) Update(msg Msg) []Cmd {
	m.cmds = m.cmds[:0]
	switch msg := msg.(type) {
	// The person's actions.
	case Send:
		m.draftSent() // the composer is empty now
		m.sendText(msg.Text)
	case Stop:
		m.stop()
	case components.AnswerCommand:
		m.answer(msg.Key, state.CardAnswer{Answers: msg.Answers}, func(id string) backend.Command {
			return backend.Answer{ID: id, Key: msg.Key, Answers: msg.Answers}
		})
	case components.DecideCommand:
		m.answer(msg.Key, state.CardAnswer{Decisions: msg.Decisions}, func(id string) backend.Command {
			return backend.Decide{ID: id, Key: msg.Key, Decisions: msg.Decisions}
		})
	case components.FormCommand:
		m.answer(msg.Key, state.CardAnswer{Values: msg.Values}, func(id string) backend.Command {
			return backend.SubmitForm{ID: id, Key: msg.Key, Values: msg.Values}
		})
	case CardExpired:
		m.cardsExpired()
	case AttachFiles:
		m.attach(msg.Files)
	case RemoveFile:
		m.removeFile(msg.ID)
	case components.EditCommand:
		m.editSent(msg)
	case Regenerate:
		m.command(func(id string) backend.Command { return backend.Regenerate{ID: id, MessageID: msg.MessageID} })
	case DiscardEdit:
		m.discardEdit(msg.MessageID)
	case SelectBranch:
		m.command(func(id string) backend.Command { return backend.SelectBranch{ID: id, MessageID: msg.MessageID} })
	case components.FeedbackCommand:
		m.command(func(id string) backend.Command {
			return backend.Rate{ID: id, MessageID: msg.MessageID, Rating: msg.Rating, Comment: msg.Comment}
		})
	case Export:
		m.export(msg.Format)
	case JumpToLatest:
		m.do(ScrollToEnd{})
	case RetryMessage:
		m.retry(msg.ID)
	case EditMessage:
		m.edit(msg.ID)
	case RemoveMessage:
		m.remove(msg.ID)
	case DismissNotice:
		m.notice = ""
	case ToggleSources:
		m.sourcesOpen = !m.sourcesOpen
		if msg.Open != nil {
			m.sourcesOpen = *msg.Open
		}
	case components.CopyCommand:
		m.do(Clipboard{ID: msg.ID, Text: msg.Text})
	case Copied:
		m.copiedText(msg.ID, msg.Err)
	case CopiedGone:
		if m.copied == msg.ID {
			m.copied = ""
		}
	case Boot:
		m.boot(msg)
	case DraftLoaded:
		m.draftLoaded(msg.Draft)
	case DraftChanged:
		m.draftChanged(msg.Text)
	case components.FormDraft:
		m.formDraft(msg)
	case AppUpdate:
		m.updateAvailable = true
	case SetLocale:
		m.settings.Locale = msg.Locale
	case LanguageFailed:
		m.notice = m.settings.T("prefs.language_failed", i18n.Name(msg.Lang))

	// The sidebar.
	case NewConversation, components.RenameCommand, DeleteConversation, ToggleConversations,
		ListLoaded, RemoteListed, ListRefused:
		m.conversationsUpdate(msg)

	// Timers.
	case EchoWaitOver:
		m.flushQueued()
	case ConnectionSettled:
		m.expireUnconfirmed(msg.Conn)

	// A command the backend refused at once.
	case Refused:
		m.outcome(commandID(msg.Command), msg.Err)

	// The backend's events.
	case backend.Event:
		m.event(msg)
	}
	return m.cmds
}

// do adds a command to Update's answer. It is called in many places and
// not inlined: each inlined append is a copy of slice growth's code.
//
//go:noinline
func (m *Model) do(c Cmd) { m.cmds = append(m.cmds, c) }

// event applies what the backend delivered.
func (m *Model) event(ev backend.Event) {
	switch ev := ev.(type) {
	case backend.Frames:
		m.frames(ev)
	case backend.Loaded:
		m.loaded(ev)
	case backend.Reset:
		m.reset(ev)
	case backend.Happened:
		m.happened(ev.Event)
	case backend.Connection:
		prev := m.conn
		m.conn = ev.State
		if ev.State == backend.Open {
			m.connectedWithoutHistory()
		}
		m.connected(prev, ev.State)
	case backend.Network:
		m.noNetwork = !ev.Online
	case backend.Outcome:
		m.outcome(ev.CommandID, ev.Err)
	case backend.StreamClosed:
		m.do(backend.Save{})
		m.flushQueued()
	case backend.SaveDue:
		m.do(backend.Save{})
	case backend.Oversized:
		m.notice = m.settings.T("stream.oversized", components.FormatBytes(m.settings, ev.Limit))
	case backend.StorageRefused:
		m.notice = m.settings.T("storage.refused")
	case backend.StorageFull:
		m.notice = m.settings.T("storage.full")
	case backend.Trimmed:
		m.notice = m.settings.T("storage.trimmed")
	case backend.NotKept:
		m.notKept = len(m.store.Items()) == 0
	case backend.Failed:
		m.notice = m.settings.T("replay.failed", ev.Err.Error())
	case backend.UploadProgress:
		m.uploadProgress(ev)
	case backend.Uploaded:
		m.uploaded(ev)
	}
}

// frames applies stream events: a run that ends sends what was queued.
func (m *Model) frames(ev backend.Frames) {
	echoed, wasRunning := false, m.store.Status() == state.StatusRunning
	for _, f := range ev.Frames {
		ch := m.store.ApplyJSON(f)
		m.afterApply(ch)
		if ch.List && hasUserMessage(ch.Items) {
			// A backend that replays its log as a stream (the demo agent)
			// shows the first message here, not in the history.
			m.noteHistory()
			echoed = true
		}
	}
	if ev.Paced {
		m.do(backend.SaveSoon{})
		m.do(PaceRender{})
	}
	if echoed {
		m.matchEchoes()
	} else if wasRunning && m.store.Status() != state.StatusRunning {
		m.flushQueued() // the run ended: what was queued goes out
	}
}

func hasUserMessage(items []*state.Item) bool {
	for _, it := range items {
		if it.Kind == state.KindUser {
			return true
		}
	}
	return false
}

// loaded takes the conversation so far in place of the page's: the live
// one, or what the page last showed (the backend cannot be reached),
// which the page marks as such until the live one replaces it.
func (m *Model) loaded(ev backend.Loaded) {
	m.store = ev.Store
	m.lastShown, m.notKept = ev.LastShown, false
	m.afterApply(ev.Changes)
	m.do(Redraw{})
	if ev.LastShown.IsZero() {
		m.noteHistory()
	}
	m.do(ScrollToEnd{})
	if ev.LastShown.IsZero() {
		m.matchEchoes()
	}
}

// connectedWithoutHistory: the connection opened while the page shows
// what it last showed and no live history came (its request failed): the
// stream brings the conversation from its start, so the copy goes.
func (m *Model) connectedWithoutHistory() {
	if m.lastShown.IsZero() {
		return
	}
	m.lastShown = time.Time{}
	m.store = state.New(m.traits.Store)
	m.afterApply(state.Changes{List: true, Status: true, Pending: true, Sources: true})
	m.do(Redraw{})
}

// lastShownNote is the banner's words: the page shows what the
// conversation last showed (and when that was saved), or has nothing to
// show offline; "" otherwise.
func (m *Model) lastShownNote() string {
	switch {
	case !m.lastShown.IsZero():
		now := m.now()
		at := m.lastShown.In(now.Location())
		when := at.Format("15:04")
		if y, mo, d := at.Date(); y != now.Year() || mo != now.Month() || d != now.Day() {
			when = at.Format("2006-01-02 15:04")
		}
		return m.settings.T("offline.last_shown", when)
	case m.notKept && m.offline():
		return m.settings.T("offline.not_kept")
	}
	return ""
}

// reset: the server could not resume the stream
// (docs/protocol-extensions.md#the-reset-frame).
func (m *Model) reset(ev backend.Reset) {
	m.lastShown, m.notKept = time.Time{}, false
	m.afterApply(m.store.ResetLoaded(ev.History, ev.Loaded, ev.Last))
	m.do(Redraw{})
	m.do(ScrollToEnd{})
	m.matchEchoes()
}

// happened applies what the backend learnt of its stream.
func (m *Model) happened(ev state.Local) {
	ch, err := m.store.ApplyLocal(ev)
	if err == nil {
		m.afterApply(ch)
	}
}

// afterApply follows what changed in the store: the status region and the
// embedding page are told of questions and status changes, and forms no
// longer pending lose their state.
func (m *Model) afterApply(ch state.Changes) {
	if !ch.Pending && !ch.Status {
		return
	}
	m.announce.observe(m.store, m.settings.T)
	m.do(Tell{})
	if ch.Pending {
		m.syncForms()
	}
}

// nextID gives a command its id: the outcome names it. (Not inlined:
// it is called in several places.)
//
//go:noinline
func (m *Model) nextID() string {
	m.seq++
	return "c" + strconv.Itoa(m.seq)
}

// sent records a command waiting for its outcome. (Not inlined: it is
// called in several places.)
//
//go:noinline
func (m *Model) sent(c sentCommand) {
	if len(m.waiting) == maxWaiting {
		m.waiting = append(m.waiting[:0], m.waiting[1:]...)
	}
	m.waiting = append(m.waiting, c)
}

// outcome brings a command's outcome back to what sent it: a message's to
// its place in the outbox; an accepted form stays "sending" until the
// agent's answer resolves it; a refusal returns to the form, or the notice.
func (m *Model) outcome(id string, err error) {
	var c sentCommand
	found := false
	for i, w := range m.waiting {
		if w.id == id {
			c, found = w, true
			m.waiting = append(m.waiting[:i], m.waiting[i+1:]...)
			break
		}
	}
	switch {
	case !found:
	case c.msg:
		m.messageOutcome(id, err)
	case err == nil:
	case c.edit:
		m.editRefused(c.key, c.editText, err)
	case c.key != "":
		msg := m.errorText(err)
		m.setForm(c.key, func(f *components.FormState) { f.Sending, f.Error = false, msg })
	default:
		m.notice = m.errorText(err)
	}
}

// commandID is a command's id ("" for those without).
func commandID(c backend.Command) string {
	switch c := c.(type) {
	case backend.Send:
		return c.ID
	case backend.Answer:
		return c.ID
	case backend.Decide:
		return c.ID
	case backend.SubmitForm:
		return c.ID
	case backend.Continue:
		return c.ID
	case backend.Stop:
		return c.ID
	case backend.Edit:
		return c.ID
	case backend.Regenerate:
		return c.ID
	case backend.SelectBranch:
		return c.ID
	case backend.Rate:
		return c.ID
	}
	return ""
}

// errorText says, in the UI language, why a command failed. A backend's
// own message is shown as it is.
func (m *Model) errorText(err error) string {
	var tooLarge *backend.TooLargeError
	switch {
	case errors.Is(err, backend.ErrOffline):
		return m.settings.T("send.offline")
	case errors.As(err, &tooLarge) && tooLarge.Conversation:
		return m.settings.T("send.conversation_too_large", components.FormatBytes(m.settings, tooLarge.Size), components.FormatBytes(m.settings, tooLarge.Limit))
	case errors.As(err, &tooLarge):
		return m.settings.T("send.message_too_large", components.FormatBytes(m.settings, tooLarge.Size), components.FormatBytes(m.settings, tooLarge.Limit))
	case errors.Is(err, state.ErrNoSuchMessage):
		return m.settings.T("message.gone")
	}
	var ce *backend.CommandError
	if errors.As(err, &ce) && ce.Type == "busy" && ce.Message == "" {
		return m.settings.T("message.busy")
	} else if ce != nil && ce.Type == "feedback_refused" {
		return m.settings.T("feedback.failed", ce.Message)
	}
	return m.settings.T("send.failed", err.Error())
}

// The cards.

// answer answers a card: applied to the conversation (where the page
// keeps it, the card shows the answer at once), then sent; once every
// card the agent waits on has its answer, they go on with the run.
func (m *Model) answer(key string, a state.CardAnswer, command func(id string) backend.Command) {
	if m.forms[key].Sending {
		return // one command per form, however often it is clicked
	}
	ch, err := m.store.ApplyLocal(state.CardAnswered{Key: key, Answer: a})
	if err != nil {
		msg := m.errorText(err)
		m.setForm(key, func(f *components.FormState) { f.Sending, f.Error = false, msg })
		return
	}
	m.afterApply(ch)
	m.formDone(key)
	id := m.nextID()
	if m.store.Approval(key).AwaitsAnswer() {
		// The backend resolves it: the form waits for its word.
		m.setForm(key, func(f *components.FormState) { f.Sending, f.Error = true, "" })
		m.sent(sentCommand{id: id, key: key})
	}
	m.do(command(id))
	if ch.Ready && !m.busy() {
		m.continueRun()
	}
	m.do(backend.Save{})
}

// cardsExpired: a card's countdown ended; the cards that are due expire,
// and when the answers given to the others can now go, they go.
func (m *Model) cardsExpired() {
	ch, err := m.store.ApplyLocal(state.CardsExpired{Now: m.now()})
	if err != nil {
		return
	}
	m.afterApply(ch)
	if ch.Ready && !m.busy() {
		m.continueRun()
	}
	m.do(backend.Save{})
}

// continueRun sends the answers given to the agent's cards: the paused run
// goes on.
func (m *Model) continueRun() {
	ch, err := m.store.ApplyLocal(state.AnswersSent{})
	if err != nil {
		return
	}
	m.afterApply(ch)
	id := m.nextID()
	m.sent(sentCommand{id: id})
	m.do(backend.Continue{ID: id})
}

// stop asks the agent to stop: where the page keeps the conversation, the
// run ends here; a backend says it stopped with an event of its own.
func (m *Model) stop() {
	ch, _ := m.store.ApplyLocal(state.RunStopped{})
	m.afterApply(ch)
	id := m.nextID()
	m.sent(sentCommand{id: id})
	m.do(backend.Stop{ID: id})
	m.do(backend.Save{})
	m.flushQueued()
}

// syncForms keeps a form state for each pending form, and only for those:
// it records when the newest was first shown (its countdown may start
// there).
func (m *Model) syncForms() {
	var forms components.Forms
	for key, st := range m.forms {
		if components.IsEditFormKey(key) || m.store.Approval(key).AwaitsAnswer() {
			if forms == nil {
				forms = components.Forms{}
			}
			forms[key] = st
		} else {
			m.formDone(key)
		}
	}
	if p := m.store.Pending(); p != nil {
		key := approvalKey(p)
		if _, ok := forms[key]; !ok {
			if forms == nil {
				forms = components.Forms{}
			}
			forms[key] = components.FormState{Shown: m.now(), Restore: m.drafts.Forms[key]}
		}
	}
	m.forms = forms
}

func approvalKey(it *state.Item) string {
	if it.Question != nil {
		return it.Question.ApprovalKey
	}
	if it.Approval != nil {
		return it.Approval.ApprovalKey
	}
	if it.Form != nil {
		return it.Form.ApprovalKey
	}
	return ""
}

// setForm replaces the state of one form (a new map: it is a prop).
func (m *Model) setForm(key string, update func(*components.FormState)) {
	forms := make(components.Forms, len(m.forms)+1)
	for k, v := range m.forms {
		forms[k] = v
	}
	st := forms[key]
	update(&st)
	forms[key] = st
	m.forms = forms
}

// dropForm forgets the state of one form.
func (m *Model) dropForm(key string) {
	if _, ok := m.forms[key]; !ok {
		return
	}
	forms := make(components.Forms, len(m.forms))
	for k, v := range m.forms {
		if k != key {
			forms[k] = v
		}
	}
	m.forms = forms
}

// copiedFor is how long a copy button shows "Copied".
const copiedFor = 2 * time.Second

// copiedText records the outcome of a copy: the button shows "Copied" for
// a moment and the status region says it; when the browser refuses, the
// notice says how to copy by hand.
func (m *Model) copiedText(id string, err error) {
	if err != nil {
		m.notice = m.settings.T("copy.refused")
		return
	}
	if m.notice == m.settings.T("copy.refused") {
		m.notice = ""
	}
	m.copied = id
	m.announce.say(m.settings.T("copy.done"))
	m.do(After{Delay: copiedFor, Msg: CopiedGone{ID: id}})
}

// boot takes over what was typed into the prerendered page before the app
// ran: the messages sent go out once and in order (the backend holds them
// until it is connected), and the rest of the text goes back into the
// composer, with the focus if it had it.
func (m *Model) boot(in Boot) {
	for _, text := range in.Messages {
		m.sendText(text)
	}
	if in.Draft != "" {
		m.draft = components.Draft{Text: in.Draft, Seq: m.draft.Seq + 1, Focus: in.Focused}
	}
}

// TitleFromMessage makes a list title of a message: its first line, spaces
// collapsed, cut at wire.MaxTitleRunes with an ellipsis (wire.SessionTitle,
// the rule the demo agent's session list uses too).
func TitleFromMessage(text string) string { return wire.SessionTitle(text) }

// entry is a persisted conversations-list entry.
type entry = persist.Conversation
