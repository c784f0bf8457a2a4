package app

import (
	"errors"
	"net/url"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/components/i18n"
	"stepwise/state"
	"stepwise/state/wire"
)

// Controller is the page: it holds the model (configuration, settings, the
// session and its store, the view state of forms and panels), turns the
// actions components raise into commands, and renders the pure views of
// package components with props.
//
// Everything it holds, the store first, is changed only in go-app's engine
// work: event and action handlers, and the functions the transports, the
// replay driver and the embedding page hand over with ctx.Dispatch. Those
// run on go-app's engine goroutine, one at a time, in the order asked,
// never during a render (docs/architecture.md, "Ownership and
// concurrency"), and nothing run in a dispatch blocks. (JavaScript callbacks that only read the store,
// window.stepwise.view() and the replay's result, run while every
// goroutine is parked: Go in the browser is single-threaded and calls back
// into Go only when all its goroutines wait.)
type Controller struct {
	app.Compo

	cfg      Config
	settings components.Settings
	sess     *Session
	embed    *embedBridge // set when the app runs embedded in another page

	forms  components.Forms // replaced, never written into: it is a prop
	draft  components.Draft
	notice string
	outbox outbox // the messages sent that the conversation does not show yet (sending.go)
	conns  int    // the connections opened so far (sending.go)
	// noNetwork: the browser says it is offline (network_js.go).
	noNetwork       bool
	updateAvailable bool
	sourcesOpen     bool
	sourcesWidth    int

	agent    agentRuntime       // the AG-UI and AI SDK modes (agent_controller.go)
	announce announcer          // the polite status region's words
	copied   string             // the copy button showing "Copied" (copy.go)
	conv     conversationsModel // the sidebar (conversations_ctl.go)
	shown    lastShownModel     // what the conversation last showed (lastshown_ctl.go)
	drafts   draftsModel        // what is typed and not sent (drafts.go)
	freeze   freezer            // settled chunks shown as copies (freeze.go)
	draw     drawer             // chunks not drawn yet (draw.go)
	// following: a check that the reader follows the newest content is
	// due after the render (follow.go).
	following bool
}

// Routes registers the app's pages; the browser main and the server (which
// prerenders them) both call it.
func Routes() {
	app.Route("/", func() app.Composer { return &Controller{} })
}

// OnInit prepares an empty session. In the browser it already reads the
// URL, so that the first render is in the page's language.
func (c *Controller) OnInit() {
	c.sourcesWidth = 380
	u, browserLang := &url.URL{}, ""
	if app.IsClient {
		u, browserLang = app.Window().URL(), app.Window().Get("navigator").Get("language").String()
	}
	c.configure(u, browserLang)
}

// OnPreRender reads the URL on the server too: the prerendered page is in
// the language asked for, <html lang> included.
func (c *Controller) OnPreRender(ctx app.Context) {
	c.configure(ctx.Page().URL(), "")
	ctx.Page().SetLang(c.settings.Locale.Lang())
}

// configure reads the configuration from the deployment and the URL;
// browserLang is used when the URL names no language.
func (c *Controller) configure(u *url.URL, browserLang string) {
	c.cfg = ConfigFromURL(DefaultConfig().WithEnv(app.Getenv), u)
	tag := c.cfg.Lang
	if tag == "" {
		tag = browserLang
	}
	c.settings = components.Settings{
		Locale:         i18n.Match(tag),
		AgentName:      c.cfg.AgentName,
		FaviconService: c.cfg.FaviconService,
	}
	c.sess = NewSession(c.cfg, Recorder{})
}

// OnMount starts the source of events: a replayed file, or the backend.
// The page is marked ready (for tests) once everything is wired.
func (c *Controller) OnMount(ctx app.Context) {
	defer markReady()
	ctx.Page().SetLang(c.settings.Locale.Lang())
	exposeView(c)
	c.embed = setupEmbed(ctx, c)
	// Made on first use so that starting does not wait for it, the
	// Markdown parser is made once the page is idle, a step per idle
	// moment, so that the first answer does not wait for it either; so
	// are the fonts (fonts.go).
	whenIdleInTurn(components.MarkdownWarmUp())
	warmFonts()
	components.ListenCardShortcut()
	components.ListenSourcesHistory(ctx)
	c.freeze.init(ctx, newChunkDOM(ctx, c))
	ctx.Handle(components.ActionSendMessage, c.onSend)
	ctx.Handle(components.ActionStop, c.onStop)
	ctx.Handle(components.ActionAnswer, c.onAnswer)
	ctx.Handle(components.ActionDecide, c.onDecide)
	ctx.Handle(components.ActionToggleSources, c.onToggleSources)
	ctx.Handle(components.ActionSubmitForm, c.onSubmitForm)
	ctx.Handle(components.ActionCardExpired, c.onCardExpired)
	ctx.Handle(components.ActionCopy, c.onCopy)
	ctx.Handle(components.ActionRetryMessage, c.onRetryMessage)
	ctx.Handle(components.ActionEditMessage, c.onEditMessage)
	ctx.Handle(components.ActionRemoveMessage, c.onRemoveMessage)
	ctx.Handle(components.ActionDismissNotice, c.onDismissNotice)
	if c.cfg.Replay == "" {
		c.mountConversations(ctx)
	}
	c.mountLastShown()
	c.mountDrafts(ctx, tabStorage())

	// What was typed into the prerendered page goes out once the source of
	// events has started (a transport holds it until it is connected).
	defer c.takeOverBoot(ctx, takeBootInput())

	if c.cfg.Replay != "" {
		c.sess.Echo = true
		c.sess.State = ConnOpen
		startReplay(ctx, c)
		return
	}
	if c.cfg.SessionID == "" {
		c.cfg.SessionID = newSessionID()
		c.sess.ID = c.cfg.SessionID
		keepSessionInURL(c.cfg.SessionID) // F5 and shared links reopen it
	}
	watchNetwork(ctx, c)
	if c.cfg.AgentMode() {
		startAgent(ctx, c)
		return
	}
	startLive(ctx, c)
}

// OnAppUpdate shows the update prompt when a new version is deployed
// (go-app's service worker fetched it).
func (c *Controller) OnAppUpdate(ctx app.Context) {
	c.updateAvailable = ctx.AppUpdateAvailable()
}

// What the transports and the replay driver deliver, inside a dispatch.

// onHistory replaces the conversation with a loaded history.
func (c *Controller) onHistory(ctx app.Context, loaded *state.Store, changes state.Changes) {
	c.sess.Store = loaded
	c.afterApply(changes)
	c.unfreezeAll(ctx)
	c.draw.forget()
	c.draw.holdBack(0, chunkCount(len(c.sess.Store.Items())))
	c.noteHistory(ctx)
	c.scrollToEnd(ctx)
	c.matchEchoes(ctx)
}

// onReset: the server could not resume the stream
// (docs/protocol-extensions.md#the-reset-frame). loaded is h loaded into a
// store of its own, or nil (see state's ResetLoaded).
func (c *Controller) onReset(ctx app.Context, h *wire.History, loaded *state.Store, last wire.EventID) {
	c.afterApply(c.sess.Store.ResetLoaded(h, loaded, last))
	c.unfreezeAll(ctx)
	c.draw.forget()
	c.draw.holdBack(0, chunkCount(len(c.sess.Store.Items())))
	c.scrollToEnd(ctx)
	c.matchEchoes(ctx)
}

// applyFrame applies backend frames. go-app renders once per frame,
// however many arrive within it.
func (c *Controller) applyFrame(ctx app.Context, frames ...[]byte) {
	before := chunkCount(len(c.sess.Store.Items()))
	defer func() { c.draw.holdBack(before, chunkCount(len(c.sess.Store.Items()))) }()
	echoed, wasRunning := false, c.sess.Store.Status() == state.StatusRunning
	c.keepEvents(ctx, frames)
	for _, f := range frames {
		ch := c.sess.Apply(f)
		c.afterApply(ch)
		if ch.List && hasUserMessage(ch.Items) {
			// A backend that replays its log as a stream (the demo agent)
			// shows the first message here, not in the history.
			c.noteHistory(ctx)
			echoed = true
		}
	}
	if echoed {
		c.matchEchoes(ctx)
	} else if wasRunning && c.sess.Store.Status() != state.StatusRunning {
		c.flushQueued(ctx) // the run ended: what was queued goes out
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

func (c *Controller) onConnState(ctx app.Context, s ConnState) {
	prev := c.sess.State
	c.sess.State = s
	switch s {
	case ConnReconnecting, ConnClosed:
		c.offlineAtStart(ctx)
	case ConnOpen:
		c.connectedWithoutHistory(ctx)
	}
	c.connected(ctx, prev, s)
}

// onNetwork follows the browser's online and offline events.
func (c *Controller) onNetwork(ctx app.Context, online bool) {
	c.noNetwork = !online
}

// connection is the state the header shows: the browser's own word that
// it is offline comes before the transport finds out.
func (c *Controller) connection() ConnState {
	if c.noNetwork && c.cfg.Replay == "" {
		return ConnClosed
	}
	return c.sess.State
}

// afterApply follows what changed in the store: the embedding page is told
// of questions and status changes, and forms no longer pending lose their
// state.
func (c *Controller) afterApply(ch state.Changes) {
	if !ch.Pending && !ch.Status {
		return
	}
	c.announce.observe(c.sess.Store, c.settings.T)
	if c.embed != nil {
		c.embed.observe(c.sess.Store)
	}
	if ch.Pending {
		c.syncForms()
	}
}

// syncForms keeps a form state for each pending form, and only for those:
// it records when the newest was first shown (its countdown may start
// there).
func (c *Controller) syncForms() {
	var forms components.Forms
	for key, st := range c.forms {
		if pendingKey(c.sess.Store, key) {
			if forms == nil {
				forms = components.Forms{}
			}
			forms[key] = st
		} else {
			c.formDone(key)
		}
	}
	if p := c.sess.Store.Pending(); p != nil {
		key := approvalKey(p)
		if _, ok := forms[key]; !ok {
			if forms == nil {
				forms = components.Forms{}
			}
			forms[key] = components.FormState{Shown: time.Now(), Restore: c.formRestore(key)}
		}
	}
	c.forms = forms
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

// pendingKey is true when key names a question, approval or form still
// pending.
func pendingKey(s *state.Store, key string) bool {
	it := s.Approval(key)
	switch {
	case it == nil:
		return false
	case it.Question != nil:
		return it.Question.State == state.QuestionPending
	case it.Approval != nil:
		return it.Approval.State == state.ApprovalPending
	case it.Form != nil:
		return it.Form.State == state.QuestionPending
	}
	return false
}

// setForm replaces the state of one form (a new map: it is a prop).
func (c *Controller) setForm(key string, update func(*components.FormState)) {
	forms := make(components.Forms, len(c.forms)+1)
	for k, v := range c.forms {
		forms[k] = v
	}
	st := forms[key]
	update(&st)
	forms[key] = st
	c.forms = forms
}

// The actions components raise.

func (c *Controller) onStop(ctx app.Context, a app.Action) {
	if c.cfg.AgentMode() {
		c.agentStop(ctx)
		return
	}
	cmd, err := c.sess.Stop()
	if err != nil {
		c.refused(cmd, err)
	}
}

func (c *Controller) onAnswer(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.AnswerCommand)
	if !ok || c.forms[v.Key].Sending {
		return // one frame per form, however often it is clicked
	}
	if c.cfg.AgentMode() {
		c.agentAnswer(ctx, v.Key, state.CardAnswer{Answers: v.Answers})
		return
	}
	cmd, err := c.sess.Answer(v.Key, v.Answers)
	c.sent(cmd, err)
}

func (c *Controller) onDecide(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.DecideCommand)
	if !ok || c.forms[v.Key].Sending {
		return
	}
	if c.cfg.AgentMode() {
		c.agentAnswer(ctx, v.Key, state.CardAnswer{Decisions: v.Decisions})
		return
	}
	cmd, err := c.sess.Decide(v.Key, v.Decisions)
	c.sent(cmd, err)
}

// sent records that a form's command went out, or why it did not.
func (c *Controller) sent(cmd Command, err error) {
	if err != nil {
		c.refused(cmd, err)
		return
	}
	c.setForm(cmd.Key, func(f *components.FormState) { f.Sending, f.Error = true, "" })
	c.formDone(cmd.Key)
}

func (c *Controller) onToggleSources(ctx app.Context, a app.Action) {
	if open, ok := a.Value.(bool); ok {
		c.sourcesOpen = open
		return
	}
	c.sourcesOpen = !c.sourcesOpen
}

// onResult brings a command's outcome back to what sent it: a message's to
// its place in the outbox; an accepted form stays "sending" until the
// agent's answer resolves it.
func (c *Controller) onResult(ctx app.Context, r Result) {
	cmd, ok := c.sess.Outcome(r.CommandID)
	if !ok {
		return
	}
	if cmd.Kind == CommandMessage {
		c.messageOutcome(ctx, cmd, r.Err)
		return
	}
	if r.Err != nil {
		c.refused(cmd, r.Err)
	}
}

// refused shows why a command was refused or not sent, where it was sent
// from: the form, or the page's notice.
func (c *Controller) refused(cmd Command, err error) {
	msg := c.errorText(err)
	switch cmd.Kind {
	case CommandAnswer, CommandDecide:
		c.setForm(cmd.Key, func(f *components.FormState) { f.Sending, f.Error = false, msg })
	default:
		c.notice = msg
	}
}

// errorText says, in the UI language, why a command failed. A backend's
// own message is shown as it is.
func (c *Controller) errorText(err error) string {
	var tooLarge *TooLargeError
	switch {
	case errors.Is(err, ErrOffline):
		return c.settings.T("send.offline")
	case errors.As(err, &tooLarge) && c.cfg.AgentMode():
		return c.settings.T("send.conversation_too_large", components.FormatBytes(c.settings, tooLarge.Size), components.FormatBytes(c.settings, tooLarge.Limit))
	case errors.As(err, &tooLarge):
		return c.settings.T("send.message_too_large", components.FormatBytes(c.settings, tooLarge.Size), components.FormatBytes(c.settings, tooLarge.Limit))
	}
	return c.settings.T("send.failed", err.Error())
}

// scrollToEnd brings the newest content into view once (after a send or a
// history load). Following new content while the reader is at the bottom
// needs no script: the conversation anchors its scroll on the
// .scroll-anchor after the last item (CSS overflow-anchor), which costs no
// layout per frame and leaves a reader who scrolled up where they are.
func (c *Controller) scrollToEnd(ctx app.Context) {
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID("conversation"); el.Truthy() {
			el.Set("scrollTop", el.Get("scrollHeight"))
		}
	})
}

// offline is true when a live page has lost its backend, or the browser
// its network.
func (c *Controller) offline() bool {
	return c.cfg.Replay == "" && app.IsClient &&
		(c.noNetwork || c.sess.State == ConnReconnecting || c.sess.State == ConnClosed)
}

// Render draws the model with the views of package components.
func (c *Controller) Render() app.UI {
	c.afterRender()
	store := c.sess.Store
	return components.Page(components.PageProps{
		Settings:        c.settings,
		Items:           store.Items(),
		Status:          store.Status(),
		Sources:         store.Sources(),
		Connection:      c.connection(),
		Forms:           c.forms,
		Draft:           c.draft,
		Notice:          c.notice,
		Offline:         c.offline(),
		NoNetwork:       c.noNetwork,
		Outgoing:        c.outbox.view(c.offline()),
		LastShown:       c.lastShownNote(time.Now()),
		UpdateAvailable: c.updateAvailable,
		SourcesOpen:     c.sourcesOpen,
		SourcesWidth:    c.sourcesWidth,
		SourcesRev:      store.SourcesRev(),
		Plan:            newestPlan(store),
		Announcement:    c.announce.text,
		Copied:          c.copied,
		Conversations:   c.conversationsProps(),
		Scenarios:       c.cfg.Scenarios,
		Starting:        !app.IsClient,
		Resuming:        c.cfg.SessionID != "",
		Frozen:          c.freeze.marks,
		Waiting:         c.draw.waiting,
	})
}

// newestPlan is the store's newest plan, nil when there is none.
func newestPlan(s *state.Store) *state.Plan {
	if p, ok := s.Plan(); ok {
		return &p
	}
	return nil
}
