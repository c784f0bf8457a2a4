package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// ChunkSize is how many top-level items one ChunkView holds. A render of
// the conversation compares one revision per chunk, and only a changed
// chunk compares its items: a 2,000-item conversation does ~60 comparisons
// for a text delta, not 2,000.
const ChunkSize = 32

// PageProps are everything the page shows. The controller builds them from
// its model for each render.
type PageProps struct {
	Settings   Settings
	Items      []*state.Item // the store's top-level items
	Status     state.AgentStatus
	Sources    []state.SourceGroup
	Connection Connection
	Forms      Forms
	Draft      Draft
	// Attach: the files the composer takes, and those attached.
	Attach Attach

	// Notice is an alert above the conversation (a send that failed, a
	// replay that could not start); "" for none.
	Notice  string
	Offline bool // a live page lost its backend
	// NoNetwork: the browser says it is offline (else, when Offline, the
	// server does not answer).
	NoNetwork bool
	// Outgoing are the messages sent that the conversation does not show
	// yet (components/sending.go), oldest first.
	Outgoing []Outgoing
	// LastShown says that the conversation shown is what it last showed,
	// kept in the browser (the server cannot be reached), or that none was
	// kept; "" for none.
	LastShown       string
	UpdateAvailable bool
	SourcesOpen     bool
	SourcesWidth    int
	SourcesRev      uint64 // the store's SourcesRev: a group may grow in place
	// Plan is the conversation's newest plan (the header's Plan button),
	// nil when none.
	Plan *state.Plan

	// Announcement is what the polite status region says (the controller's
	// announcer: a run started, a form waits, a run ended, a copy).
	Announcement string
	// Copied is the copy button that just copied (its CopyCommand.ID).
	Copied string

	// Theme is the reader's choice of theme (ThemeSystem, ThemeLight,
	// ThemeDark) for the menu; the page's <html data-theme> applies it.
	Theme string
	// Accent is the deployment's accent colour (#rrggbb), "" for
	// Stepwise's: the shell gets the custom properties derived from it
	// (BrandColors).
	Accent string
	// Suggestions are the deployment's prompts for the empty state, in
	// place of the demo's scenarios; nil for none.
	Suggestions []string

	Conversations ConversationList // the sidebar
	// Scenarios are the demo scenarios the empty state suggests, in order
	// (ScenarioOrder); nil for the built-in list.
	Scenarios []string

	// Starting: this is the server's prerender, on screen until the app
	// runs. The controls that need the app are disabled; the composer
	// takes text (web/boot.js keeps it, and what is sent meanwhile, for the
	// app), and a quiet note says the app is starting.
	Starting bool
	// Resuming: the page opens a conversation that may have history, so
	// while it starts it does not invite the reader to start one.
	Resuming bool

	// Frozen are the chunks (by index) whose items the page shows as a
	// static copy of their DOM instead of views (app/dom/freeze.go). A chunk is
	// drawn frozen only while its items are still those of its mark: any
	// change draws it live again.
	Frozen map[int]ChunkMark
	// Waiting are the chunks (by index) not drawn yet: drawn empty, at an
	// estimated height, until the app draws them a few at a time
	// (app/dom/draw.go).
	Waiting map[int]bool
}

// ChunkMark names the items of a chunk as they were: the first one's key,
// how many, and the newest revision among them.
type ChunkMark struct {
	First, Len int
	Rev        uint64
}

// MarkOf is the mark of a chunk's items as they are now.
func MarkOf(items []*state.Item) ChunkMark {
	if len(items) == 0 {
		return ChunkMark{}
	}
	m := ChunkMark{First: items[0].Key, Len: len(items)}
	for _, it := range items {
		m.Rev = max(m.Rev, it.Rev)
	}
	return m
}

// Chunk returns the items of chunk i (ChunkSize top-level items each),
// nil past the end.
func Chunk(items []*state.Item, i int) []*state.Item {
	lo := i * ChunkSize
	if i < 0 || lo >= len(items) {
		return nil
	}
	hi := min(lo+ChunkSize, len(items))
	return items[lo:hi:hi]
}

// Page draws the page: header, conversation, sources panel and composer.
// Its controls raise actions; it keeps no state.
func Page(p PageProps) app.UI {
	s := p.Settings
	column := elem("main", "column")
	if p.Attach.On && !p.Starting {
		column = column.On("dragover", onDragFiles).On("drop", onDragFiles)
	}
	shell := app.Div().Class("shell").Attr("dir", s.Locale.Dir())
	if style := brandStyle(p.Accent); style != "" {
		shell = shell.Attr("style", style).DataSet("brand", "on")
	}
	return shell.Body(
		&Topbar{Settings: s, Connection: p.Connection, Theme: p.Theme,
			ShowConversations: !p.Conversations.Hidden, ConversationsOpen: p.Conversations.Open,
			Plan: p.Plan, SourcesOpen: p.SourcesOpen, SourceCount: SourceCount(p.Sources), Starting: p.Starting,
			Export: s.Offers.Export && len(p.Items) > 0 && !p.Starting},
		app.Div().Class("main").Body(
			&Sidebar{Settings: s, List: p.Conversations, Starting: p.Starting},
			column.Body(
				alerts(p),
				announcer(p.Announcement),
				app.Section().ID("conversation").Class("conversation").
					Attr("role", "log").Aria("live", "off").Aria("label", s.T("composer.label")).
					DataSet("testid", "conversation").DataSet("agent-status", string(p.Status)).
					Body(conversation(p)...),
				app.If(s.Offers.Jump && !p.Starting, func() app.UI { return jumpToLatest(s) }),
				app.If(p.Starting, func() app.UI { return startingNote(s) }),
				&Composer{Settings: s, Running: p.Status == state.StatusRunning, Draft: p.Draft, Starting: p.Starting, Attach: p.Attach},
			),
			app.If(p.SourcesOpen, func() app.UI {
				return &SourcesPanel{Settings: s, Groups: p.Sources, Width: p.SourcesWidth, Rev: p.SourcesRev}
			}),
		),
	)
}

// alerts are the banners above the conversation. Their container is
// always there, so that one appearing does not shift the column's children:
// go-app diffs children by position, and would rebuild the conversation and
// the composer (losing what is typed) that follow.
func alerts(p PageProps) app.UI {
	s := p.Settings
	return app.Div().Class("alerts").Body(
		app.If(p.UpdateAvailable, func() app.UI {
			return app.Div().Class("banner update").Attr("role", "status").DataSet("testid", "update").Body(
				app.Span().Text(s.T("update.available")),
				app.Button().Class("primary").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }).Text(s.T("update.reload")),
			)
		}),
		app.If(p.Offline, func() app.UI { return offlineBanner(s, p.NoNetwork) }),
		app.If(p.LastShown != "", func() app.UI {
			return app.Div().Class("banner last-shown").Attr("role", "status").DataSet("testid", "last-shown").Text(p.LastShown)
		}),
		app.If(p.Notice != "", func() app.UI { return noticeBanner(s, p.Notice) }),
	)
}

// Topbar is the page's header: the conversations toggle, the agent's mark
// and name, the connection, the plan and the sources button. It is a
// component so that a render of the page that changes none of its props
// (each frame of a stream) neither builds nor diffs it again.
type Topbar struct {
	app.Compo
	Settings   Settings
	Connection Connection
	// Conversations is the drawer's toggle: shown unless the page has no
	// list, expanded while the drawer is open.
	ShowConversations, ConversationsOpen bool
	Plan                                 *state.Plan
	SourcesOpen                          bool
	SourceCount                          int // sources, not searches (SourceCount)
	// Starting: the server's prerender (PageProps.Starting).
	Starting bool
	Export   bool   // offer the conversation's export
	Theme    string // PageProps.Theme
}

func (b *Topbar) Render() app.UI {
	s := b.Settings
	conn := string(b.Connection)
	var export app.UI
	if b.Export {
		export = exportMenu(s)
	} else {
		exportOpen = false
	}
	return app.Header().Class("topbar").Body(
		app.If(b.ShowConversations, func() app.UI {
			return app.Button().Type("button").ID(sidebarToggle).Class("icon-button conversations-toggle").
				DataSet("testid", "conversations-toggle").Aria("label", s.T("conversations.toggle")).
				Aria("expanded", b.ConversationsOpen).Aria("controls", sidebarID).
				Disabled(b.Starting).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionToggleConversations) }).Body(icon("menu"))
		}),
		logo(s, "topbar-logo", 28),
		app.Div().Class("topbar-name").Body(
			app.H1().Class("name").Text(s.agentName()),
			app.Span().Class("tagline").Text(s.T("app.tagline")),
		),
		app.Span().Class("connection conn-"+conn).DataSet("testid", "connection").DataSet("state", conn).Body(
			app.Span().Class("conn-dot").Aria("hidden", true),
			app.Span().Class("conn-label").Text(s.T(connectionKeys[b.Connection])),
		),
		&PlanControl{Settings: s, Plan: b.Plan, Disabled: b.Starting},
		export,
		// No sources, no button (unless the panel is open: its button
		// closes it and takes the focus back).
		app.If(b.SourceCount > 0 || b.SourcesOpen, func() app.UI {
			return app.Button().Type("button").ID(sourcesToggleID).Class("sources-button").DataSet("testid", "sources-button").
				Aria("expanded", b.SourcesOpen).Aria("controls", "sources-panel").Disabled(b.Starting).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionToggleSources) }).Body(
				app.Span().Text(s.T("sources.button")),
				app.Span().Class("badge").Text(strconv.Itoa(b.SourceCount)),
			)
		}),
		&PrefsMenu{Settings: s, Theme: b.Theme, Disabled: b.Starting},
	)
}

// conversation renders the items in chunks, or the empty state.
func conversation(p PageProps) []app.UI {
	items := p.Items
	if len(items) == 0 && len(p.Outgoing) == 0 {
		if p.Starting && p.Resuming {
			return nil
		}
		return []app.UI{emptyState(p.Settings, p.Scenarios, p.Suggestions, p.Starting)}
	}
	chunks := make([]app.UI, 0, len(items)/ChunkSize+2)
	for i := 0; i*ChunkSize < len(items); i++ {
		part := Chunk(items, i)
		mark := MarkOf(part)
		if p.Waiting[i] {
			chunks = append(chunks, &ChunkView{Rev: mark.Rev, Len: len(part), Waiting: true})
			continue
		}
		if m, ok := p.Frozen[i]; ok && m == mark {
			chunks = append(chunks, &ChunkView{Rev: mark.Rev, Len: len(part), Frozen: true})
			continue
		}
		var forms Forms
		busy := false
		for _, it := range part {
			busy = busy || it.Message != nil && p.Status == state.StatusRunning
			for k, v := range p.Forms.of(it) {
				if forms == nil {
					forms = Forms{}
				}
				forms[k] = v
			}
		}
		chunks = append(chunks, &ChunkView{Items: part, Rev: mark.Rev, Len: len(part), Settings: p.Settings, Forms: forms, Copied: CopiedIn(p.Copied, part), Busy: busy})
	}
	// The chunks have a box of their own (display: contents) so that the
	// anchor after them stays one element: go-app diffs children by
	// position, and as the anchor's position took a new chunk it replaced
	// the anchor, and the browser lost the scroll anchor it had chosen
	// (the reader at the end stayed where the new chunk began).
	return []app.UI{
		app.Div().Class("chunks").Body(chunks...),
		outbox(p.Settings, p.Outgoing),
		app.Div().Class("scroll-anchor").Aria("hidden", true),
	}
}

// ChunkView renders a run of top-level items; it re-renders only when one
// of them changed (Rev is the newest revision among them), or the
// settings, or the state of one of its forms.
type ChunkView struct {
	app.Compo
	Items    []*state.Item
	Rev      uint64
	Len      int
	Settings Settings
	Forms    Forms
	Copied   string // the copy button of one of its items that just copied
	// Busy: a run is going and the chunk holds messages (their actions
	// wait: ItemView.Busy).
	Busy bool
	// Frozen: the chunk is drawn empty, and the app puts a static copy of
	// its items' DOM in it (app/dom/freeze.go).
	Frozen bool
	// Waiting: the chunk is drawn empty until the app draws its items.
	Waiting bool
}

func (c *ChunkView) Render() app.UI {
	if c.Frozen {
		return app.Div().Class("chunk").DataSet("frozen", true)
	}
	if c.Waiting {
		return app.Div().Class("chunk").DataSet("waiting", true)
	}
	views := make([]app.UI, len(c.Items))
	for i, it := range c.Items {
		views[i] = &ItemView{Item: it, Rev: it.Rev, Settings: c.Settings, Forms: c.Forms.of(it), Copied: CopiedIn(c.Copied, c.Items[i:i+1]),
			Busy: c.Busy && it.Message != nil}
	}
	return app.Div().Class("chunk").Body(views...)
}

// emptyState invites the reader to start: the deployment's suggestions,
// else the demo's scenarios.
func emptyState(s Settings, scenarios, suggestions []string, starting bool) app.UI {
	hint, buttons := s.T("empty.hint"), []app.UI(nil)
	if len(suggestions) > 0 {
		hint, buttons = s.T("empty.hint_suggestions"), suggestionButtons(suggestions, starting)
	} else {
		buttons = scenarioButtons(ScenarioOrder(scenarios), starting)
	}
	return app.Div().Class("empty").Body(
		logo(s, "empty-logo", 56),
		app.H2().Text(s.T("empty.title")),
		app.P().Text(hint),
		app.Ul().Class("suggestions").Body(buttons...),
	)
}

// startingNote says, quietly, that the app is starting. web/boot.js puts
// the words of data-queued in its place once a message waits to be sent.
func startingNote(s Settings) app.UI {
	return app.P().Class("starting-note").DataSet("testid", "starting").
		DataSet("queued", s.T("boot.queued")).Text(s.T("boot.starting"))
}
