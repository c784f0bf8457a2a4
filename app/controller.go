package app

import (
	"net/url"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/backend"
	"stepwise/app/dom"
	"stepwise/app/page"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/state"
)

// Controller is the page as go-app sees it: it wires a backend to the
// page's model (package page), turns go-app's actions and the backend's
// events into the model's messages, carries out the commands the model's
// update returns, and renders the views of package components with the
// model's props. It decides nothing itself.
//
// Everything it holds, the model first, is changed only in go-app's
// engine work: action handlers, and the functions the backend's events
// and the commands' results are handed over with (ctx.Dispatch). Those
// run on go-app's engine goroutine, one at a time, in the order asked,
// never during a render (docs/architecture.md, "Ownership and
// concurrency"); nothing run there blocks. (JavaScript callbacks that only read the store,
// window.stepwise.view() and the replay's result, run while every
// goroutine is parked: Go in the browser is single-threaded and calls back
// into Go only when all its goroutines wait.)
type Controller struct {
	app.Compo

	cfg      Config
	settings components.Settings
	theme    string // the reader's theme (components.ThemeSystem...): prefs_ctl.go
	backend  backend.Backend
	page     *page.Model
	apps     *appHost // the MCP Apps on screen (mcphost*.go)

	ctx    app.Context               // the engine's, from OnMount
	list   persist.ConversationStore // the conversations list's store
	tab    persist.KeyValueStore     // the tab's storage of drafts; nil: none are kept
	embed  *embedBridge              // set when the app runs embedded in another page
	chunks dom.Chunks                // how the conversation's chunks are drawn
	paint  dom.RenderBudget          // how often a stream without bound is drawn
}

// Routes registers the app's pages; the browser main and the server (which
// prerenders them) both call it.
func Routes() {
	app.Route("/", func() app.Composer { return &Controller{} })
}

// OnInit prepares an empty conversation. In the browser it already reads
// the URL, so that the first render is in the page's language.
func (c *Controller) OnInit() {
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

// configure reads the configuration from the deployment and the URL
// (browserLang is used when the URL names no language), and makes the
// backend and the page's model.
func (c *Controller) configure(u *url.URL, browserLang string) {
	c.cfg = ConfigFromURL(DefaultConfig().WithEnv(app.Getenv), u)
	c.theme = cleanTheme(savedPref(prefThemeKey))
	c.settings = components.Settings{
		Locale:         speakable(pageLanguage(c.cfg.Lang, savedPref(prefLangKey), browserLang)),
		AgentName:      c.cfg.AgentName,
		FaviconService: c.cfg.FaviconService,
		Logo:           c.cfg.Logo,
	}
	if app.IsClient && c.cfg.SessionID == "" && c.cfg.hasSession() {
		c.cfg.SessionID = newSessionID()
		keepSessionInURL(c.cfg.SessionID) // F5 and shared links reopen it
	}
	c.backend = c.newBackend()
	c.page = page.New(page.Options{
		Settings:  c.settings,
		SessionID: c.cfg.SessionID,
		Traits:    c.backend.Traits(),
		Check:     c.backend.Check,
		Base:      u,
		Uploads:   state.UploadLimits{FileBytes: c.cfg.MaxUploadBytes, Files: c.cfg.MaxUploadFiles, MessageBytes: c.cfg.MaxMessageUploadBytes},
	})
}

// OnMount opens the backend and handles the views' actions. The page is
// marked ready (for tests) once everything is wired.
func (c *Controller) OnMount(ctx app.Context) {
	defer markReady()
	c.ctx = ctx
	ctx.Page().SetLang(c.settings.Locale.Lang())
	exposeView(c)
	c.embed = setupEmbed(ctx, c)
	// Made on first use so that starting does not wait for it, the
	// Markdown parser is made once the page is idle, a step per idle
	// moment, so that the first answer does not wait for it either; so
	// are the fonts (app/dom).
	dom.WhenIdleInTurn(components.MarkdownWarmUp())
	dom.WarmFonts()
	components.ListenCardShortcut()
	components.ListenSourcesHistory(ctx)
	c.chunks.Mount(ctx, func() []*state.Item { return c.page.Store().Items() }, c.page.Copied)

	c.handle(ctx, components.ActionSendMessage, func(a app.Action) page.Msg {
		text, _ := a.Value.(string)
		return page.Send{Text: text}
	})
	c.handle(ctx, components.ActionStop, func(app.Action) page.Msg { return page.Stop{} })
	c.handle(ctx, components.ActionAnswer, value[components.AnswerCommand])
	c.handle(ctx, components.ActionDecide, value[components.DecideCommand])
	c.handle(ctx, components.ActionSubmitForm, value[components.FormCommand])
	c.handle(ctx, components.ActionCardExpired, func(app.Action) page.Msg { return page.CardExpired{} })
	c.handle(ctx, components.ActionCopy, value[components.CopyCommand])
	c.handle(ctx, components.ActionToggleSources, func(a app.Action) page.Msg {
		if open, ok := a.Value.(bool); ok {
			return page.ToggleSources{Open: &open}
		}
		return page.ToggleSources{}
	})
	c.handle(ctx, components.ActionRetryMessage, func(a app.Action) page.Msg { id, _ := a.Value.(int); return page.RetryMessage{ID: id} })
	c.handle(ctx, components.ActionEditMessage, func(a app.Action) page.Msg { id, _ := a.Value.(int); return page.EditMessage{ID: id} })
	c.handle(ctx, components.ActionRemoveMessage, func(a app.Action) page.Msg { id, _ := a.Value.(int); return page.RemoveMessage{ID: id} })
	c.handle(ctx, components.ActionDismissNotice, func(app.Action) page.Msg { return page.DismissNotice{} })
	c.mountUserHalf(ctx)
	ctx.Handle(components.ActionSetLanguage, c.onSetLanguage)
	ctx.Handle(components.ActionSetTheme, c.onSetTheme)
	applyPrefs(c.settings.Locale.Lang(), c.settings.Locale.Dir(), c.theme)
	c.startApps(ctx)
	if c.backend.Traits().Listed {
		c.mountConversations(ctx)
		c.mountDrafts(ctx)
	}

	c.backend.Open(func(ev backend.Event) {
		dom.Dispatch(ctx, func(ctx app.Context) { c.deliver(ctx, ev) })
	})
	// What was typed into the prerendered page goes out once the backend
	// is open (it holds it until it is connected).
	c.update(ctx, takeBootInput())
}

// mountDrafts gives the page what the tab kept of what was typed and not
// sent in this conversation, and follows what is typed (the page needs
// no render for it).
func (c *Controller) mountDrafts(ctx app.Context) {
	if c.tab = persist.Tab(); c.tab == nil || c.cfg.SessionID == "" {
		c.tab = nil
		return
	}
	c.update(ctx, page.DraftLoaded{Draft: persist.LoadDraft(c.tab, c.cfg.SessionID)})
	ctx.Handle(components.ActionDraftChanged, func(ctx app.Context, a app.Action) {
		ctx.PreventUpdate()
		text, _ := a.Value.(string)
		c.update(ctx, page.DraftChanged{Text: text})
	})
	ctx.Handle(components.ActionFormDraft, func(ctx app.Context, a app.Action) {
		ctx.PreventUpdate()
		if v, ok := a.Value.(components.FormDraft); ok {
			c.update(ctx, v)
		}
	})
}

// handle hands an action to the page as the message msg makes of it (nil:
// none).
func (c *Controller) handle(ctx app.Context, action string, msg func(app.Action) page.Msg) {
	ctx.Handle(action, func(ctx app.Context, a app.Action) {
		if m := msg(a); m != nil {
			c.update(ctx, m)
		}
	})
}

// value is an action's value of type T as a message; nil when it is not.
func value[T any](a app.Action) page.Msg {
	v, ok := a.Value.(T)
	if !ok {
		return nil
	}
	return v
}

// OnAppUpdate shows the update prompt when a new version is deployed
// (go-app's service worker fetched it).
func (c *Controller) OnAppUpdate(ctx app.Context) {
	if ctx.AppUpdateAvailable() {
		c.update(ctx, page.AppUpdate{})
	}
}

// deliver hands a backend's event to the page, inside a dispatch; events
// the backend decides on as they are applied are asked for here.
func (c *Controller) deliver(ctx app.Context, ev backend.Event) {
	if of, ok := ev.(backend.Of); ok {
		for _, e := range of.Events(c.page.Store()) {
			c.update(ctx, e)
		}
		return
	}
	c.update(ctx, ev)
}

// update runs the page's update with msg and carries out the commands it
// returns, in order.
func (c *Controller) update(ctx app.Context, msg page.Msg) {
	before := len(c.page.Store().Items())
	cmds := c.page.Update(msg)
	if len(cmds) > 0 {
		// A command's result may update the page again, which reuses
		// the slice.
		cmds = append([]page.Cmd(nil), cmds...)
	}
	redrawn := false
	for _, cmd := range cmds {
		redrawn = c.run(ctx, cmd) || redrawn
	}
	if !redrawn {
		c.chunks.Grew(before, len(c.page.Store().Items()))
	}
}

// run carries out one command; it reports a Redraw.
func (c *Controller) run(ctx app.Context, cmd page.Cmd) (redrawn bool) {
	switch cmd := cmd.(type) {
	case backend.Command:
		if send, ok := cmd.(backend.Send); ok && c.apps != nil {
			send.AppContext = c.apps.modelContext() // what the MCP Apps told the model goes with the message
			cmd = send
		}
		if err := c.backend.Do(cmd, c.page.Store()); err != nil {
			c.update(ctx, page.Refused{Command: cmd, Err: err})
		}
	case page.ScrollToEnd:
		dom.ScrollToEnd(ctx)
	case page.Redraw:
		c.chunks.Replaced(ctx, len(c.page.Store().Items()))
		return true
	case page.PaceRender:
		c.paint.Pace(ctx)
	case page.Tell:
		if c.embed != nil {
			c.embed.observe(c.page.Store())
		}
	case page.After:
		if app.IsClient {
			dom.After(ctx, cmd.Delay, func(ctx app.Context) { c.update(ctx, cmd.Msg) })
		}
	case page.Clipboard:
		dom.WriteClipboard(cmd.Text, func(err error) {
			dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.Copied{ID: cmd.ID, Err: err}) })
		})
	case page.Navigate:
		navigate(cmd.Href)
	case page.ReleaseThumb:
		app.Window().Get("URL").Call("revokeObjectURL", cmd.URL)
	case page.Download:
		if app.IsClient {
			download(ctx, cmd.Name, cmd.MediaType, cmd.Text)
		}
	case page.KeepDraft:
		if c.tab != nil {
			persist.SaveDraft(c.tab, c.cfg.SessionID, cmd.Draft, time.Now()) // a refusing browser keeps nothing
		}
	default:
		c.runList(ctx, cmd)
	}
	return false
}

// Render draws the page's model with the views of package components.
func (c *Controller) Render() app.UI {
	c.chunks.AfterRender()
	props := c.page.Props()
	props.Scenarios = c.cfg.Scenarios
	props.Suggestions = c.cfg.Suggestions
	props.Accent = c.cfg.Accent
	props.Theme = c.theme
	props.Starting = !app.IsClient
	props.Resuming = c.cfg.SessionID != ""
	props.Frozen = c.chunks.Frozen()
	props.Waiting = c.chunks.Waiting()
	return components.Page(props)
}
