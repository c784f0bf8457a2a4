package components

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ConversationList is what the sidebar shows: the conversations this
// browser knows, newest first.
type ConversationList struct {
	Entries []ConversationEntry
	// Open is the drawer's state on narrow screens (wide ones always show
	// the list).
	Open bool
	// Refused: the browser refuses storage, the list lasts until the page
	// closes; the sidebar says so.
	Refused bool
	// Hidden: the page has no list (a replay).
	Hidden bool
}

// ConversationEntry is one conversation of the list.
type ConversationEntry struct {
	ID      string
	Title   string // "" for a conversation without a message yet
	Href    string // its address: ?session=ID
	Current bool   // the open one
}

// The ids the sidebar's focus management uses.
const (
	sidebarID      = "conversations"
	sidebarToggle  = "conversations-toggle"
	newConvID      = "new-conversation"
	renameInputID  = "rename-input"
	confirmNoID    = "delete-cancel"
	sidebarTitleID = "conversations-title"
	searchID       = "conversations-search"
	// searchFrom is how many conversations the list holds before it
	// offers a search field.
	searchFrom = 5
)

// Sidebar is the conversations list: a column on wide screens, a drawer on
// phones (opened from the header; Escape or the backdrop closes it, and
// focus goes in and comes back). Each conversation is a real link; rename
// edits in place, delete asks in place (no JavaScript dialog). What it
// keeps is view state only: which entry is being renamed or confirmed.
type Sidebar struct {
	app.Compo
	Settings Settings
	List     ConversationList
	Starting bool // the prerender: nothing works before the app runs

	query      string // what the search field holds: the list shows the titles with it
	editing    string // the id being renamed
	confirming string // the id whose delete waits for a yes
	wasOpen    bool
	tabTitle   string // the document's title, as last set
}

// OnMount names the tab after the conversation.
func (c *Sidebar) OnMount(ctx app.Context) { c.nameTab() }

// nameTab sets the tab's title to the open conversation's: "Title —
// Stepwise", or the agent's name alone while it has none.
func (c *Sidebar) nameTab() {
	if !app.IsClient || c.List.Hidden {
		return
	}
	title := c.Settings.agentName()
	for _, e := range c.List.Entries {
		if e.Current && e.Title != "" {
			title = e.Title + " — " + title
		}
	}
	if title != c.tabTitle {
		c.tabTitle = title
		app.Window().Get("document").Set("title", title)
	}
}

// OnUpdate names the tab, moves focus into the drawer as it opens, and
// back to its toggle as it closes (when focus was inside).
func (c *Sidebar) OnUpdate(ctx app.Context) {
	c.nameTab()
	if c.List.Open == c.wasOpen {
		return
	}
	c.wasOpen = c.List.Open
	open := c.List.Open
	ctx.Defer(func(ctx app.Context) {
		if open {
			focusID(newConvID)
			return
		}
		nav := app.Window().GetElementByID(sidebarID)
		active := app.Window().Get("document").Get("activeElement")
		if nav.Truthy() && active.Truthy() && nav.Call("contains", active).Bool() {
			focusID(sidebarToggle)
		}
	})
}

// focusIsOnOrNowhere reports whether element id has the focus, or no
// element has.
func focusIsOnOrNowhere(id string) bool {
	if !app.IsClient {
		return true
	}
	doc := app.Window().Get("document")
	active := doc.Get("activeElement")
	return !active.Truthy() || active.Equal(doc.Get("body")) || active.Get("id").String() == id
}

// focusID focuses element id once it is drawn: go-app draws a component's
// update on the next animation frame, after the handler's Defer.
func focusID(id string) { focusWhenDrawn(id, false, 10) }

func focusWhenDrawn(id string, selectText bool, tries int) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
		if selectText {
			el.Call("select")
		}
		return
	}
	if tries == 0 {
		return
	}
	var next app.Func
	next = app.FuncOf(func(this app.Value, args []app.Value) any {
		next.Release()
		focusWhenDrawn(id, selectText, tries-1)
		return nil
	})
	app.Window().Call("requestAnimationFrame", next)
}

// onKeyDown: Escape leaves a rename or a confirmation first, then closes
// the drawer.
func (c *Sidebar) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" {
		ctx.PreventUpdate()
		return
	}
	switch {
	case c.editing != "":
		id := c.editing
		c.editing = ""
		ctx.Defer(func(app.Context) { focusID("rename-" + id) })
	case c.confirming != "":
		id := c.confirming
		c.confirming = ""
		ctx.Defer(func(app.Context) { focusID("delete-" + id) })
	case c.List.Open:
		ctx.NewActionWithValue(ActionToggleConversations, false)
	default:
		ctx.PreventUpdate()
	}
}

func (c *Sidebar) Render() app.UI {
	s := c.Settings
	if c.List.Hidden {
		return app.Div().Class("sidebar-none")
	}
	cls := "sidebar"
	if c.List.Open {
		cls += " open"
	}
	// A search field once the list is long enough to need one.
	searching := len(c.List.Entries) > searchFrom || c.query != ""
	query := strings.ToLower(strings.TrimSpace(c.query))
	items := make([]app.UI, 0, len(c.List.Entries))
	for _, e := range c.List.Entries {
		if query == "" || strings.Contains(strings.ToLower(c.title(e)), query) {
			items = append(items, c.entry(e))
		}
	}
	var search, none app.UI
	if searching {
		label := s.T("conversations.search")
		search = elem("div", "sidebar-search",
			attrs(textElem("label", "sr-only", label), "for", searchID),
			voidElem("input", "type", "search", "id", searchID, "data-testid", "conversations-search",
				"placeholder", label, "value", c.query, "disabled", trueIf(c.Starting)).On("input", c.onSearch),
		)
	}
	if len(items) == 0 && query != "" {
		none = attrs(textElem("p", "sidebar-empty", s.T("conversations.no_match", strings.TrimSpace(c.query))),
			"role", "status", "data-testid", "conversations-none")
	}
	return app.Div().Class("sidebar-wrap").Body(
		app.Nav().ID(sidebarID).Class(cls).Aria("labelledby", sidebarTitleID).
			DataSet("testid", "conversations").OnKeyDown(c.onKeyDown).Body(
			app.Div().Class("sidebar-head").Body(
				app.H2().ID(sidebarTitleID).Text(s.T("conversations.title")),
				app.Button().Type("button").ID(newConvID).Class("new-conversation").DataSet("testid", "new-conversation").Disabled(c.Starting).
					OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionNewConversation) }).Body(
					icon("plus"), app.Span().Text(s.T("conversations.new")),
				),
			),
			app.If(c.List.Refused, func() app.UI {
				return app.P().Class("sidebar-note").Attr("role", "status").DataSet("testid", "storage-refused").
					Text(s.T("conversations.refused"))
			}),
			search, none,
			app.If(len(c.List.Entries) == 0, func() app.UI {
				return app.P().Class("sidebar-empty").Text(s.T("conversations.empty"))
			}),
			app.Ul().Class("conversation-list").Body(items...),
		),
		app.If(c.List.Open, func() app.UI {
			return app.Div().Class("sidebar-backdrop").Aria("hidden", true).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(ActionToggleConversations, false) })
		}),
	)
}

func (c *Sidebar) onSearch(ctx app.Context, e app.Event) {
	c.query = e.Get("target").Get("value").String()
}

func (c *Sidebar) title(e ConversationEntry) string {
	if e.Title == "" {
		return c.Settings.T("conversations.untitled")
	}
	return e.Title
}

func (c *Sidebar) entry(e ConversationEntry) app.UI {
	s := c.Settings
	title := c.title(e)
	cls := "conv-item"
	if e.Current {
		cls += " current"
	}
	var body app.UI
	switch e.ID {
	case c.editing:
		body = c.renameForm(e, title)
	case c.confirming:
		body = app.Div().Class("confirm-delete").Attr("role", "group").Aria("label", s.T("conversations.delete_q", title)).Body(
			app.Span().Class("confirm-text").Text(s.T("conversations.delete_q", title)),
			app.Div().Class("confirm-buttons").Body(
				app.Button().Type("button").Class("danger").DataSet("testid", "confirm-delete").
					OnClick(func(ctx app.Context, ev app.Event) {
						c.confirming = ""
						ctx.NewActionWithValue(ActionDeleteConversation, e.ID)
						ctx.Defer(func(app.Context) { focusID(newConvID) })
					}, app.EventScope("yes"+e.ID)).Text(s.T("conversations.delete")),
				&focusOnMount{ID: confirmNoID, Elem: app.Button().Type("button").ID(confirmNoID).DataSet("testid", "cancel-delete").
					OnClick(func(ctx app.Context, ev app.Event) {
						c.confirming = ""
						ctx.Defer(func(app.Context) { focusID("delete-" + e.ID) })
					}, app.EventScope("no"+e.ID)).Text(s.T("conversations.cancel"))},
			),
		)
	default:
		link := app.A().Class("conversation-link").Href(e.Href).DataSet("testid", "conversation-link").
			DataSet("session", e.ID).Title(title).
			// A full navigation: go-app would otherwise take the click
			// (its window handler) and swap pages in place.
			OnClick(func(ctx app.Context, ev app.Event) { ev.StopImmediatePropagation(); ctx.PreventUpdate() }, app.EventScope(e.ID)).
			Text(title)
		if e.Current {
			link = link.Aria("current", "page")
		}
		body = app.Div().Class("conversation-row").Body(
			link,
			app.Button().Type("button").ID("rename-"+e.ID).Class("icon-button").DataSet("testid", "rename-conversation").
				Aria("label", s.T("conversations.rename_named", title)).Title(s.T("conversations.rename")).
				OnClick(func(ctx app.Context, ev app.Event) {
					c.editing, c.confirming = e.ID, ""
				}, app.EventScope("rename"+e.ID)).Body(icon("pencil")),
			app.Button().Type("button").ID("delete-"+e.ID).Class("icon-button").DataSet("testid", "delete-conversation").
				Aria("label", s.T("conversations.delete_named", title)).Title(s.T("conversations.delete")).
				OnClick(func(ctx app.Context, ev app.Event) {
					c.confirming, c.editing = e.ID, ""
				}, app.EventScope("delete"+e.ID)).Body(icon("trash")),
		)
	}
	return app.Li().Class(cls).Body(body)
}

func (c *Sidebar) renameForm(e ConversationEntry, title string) app.UI {
	s := c.Settings
	value := e.Title
	return app.Form().Class("rename-form").OnSubmit(func(ctx app.Context, ev app.Event) {
		ev.PreventDefault()
		in := app.Window().GetElementByID(renameInputID)
		if in.Truthy() {
			ctx.NewActionWithValue(ActionRenameConversation, RenameCommand{ID: e.ID, Title: in.Get("value").String()})
		}
		c.editing = ""
		ctx.Defer(func(app.Context) { focusID("rename-" + e.ID) })
	}, app.EventScope("form"+e.ID)).Body(
		app.Label().For(renameInputID).Class("sr-only").Text(s.T("conversations.rename_named", title)),
		&focusOnMount{ID: renameInputID, Select: true, Elem: app.Input().Type("text").ID(renameInputID).DataSet("testid", "rename-input").Value(value).MaxLength(200)},
		app.Div().Class("confirm-buttons").Body(
			app.Button().Type("submit").Class("primary").DataSet("testid", "rename-save").Text(s.T("conversations.save")),
			app.Button().Type("button").OnClick(func(ctx app.Context, ev app.Event) {
				c.editing = ""
				ctx.Defer(func(app.Context) { focusID("rename-" + e.ID) })
			}, app.EventScope("cancel"+e.ID)).Text(s.T("conversations.cancel")),
		),
	)
}

// focusOnMount draws Elem and focuses it as it appears (a rename field, a
// confirmation's safe choice).
type focusOnMount struct {
	app.Compo
	ID     string
	Select bool
	Skip   bool // drawn without taking the focus
	Elem   app.UI
}

func (f *focusOnMount) OnMount(ctx app.Context) {
	if f.Skip {
		return
	}
	id, sel := f.ID, f.Select
	ctx.Defer(func(app.Context) { focusWhenDrawn(id, sel, 10) })
}

func (f *focusOnMount) Render() app.UI { return f.Elem }
