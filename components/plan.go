package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// The agent's plan (a write_todos call's todo list, state/plan.go) shows in
// two places: each call's step is a checklist of its own input, and the
// header has a "Plan 2/5" button opening the newest plan.

const (
	planButtonID  = "plan-button"
	planPopoverID = "plan-popover"
	planTitleID   = "plan-popover-title"
)

// todoStatusKeys say each todo status in words: the checklist's state is
// read out, and shown by an icon and the text's style, never by colour
// alone.
var todoStatusKeys = map[state.TodoStatus]string{
	state.TodoPending:    "plan.status.pending",
	state.TodoInProgress: "plan.status.in_progress",
	state.TodoCompleted:  "plan.status.completed",
}

// planChecklist is a plan as a list: each entry with its state's icon, its
// words, and its state for screen readers.
func planChecklist(p state.Plan, s Settings) app.UI {
	if len(p.Todos) == 0 {
		return app.P().Class("plan-empty").Text(s.T("plan.empty"))
	}
	items := make([]app.UI, len(p.Todos))
	for i, t := range p.Todos {
		items[i] = app.Li().Class("plan-todo todo-"+string(t.Status)).
			DataSet("testid", "plan-todo").DataSet("status", string(t.Status)).Body(
			todoIcon(t.Status),
			app.Span().Class("todo-text").Text(t.Content),
			app.Span().Class("sr-only").Text(", "+s.T(todoStatusKeys[t.Status])),
		)
	}
	// role="list": a list styled without bullets loses its list semantics
	// in some browsers (Safari).
	return app.Ul().Class("plan-list").Attr("role", "list").DataSet("testid", "plan-list").Body(items...)
}

// todoIcon draws a status by shape: an empty ring (pending), a half-filled
// ring (in progress), a filled disc with a tick (completed).
func todoIcon(st state.TodoStatus) app.UI {
	ring := svg("circle").Attr("cx", "12").Attr("cy", "12").Attr("r", "8.5").
		Attr("fill", "none").Attr("stroke", "currentColor").Attr("stroke-width", "2")
	var inner app.UI
	switch st {
	case state.TodoInProgress:
		inner = svg("path").Attr("d", "M12 6.5a5.5 5.5 0 0 1 0 11z").Attr("fill", "currentColor")
	case state.TodoCompleted:
		ring = svg("circle").Attr("cx", "12").Attr("cy", "12").Attr("r", "9.5").Attr("fill", "currentColor")
		inner = svg("path").Attr("d", "M7.5 12.5l3 3 6-6.5").Attr("fill", "none").Attr("class", "todo-tick").
			Attr("stroke-width", "2.2").Attr("stroke-linecap", "round").Attr("stroke-linejoin", "round")
	}
	return svg("svg").Class("todo-icon").Attr("viewBox", "0 0 24 24").Attr("width", "18").Attr("height", "18").
		Attr("aria-hidden", "true").Attr("focusable", "false").Body(ring, inner)
}

// planCount is "2/5" on screen and "2 of 5 done" for screen readers.
func planCount(p state.Plan, s Settings, class string) app.UI {
	done, total := p.Done(), len(p.Todos)
	return app.Span().Class(class).Body(
		app.Span().Aria("hidden", true).Text(strconv.Itoa(done)+"/"+strconv.Itoa(total)),
		app.Span().Class("sr-only").Text(s.N("plan.progress", done, total)),
	)
}

// planLabel is a planning step's label: the backend's own, else "Plan".
func planLabel(t *state.Tool, s Settings) string {
	if t.Label == "" || t.Label == state.ReadableName(t.Name) {
		return s.T("plan.title")
	}
	return t.Label
}

// planStep draws a write_todos call: its row (which opens the request and
// response, as any tool's) and, always shown, the checklist of its own
// input.
func (v *ToolView) planStep(p state.Plan, id string) app.UI {
	t := v.Item.Tool
	s := v.Settings
	return app.Div().Class("plan-step").DataSet("testid", "plan-step").Body(
		v.d.button("tool-row", id,
			toolDot(t),
			app.Span().Class("tool-label").Text(planLabel(t, s)),
			app.If(len(p.Todos) > 0, func() app.UI { return planCount(p, s, "plan-count") }),
			app.Span().Class("sr-only").Text(", "+s.T(toolStatusKey(t))),
		),
		planChecklist(p, s),
		app.If(v.d.open, func() app.UI { return v.details(id) }),
	)
}

// PlanControl is the header's view of the newest plan: a button with its
// progress ("Plan 2/5") that opens the checklist under it. It stays after
// the run ends, for as long as the conversation has a plan. Escape, or
// focus leaving it (a click elsewhere, Tab past the list), closes it; the
// button keeps the focus, so Enter opens and closes it too.
type PlanControl struct {
	app.Compo
	Settings Settings
	Plan     *state.Plan // the newest plan; nil when there is none
	Disabled bool        // the prerender: nothing works before the app runs

	open bool
}

func (c *PlanControl) Render() app.UI {
	if c.Plan == nil || len(c.Plan.Todos) == 0 {
		c.open = false
		// Always an element here: the header's children keep their places.
		return app.Span().Class("plan-none")
	}
	s := c.Settings
	p := *c.Plan
	return app.Div().Class("plan-control").DataSet("testid", "plan").
		OnKeyDown(c.onKeyDown).On("focusout", c.onFocusOut).Body(
		app.Button().Type("button").ID(planButtonID).Class("plan-button").DataSet("testid", "plan-button").
			Aria("expanded", c.open).Aria("controls", planPopoverID).Disabled(c.Disabled).
			OnClick(c.toggle).Body(
			icon("list"),
			app.Span().Class("plan-button-label").Text(s.T("plan.title")),
			planCount(p, s, "plan-button-count"),
		),
		app.If(c.open, func() app.UI {
			// Focusable (tabindex 0): a long plan scrolls, and Tab from the
			// button reads on into it.
			return app.Div().ID(planPopoverID).Class("plan-popover").DataSet("testid", "plan-popover").
				Attr("role", "group").Aria("labelledby", planTitleID).Attr("tabindex", "0").Body(
				app.Div().Class("plan-popover-head").Body(
					app.H2().ID(planTitleID).Text(s.T("plan.title")),
					app.Span().Class("plan-popover-progress").Text(s.N("plan.progress", p.Done(), len(p.Todos))),
				),
				planChecklist(p, s),
			)
		}),
	)
}

func (c *PlanControl) toggle(ctx app.Context, e app.Event) { c.open = !c.open }

// onKeyDown: Escape closes the plan and gives the focus back to its button.
func (c *PlanControl) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" || !c.open {
		ctx.PreventUpdate()
		return
	}
	c.open = false
	ctx.Defer(func(app.Context) { focusID(planButtonID) })
}

// onFocusOut closes the plan when the focus goes outside it.
func (c *PlanControl) onFocusOut(ctx app.Context, e app.Event) {
	next := e.Get("relatedTarget")
	if !c.open || (next.Truthy() && ctx.JSSrc().Call("contains", next).Bool()) {
		ctx.PreventUpdate()
		return
	}
	c.open = false
}
