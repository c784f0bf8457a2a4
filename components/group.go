package components

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// CollapseDelay is how long a finished group stays open before it
// collapses by itself.
const CollapseDelay = 300 * time.Millisecond

// GroupView is a collapsible group of steps (PROTOCOL.md section 3):
// running, it is expanded and shows the newest three steps; 300 ms after it
// finishes it collapses; loaded finished, it starts collapsed; its header
// toggles it at any time.
type GroupView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Forms    Forms // of its steps

	key         int
	expanded    bool
	sawRunning  bool // this view saw the group run, so it collapses itself
	collapseSet bool // the collapse is scheduled or done
	userToggled bool // the user chose; no automatic change after that
}

// sync brings the view's own state in line with the group's.
func (v *GroupView) sync() {
	g := v.Item.Group
	if v.key != v.Item.Key {
		v.key, v.expanded = v.Item.Key, g.Open
		v.sawRunning, v.collapseSet, v.userToggled = false, false, false
	}
	if g.Open {
		v.sawRunning = true
		v.collapseSet = false
		if !v.userToggled {
			v.expanded = true
		}
	}
}

// No OnMount: a group mounts open or never seen running, so there is no
// collapse to schedule then, and go-app dispatches each OnMount through a
// queue of 4,096 from inside the render: a history of more groups than
// that, mounted in one render, filled it and deadlocked the page.
func (v *GroupView) OnUpdate(ctx app.Context) { v.sync(); v.scheduleCollapse(ctx) }

func (v *GroupView) scheduleCollapse(ctx app.Context) {
	if v.Item.Group.Open || !v.sawRunning || v.collapseSet || v.userToggled {
		return
	}
	v.collapseSet = true
	key := v.key
	ctx.After(CollapseDelay, func(ctx app.Context) {
		if v.key == key && !v.userToggled && !v.Item.Group.Open {
			v.expanded = false
		}
	})
}

func (v *GroupView) toggle(ctx app.Context, e app.Event) {
	v.expanded = !v.expanded
	v.userToggled = true
}

func (v *GroupView) Render() app.UI {
	v.sync()
	g := v.Item.Group
	running := g.Open
	stateName := "done"
	if running {
		stateName = "running"
	}
	title := g.Title()
	if sub := g.Subagent; sub != nil {
		// A sub-agent's work: its name says whose it is.
		title = v.Settings.T("group.subagent")
		if sub.Name != "" {
			title = v.Settings.T("group.subagent_named", state.ReadableName(sub.Name))
		}
	}
	if title == "" {
		title = v.Settings.T("group.working")
		if !running && onlyThinking(g.Steps) {
			// Nothing but reasoning: say so rather than "Working…".
			title = v.Settings.T("group.reasoning")
		}
	}
	bodyID := domID("group", v.Item)

	var steps []app.UI
	if v.expanded {
		first := 0
		if running {
			first = len(g.Steps) - g.Visible()
		}
		// Running, every step is in the DOM and the older ones are hidden, so
		// a new step is a new node that slides in.
		for i, st := range g.Steps {
			cls := "step"
			if i < first {
				cls += " step-hidden"
			}
			// A tool, most steps, is its own step: a wrapper would be one more
			// element and attribute to mount, each a few calls into JS.
			if st.Kind == state.KindTool {
				steps = append(steps, &ToolView{Item: st, Rev: st.Rev, Settings: v.Settings, Step: cls})
				continue
			}
			steps = append(steps, app.Div().Class(cls).Body(itemBody(st, v.Settings, v.Forms)))
		}
	}
	// The apps of its tools (mcpapp.go) stay in view when it collapses:
	// before the body in the DOM, so that opening it never moves (and so
	// reloads) their frames, and after it on screen (CSS order).
	apps := appsOf(g.Steps, v.Settings)
	cls := "item group " + stateName
	var appsBox app.UI
	if len(apps) > 0 {
		cls += " has-apps"
		appsBox = app.Div().Class("group-apps").Body(apps...)
	}
	root := app.Div().Class(cls).DataSet("kind", "group").DataSet("state", stateName)
	if g.Subagent != nil {
		root = root.DataSet("subagent", g.Subagent.Name)
	}
	return root.Body(
		app.Button().Class("group-header").Aria("expanded", v.expanded).Aria("controls", bodyID).
			OnClick(v.toggle).Body(
			app.If(running, func() app.UI {
				return app.Span().Class("spinner") // empty: nothing for screen readers
			}),
			app.Span().Class("group-title").Text(title),
			app.If(!running, func() app.UI { return groupOutcome(g, v.Settings) }),
			app.Span().Class("chevron"), // empty, as the spinner
		),
		appsBox,
		app.If(v.expanded, func() app.UI {
			return app.Div().ID(bodyID).Class("group-body").Body(
				app.If(g.Subagent != nil && g.Subagent.Description != "", func() app.UI {
					return app.P().Class("thinking-body").Text(g.Subagent.Description)
				}),
				app.Div().Class("steps").Body(steps...),
				app.If(!running, func() app.UI {
					return app.Div().Class("group-done").DataSet("testid", "group-done").Text(v.Settings.T("group.done"))
				}),
			)
		}),
	)
}

// onlyThinking reports steps that are all reasoning (at least one).
func onlyThinking(steps []*state.Item) bool {
	for _, st := range steps {
		if st.Kind != state.KindThinking {
			return false
		}
	}
	return len(steps) > 0
}

// groupOutcome says, in a finished group's header, what did not go as
// planned: steps that failed, were cancelled, or whose approval was
// rejected (a collapsed group hides its steps). nil when all went well.
func groupOutcome(g *state.Group, s Settings) app.UI {
	var failed, cancelled, rejected int
	for _, st := range g.Steps {
		if st.Kind != state.KindTool || st.Tool.Status != state.ToolError {
			continue
		}
		switch toolOutcome(st.Tool) {
		case "cancelled":
			cancelled++
		case "rejected":
			rejected++
		default:
			failed++
		}
	}
	if failed+cancelled+rejected == 0 {
		return nil
	}
	parts := make([]app.UI, 0, 3)
	if failed > 0 {
		parts = append(parts, app.Span().Class("outcome outcome-failed").Text(s.N("group.failed", failed)))
	}
	if cancelled > 0 {
		parts = append(parts, app.Span().Class("outcome outcome-cancelled").Text(s.N("group.cancelled", cancelled)))
	}
	if rejected > 0 {
		parts = append(parts, app.Span().Class("outcome outcome-rejected").Text(s.N("group.rejected", rejected)))
	}
	// The comma makes the header's name read as two phrases.
	return app.Span().Class("group-outcome").DataSet("testid", "group-outcome").Body(
		app.Span().Class("sr-only").Text(", "),
		app.Span().Class("outcome-list").Body(parts...),
	)
}
