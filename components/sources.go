package components

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Sources panel width bounds (PROTOCOL.md section 7).
const (
	MinSourcesWidth = 320
	MaxSourcesWidth = 600
)

// SourcesPanel is the drawer of web search sources, grouped by query and
// resizable by dragging its edge or with the arrow keys on it. It closes as
// the conversations drawer does: its close button, Escape, the backdrop on
// a phone, and there the back button too; the focus goes into it as it
// opens and back to its button as it closes.
type SourcesPanel struct {
	app.Compo
	Settings Settings
	Groups   []state.SourceGroup
	Width    int
	Rev      uint64 // the store's SourcesRev: groups also grow in place

	width    int
	dragging bool
	startX   float64
	startW   int
}

// The ids of the panel's focus management.
const (
	sourcesToggleID = "sources-button"
	sourcesCloseID  = "sources-close"
)

func (p *SourcesPanel) OnMount(ctx app.Context) {
	p.width = clampWidth(p.Width)
	if !app.IsClient {
		return
	}
	ctx.Defer(func(app.Context) { focusID(sourcesCloseID) })
	// Over the conversation on a phone, the panel is a page of its own to
	// the person: the back button should close it, not leave.
	if !sourcesEntry && app.Window().Call("matchMedia", phoneWidth).Get("matches").Bool() {
		app.Window().Get("history").Call("pushState", map[string]any{sourcesState: true}, "")
		sourcesEntry = true
	}
}

// OnDismount gives the focus back to the panel's button when it was in the
// panel (now gone, it left the focus on the body), and takes the history
// entry the panel added off when the panel closed by other means.
func (p *SourcesPanel) OnDismount() {
	if !app.IsClient {
		return
	}
	doc := app.Window().Get("document")
	if active := doc.Get("activeElement"); !active.Truthy() || active.Equal(doc.Get("body")) {
		focusID(sourcesToggleID)
	}
	if sourcesEntry {
		sourcesEntry, leavingSourcesEntry = false, true
		app.Window().Get("history").Call("back")
	}
}

// phoneWidth is where the panel covers the conversation (web/stepwise.css).
const phoneWidth = "(max-width: 720px)"

// sourcesState marks the history entry the panel adds on a phone.
const sourcesState = "stepwiseSources"

var (
	// sourcesEntry: the page is on the history entry the panel added.
	sourcesEntry bool
	// leavingSourcesEntry: the panel closed and went back from its entry;
	// the popstate that follows is the panel's own.
	leavingSourcesEntry bool
)

// ListenSourcesHistory lets the back and forward buttons close and open
// the sources panel on its history entry (once, as the app starts). The
// entry has the page's address, so the navigations between it and the one
// before are the panel's alone: go-app, which would load its page again
// for an address it did not see (the page rewrites its address with the
// session's id), never sees them.
func ListenSourcesHistory(ctx app.Context) {
	if !app.IsClient {
		return
	}
	win := app.Window()
	if st := win.Get("history").Get("state"); st.Truthy() && st.Get(sourcesState).Truthy() {
		sourcesEntry = true // a reload on the entry
	}
	goapp := win.Get("onpopstate")
	win.Set("onpopstate", app.FuncOf(func(this app.Value, args []app.Value) any {
		st := args[0].Get("state")
		switch {
		case st.Truthy() && st.Get(sourcesState).Truthy():
			sourcesEntry, leavingSourcesEntry = true, false
			ctx.Dispatch(func(ctx app.Context) { ctx.NewActionWithValue(ActionToggleSources, true) })
		case leavingSourcesEntry:
			leavingSourcesEntry = false
		case sourcesEntry:
			sourcesEntry = false
			ctx.Dispatch(func(ctx app.Context) { ctx.NewActionWithValue(ActionToggleSources, false) })
		case goapp.Truthy():
			goapp.Invoke(args[0])
		}
		return nil
	}))
}

func closeSources(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(ActionToggleSources, false)
}

// onKeyDown: Escape closes the panel.
func (p *SourcesPanel) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" {
		ctx.PreventUpdate()
		return
	}
	closeSources(ctx, e)
}

func clampWidth(w int) int { return min(max(w, MinSourcesWidth), MaxSourcesWidth) }

func (p *SourcesPanel) Render() app.UI {
	if p.width == 0 {
		p.width = clampWidth(p.Width)
	}
	groups := make([]app.UI, 0, len(p.Groups))
	for _, g := range p.Groups {
		groups = append(groups, app.Section().Class("sources-group").DataSet("testid", "sources-group").Body(
			app.H3().Class("sources-query").Text(sourceGroupTitle(g, p.Settings)),
			sourceList(g.Sources, p.Settings),
		))
	}
	if len(groups) == 0 {
		groups = append(groups, app.P().Class("sources-empty").Text(p.Settings.T("sources.empty")))
	}
	panel := app.Aside().ID("sources-panel").Class("sources-panel").DataSet("testid", "sources-panel").
		Aria("label", p.Settings.T("sources.title")).Style("width", strconv.Itoa(p.width)+"px").
		OnKeyDown(p.onKeyDown).Body(
		app.Div().Class("resize-handle").Attr("role", "separator").Attr("tabindex", "0").
			Aria("orientation", "vertical").Aria("label", p.Settings.T("sources.resize")).
			Aria("valuemin", MinSourcesWidth).Aria("valuemax", MaxSourcesWidth).Aria("valuenow", p.width).
			On("pointerdown", p.dragStart).On("pointermove", p.dragMove).On("pointerup", p.dragEnd).
			OnKeyDown(p.key),
		app.Div().Class("sources-head").Body(
			app.H2().Text(p.Settings.T("sources.title")),
			app.Button().Type("button").ID(sourcesCloseID).Class("icon-button").DataSet("testid", "sources-close").
				Aria("label", p.Settings.T("sources.close")).Title(p.Settings.T("sources.close")).
				OnClick(closeSources).Body(icon("close")),
		),
		app.Div().Class("sources-body").Body(groups...),
	)
	// The backdrop shows on a phone only (web/stepwise.css).
	return app.Div().Class("sources-wrap").Body(
		panel,
		app.Div().Class("sources-backdrop").Aria("hidden", true).DataSet("testid", "sources-backdrop").OnClick(closeSources),
	)
}

func (p *SourcesPanel) dragStart(ctx app.Context, e app.Event) {
	p.dragging, p.startX, p.startW = true, e.Get("clientX").Float(), p.width
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
}

func (p *SourcesPanel) dragMove(ctx app.Context, e app.Event) {
	if !p.dragging {
		ctx.PreventUpdate()
		return
	}
	// The panel sits on the right: dragging its left edge left widens it.
	p.width = clampWidth(p.startW + int(p.startX-e.Get("clientX").Float()))
}

func (p *SourcesPanel) dragEnd(ctx app.Context, e app.Event) { p.dragging = false }

func (p *SourcesPanel) key(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "ArrowLeft":
		p.width = clampWidth(p.width + 20)
	case "ArrowRight":
		p.width = clampWidth(p.width - 20)
	case "Home":
		p.width = MinSourcesWidth
	case "End":
		p.width = MaxSourcesWidth
	default:
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
}

// SourceCount is how many sources the panel lists (the header's badge):
// every result of every search, not the searches.
func SourceCount(groups []state.SourceGroup) int {
	n := 0
	for _, g := range groups {
		n += len(g.Sources)
	}
	return n
}

// relativeAge reads a search result's English page_age ("2 days ago", "an
// hour ago").
var relativeAge = regexp.MustCompile(`^(\d+|an?|one) (minute|hour|day|week|month|year)s? ago$`)

// ageKeys are the words of a relative page age, by unit.
var ageKeys = map[string]string{
	"minute": "age.minutes",
	"hour":   "age.hours",
	"day":    "age.days",
	"week":   "age.weeks",
	"month":  "age.months",
	"year":   "age.years",
}

// pageAge is a search result's page_age in the UI's language: a relative
// age or a date as Anthropic's web search writes them, anything else as it
// came.
func pageAge(age string, s Settings) string {
	age = strings.TrimSpace(age)
	if m := relativeAge.FindStringSubmatch(strings.ToLower(age)); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = 1 // "a", "an", "one"
		}
		return s.N(ageKeys[m[2]], n)
	}
	if s.Locale.Lang() == "en" {
		return age // its dates are English already
	}
	for _, layout := range []string{"January 2, 2006", "Jan 2, 2006", "2006-01-02"} {
		if d, err := time.Parse(layout, age); err == nil {
			return s.T("age.date", d.Day(), int(d.Month()), d.Year())
		}
	}
	return age
}
