package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	client "stepwise/app"
	"stepwise/state"
	"stepwise/state/wire"
)

// chunkSize is how many top-level items one ChunkView holds. A render of
// the conversation compares one revision per chunk, and only a changed
// chunk compares its items: a 2,000-item conversation does ~60 comparisons
// for a text delta, not 2,000.
const chunkSize = 32

// Root is the page: header, conversation, sources panel and composer.
type Root struct {
	app.Compo

	cfg   client.Config
	sess  *client.Session
	embed *embedBridge // set when the app runs embedded in another page

	renderQueued    bool
	updateAvailable bool
	sourcesOpen     bool
	sourcesWidth    int
	notice          string
}

// OnInit prepares an empty session so the server's prerender and the
// first browser render show the same page.
func (r *Root) OnInit() {
	r.cfg = client.DefaultConfig()
	r.sess = client.NewSession(r.cfg, client.Recorder{})
	r.sourcesWidth = 380
}

// OnMount reads the configuration from the URL and starts the source of
// events: a replayed file, or (without one) an idle conversation.
func (r *Root) OnMount(ctx app.Context) {
	r.cfg = client.ConfigFromURL(client.DefaultConfig().WithEnv(app.Getenv), ctx.Page().URL())
	tag := r.cfg.Lang
	if tag == "" {
		tag = app.Window().Get("navigator").Get("language").String()
	}
	SetLanguage(tag)
	html := app.Window().Get("document").Get("documentElement")
	html.Set("lang", Language())
	html.Get("dataset").Set("stepwise", "ready") // the wasm app runs: tests wait for it
	html.Get("dataset").Set("readyAt", app.Window().Get("performance").Call("now").Float())
	SetSettings(Settings{AgentName: r.cfg.AgentName, FaviconService: r.cfg.FaviconService})
	r.sess = client.NewSession(r.cfg, client.Recorder{})
	exposeView(r)

	setupEmbed(ctx, r)
	ctx.Handle(ActionSendMessage, r.onSend)
	ctx.Handle(ActionStop, r.onStop)
	ctx.Handle(ActionAnswer, r.onAnswer)
	ctx.Handle(ActionDecide, r.onDecide)

	if r.cfg.Replay != "" {
		r.sess.Echo = true
		r.sess.State = client.ConnOpen
		startReplay(ctx, r)
		return
	}
	if r.cfg.SessionID == "" {
		r.cfg.SessionID = newSessionID()
		keepSessionInURL(r.cfg.SessionID) // F5 and shared links reopen it
	}
	startLive(ctx, r)
}

// onHistory replaces the conversation with a loaded history.
func (r *Root) onHistory(ctx app.Context, h *wire.History) {
	r.sess.Store.LoadHistory(h)
	if r.embed != nil {
		r.embed.observe(r.sess.Store)
	}
	r.queueRender(ctx)
	r.scrollToEnd(ctx)
}

func (r *Root) onConnState(ctx app.Context, s client.ConnState) {
	if r.sess.State != s {
		r.sess.State = s
		r.queueRender(ctx)
	}
}

// applyFrame applies one backend frame and schedules one render: frames
// arriving within the same frame share it.
func (r *Root) applyFrame(ctx app.Context, line []byte) {
	ch := r.sess.Apply(line)
	if r.embed != nil && (ch.Pending || ch.Status) {
		r.embed.observe(r.sess.Store)
	}
	r.queueRender(ctx)
}

func (r *Root) queueRender(ctx app.Context) {
	if r.renderQueued {
		return
	}
	r.renderQueued = true
	ctx.Dispatch(func(ctx app.Context) { r.renderQueued = false })
}

// scrollToEnd brings the newest content into view once (after a send or a
// history load). Following new content while the reader is at the bottom
// needs no script: the conversation anchors its scroll on the
// .scroll-anchor after the last item (CSS overflow-anchor), which costs no
// layout per frame and leaves a reader who scrolled up where they are.
func (r *Root) scrollToEnd(ctx app.Context) {
	ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID("conversation"); el.Truthy() {
			el.Set("scrollTop", el.Get("scrollHeight"))
		}
	})
}

// OnAppUpdate shows the update prompt when a new version is deployed
// (go-app's service worker fetched it).
func (r *Root) OnAppUpdate(ctx app.Context) {
	r.updateAvailable = ctx.AppUpdateAvailable()
}

// offline is true when a live page has lost its backend.
func (r *Root) offline() bool {
	return r.cfg.Replay == "" && (r.sess.State == client.ConnReconnecting || r.sess.State == client.ConnClosed) && app.IsClient
}

func (r *Root) report(err error) {
	if err != nil {
		r.notice = T("send.failed", err.Error())
	} else {
		r.notice = ""
	}
}

func (r *Root) onSend(ctx app.Context, a app.Action) {
	text, _ := a.Value.(string)
	err := r.sess.SendMessage(text)
	if err == client.ErrEmptyMessage {
		return
	}
	r.report(err)
	if err == nil {
		r.scrollToEnd(ctx)
	}
}

func (r *Root) onStop(ctx app.Context, a app.Action) { r.report(r.sess.Stop()) }

func (r *Root) onAnswer(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(AnswerCommand); ok {
		r.report(r.sess.Answer(c.Key, c.Answers))
	}
}

func (r *Root) onDecide(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(DecideCommand); ok {
		r.report(r.sess.Decide(c.Key, c.Decisions))
	}
}

func (r *Root) Render() app.UI {
	store := r.sess.Store
	status := store.Status()
	sources := store.Sources()
	return app.Div().Class("shell").Body(
		r.header(len(sources)),
		app.Div().Class("main").Body(
			app.Div().Class("column").Body(
				app.If(r.updateAvailable, func() app.UI {
					return app.Div().Class("banner update").Attr("role", "status").DataSet("testid", "update").Body(
						app.Span().Text(T("update.available")),
						app.Button().Class("primary").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }).Text(T("update.reload")),
					)
				}),
				app.If(r.offline(), func() app.UI {
					return app.Div().Class("banner offline").Attr("role", "status").DataSet("testid", "offline").Text(T("offline.notice"))
				}),
				app.If(r.notice != "", func() app.UI {
					return app.Div().Class("notice").Attr("role", "alert").Text(r.notice)
				}),
				app.Section().ID("conversation").Class("conversation").
					Attr("role", "log").Aria("live", "polite").Aria("label", T("composer.label")).
					DataSet("testid", "conversation").DataSet("agent-status", string(status)).
					Body(r.conversation(store)...),
				&Composer{Running: status == state.StatusRunning},
			),
			app.If(r.sourcesOpen, func() app.UI {
				return &SourcesPanel{Groups: sources, Count: len(sources), Width: r.sourcesWidth, Rev: store.SourcesRev()}
			}),
		),
	)
}

// connectionKeys describe each connection state.
var connectionKeys = map[client.ConnState]string{
	client.ConnConnecting:   "connection.connecting",
	client.ConnOpen:         "connection.open",
	client.ConnReconnecting: "connection.reconnecting",
	client.ConnClosed:       "connection.closed",
}

func (r *Root) header(sourceGroups int) app.UI {
	conn := string(r.sess.State)
	return app.Header().Class("topbar").Body(
		app.Img().Src("/web/logo.svg").Alt("").Class("topbar-logo").Width(28).Height(28),
		app.Div().Class("topbar-name").Body(
			app.Span().Class("name").Text(settings.AgentName),
			app.Span().Class("tagline").Text(T("app.tagline")),
		),
		app.Span().Class("connection conn-"+conn).DataSet("testid", "connection").DataSet("state", conn).Body(
			app.Span().Class("conn-dot").Aria("hidden", true),
			app.Span().Class("conn-label").Text(T(connectionKeys[r.sess.State])),
		),
		app.Button().Class("sources-button").DataSet("testid", "sources-button").
			Aria("expanded", r.sourcesOpen).Aria("controls", "sources-panel").
			OnClick(func(ctx app.Context, e app.Event) { r.sourcesOpen = !r.sourcesOpen }).Body(
			app.Span().Text(T("sources.button")),
			app.Span().Class("badge").Text(itoa(sourceGroups)),
		),
	)
}

// conversation renders the items in chunks, or the empty state.
func (r *Root) conversation(store *state.Store) []app.UI {
	items := store.Items()
	if len(items) == 0 {
		return []app.UI{emptyState()}
	}
	chunks := make([]app.UI, 0, len(items)/chunkSize+1)
	for lo := 0; lo < len(items); lo += chunkSize {
		hi := min(lo+chunkSize, len(items))
		part := items[lo:hi:hi]
		var rev uint64
		for _, it := range part {
			rev = max(rev, it.Rev)
		}
		chunks = append(chunks, &ChunkView{Items: part, Rev: rev, Len: len(part)})
	}
	return append(chunks, app.Div().Class("scroll-anchor").Aria("hidden", true))
}

// ChunkView renders a run of top-level items; it re-renders only when one
// of them changed (Rev is the newest revision among them).
type ChunkView struct {
	app.Compo
	Items []*state.Item
	Rev   uint64
	Len   int
}

func (c *ChunkView) Render() app.UI {
	views := make([]app.UI, len(c.Items))
	for i, it := range c.Items {
		views[i] = &ItemView{Item: it, Rev: it.Rev}
	}
	return app.Div().Class("chunk").Body(views...)
}

func emptyState() app.UI {
	return app.Div().Class("empty").Body(
		app.Img().Src("/web/logo.svg").Alt("").Class("empty-logo").Width(56).Height(56),
		app.H1().Text(T("empty.title")),
		app.P().Text(T("empty.hint")),
		app.Ul().Class("suggestions").Body(scenarioButtons()...),
	)
}
