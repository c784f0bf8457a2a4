package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Sources panel width bounds (PROTOCOL.md section 7).
const (
	MinSourcesWidth = 320
	MaxSourcesWidth = 600
)

// SourcesPanel is the drawer of web search sources, grouped by query and
// resizable by dragging its edge or with the arrow keys on it.
type SourcesPanel struct {
	app.Compo
	Settings Settings
	Groups   []state.SourceGroup
	Count    int
	Width    int
	Rev      uint64 // the store's SourcesRev: groups also grow in place

	width    int
	dragging bool
	startX   float64
	startW   int
}

func (p *SourcesPanel) OnMount(ctx app.Context) { p.width = clampWidth(p.Width) }

func clampWidth(w int) int { return min(max(w, MinSourcesWidth), MaxSourcesWidth) }

func (p *SourcesPanel) Render() app.UI {
	if p.width == 0 {
		p.width = clampWidth(p.Width)
	}
	groups := make([]app.UI, 0, len(p.Groups))
	for _, g := range p.Groups {
		groups = append(groups, app.Section().Class("sources-group").DataSet("testid", "sources-group").Body(
			app.H3().Class("sources-query").Text(sourceGroupTitle(g, p.Settings)),
			sourceList(g.Sources),
		))
	}
	if len(groups) == 0 {
		groups = append(groups, app.P().Class("sources-empty").Text(p.Settings.T("sources.empty")))
	}
	return app.Aside().ID("sources-panel").Class("sources-panel").DataSet("testid", "sources-panel").
		Aria("label", p.Settings.T("sources.title")).Style("width", strconv.Itoa(p.width)+"px").Body(
		app.Div().Class("resize-handle").Attr("role", "separator").Attr("tabindex", "0").
			Aria("orientation", "vertical").Aria("label", p.Settings.T("sources.resize")).
			Aria("valuemin", MinSourcesWidth).Aria("valuemax", MaxSourcesWidth).Aria("valuenow", p.width).
			On("pointerdown", p.dragStart).On("pointermove", p.dragMove).On("pointerup", p.dragEnd).
			OnKeyDown(p.key),
		app.Div().Class("sources-head").Body(
			app.H2().Text(p.Settings.T("sources.title")),
		),
		app.Div().Class("sources-body").Body(groups...),
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
