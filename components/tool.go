package components

import (
	"encoding/json"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// ToolView is a tool call: a status dot and its label; a click shows its
// Request (the input as indented JSON) and its Response. A web_search with
// sources shows as the inline search block instead.
type ToolView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	// Step is its classes as a step of a group ("step", "step step-hidden"),
	// empty outside groups.
	Step string
	d    Disclosure
}

func (v *ToolView) Render() app.UI {
	v.d.sync(v.Item, false)
	t := v.Item.Tool
	cls := "item tool status-" + string(t.Status)
	if v.Step != "" {
		cls = v.Step + " " + cls
	}
	root := app.Div().Class(cls).
		DataSet("kind", "tool").DataSet("tool-id", t.ID).DataSet("status", string(t.Status))
	if search, ok := state.SearchResultsOf(t, v.Settings.FaviconService); ok {
		return root.Body(v.search(search))
	}
	id := domID("tool", v.Item)
	if plan, ok := state.PlanOf(v.Item); ok {
		return root.Body(v.planStep(plan, id))
	}
	label := toolLabel(t, v.Settings)
	preview := codePreview(t, v.Settings)
	if o := toolOutcome(t); o != "" {
		root = root.DataSet("outcome", o)
	}
	var appView app.UI
	if t.App != nil && v.Step == "" { // a step's app shows below its group
		appView = &AppView{Item: v.Item, Rev: v.Item.Rev, Settings: v.Settings}
	}
	return root.Body(
		v.d.button("tool-row", id,
			toolDot(t),
			app.Span().Class("tool-label").Text(label),
			// What it reports while it runs (AI SDK preliminary outputs).
			app.If(t.Progress != "" && t.Status == state.ToolActive, func() app.UI {
				return app.Span().Class("preview tool-progress").Text(t.Progress)
			}).ElseIf(preview != "", func() app.UI {
				return app.Span().Class("preview code-preview").Text(preview)
			}),
			app.Span().Class("sr-only").Text(", "+v.Settings.T(toolStatusKey(t))),
		),
		appView, // before the details: opening them never moves its frame
		toolImages(v.Item, label, v.Settings),
		app.If(v.d.open, func() app.UI { return v.details(id) }),
	)
}

// toolStatusKeys name each tool status for screen readers.
var toolStatusKeys = map[state.ToolStatus]string{
	state.ToolActive:      "status.active",
	state.ToolAwaiting:    "status.awaiting",
	state.ToolDone:        "status.done",
	state.ToolError:       "status.error",
	state.ToolInterrupted: "status.interrupted",
}

// toolOutcome tells how a tool with status error ended when it did not
// fail: "cancelled" or "rejected" (its own words and dot), else "".
func toolOutcome(t *state.Tool) string {
	switch {
	case t.Status != state.ToolError:
		return ""
	case t.Cancelled:
		return "cancelled"
	case t.Rejected || t.Denied:
		return "rejected"
	}
	return ""
}

// toolStatusKey names a tool's status, or how it ended, in words.
func toolStatusKey(t *state.Tool) string {
	switch toolOutcome(t) {
	case "cancelled":
		return "status.cancelled"
	case "rejected":
		return "status.rejected"
	}
	return toolStatusKeys[t.Status]
}

// outcomeResponseKeys are the words of an empty response of a tool that was
// cancelled or rejected.
var outcomeResponseKeys = map[string]string{
	"cancelled": "tool.cancelled",
	"rejected":  "tool.rejected",
}

// toolDot is the status dot; a cancelled or rejected tool did not fail, and
// its dot says so (a grey ring with a bar, not red).
func toolDot(t *state.Tool) app.UI {
	if o := toolOutcome(t); o != "" {
		return app.Span().Class("dot dot-" + o)
	}
	return statusDot(t.Status)
}

// statusDot is empty: nothing to hide from screen readers (the status is
// said in words beside it), and each attribute mounted costs calls into JS.
func statusDot(s state.ToolStatus) app.UI {
	return app.Span().Class("dot dot-" + string(s))
}

func (v *ToolView) details(id string) app.UI {
	t := v.Item.Tool
	if t.Code != nil && t.ErrorCode == "" && t.Status == state.ToolDone {
		return codeRunView(id, t.Code, v.Settings)
	}
	var response app.UI
	if t.Result != nil {
		cls := "tool-response"
		text := toolResponse(t, v.Settings)
		switch outcome := toolOutcome(t); {
		case outcome != "":
			// Not a failure: no red box, and words rather than an empty one.
			cls += " is-" + outcome
			if text == "" {
				text = v.Settings.T(outcomeResponseKeys[outcome])
			}
		case t.Status == state.ToolError:
			cls += " is-error"
		}
		response = app.Div().Class("tool-section").Body(
			app.Div().Class("tool-section-title").Text(v.Settings.T("tool.response")),
			app.Pre().Class(cls).Text(text),
		)
	}
	return app.Div().ID(id).Class("tool-details").Body(
		app.Div().Class("tool-section").Body(
			app.Div().Class("tool-section-title").Text(v.Settings.T("tool.request")),
			toolRequest(t, v.Settings),
		),
		response,
		artifactView(t.Artifact, v.Settings),
	)
}

// search draws the inline "🔍 Web search · N results" block.
func (v *ToolView) search(g state.SourceGroup) app.UI {
	id := domID("search", v.Item)
	t := v.Item.Tool
	return app.Div().Class("web-search").Body(
		v.d.button("tool-row", id,
			statusDot(t.Status),
			app.Span().Class("tool-label").Text(v.Settings.T("search.title")),
			app.Span().Class("search-count").Text(v.Settings.N("search.results", len(g.Sources))),
		).DataSet("testid", "web-search"),
		app.If(v.d.open, func() app.UI {
			return app.Div().ID(id).Class("search-results").Body(
				app.If(g.Query != "", func() app.UI { return app.Div().Class("search-query").Text(g.Query) }),
				sourceList(g.Sources, v.Settings),
			)
		}),
	)
}

// sourceList lists sources; only http and https URLs become links or images.
func sourceList(sources []state.Source, set Settings) app.UI {
	items := make([]app.UI, 0, len(sources))
	for _, s := range sources {
		title := s.Title
		if title == "" {
			title = s.URL
		}
		var icon app.UI = app.Span().Class("favicon favicon-none").Aria("hidden", true)
		if state.IsWebURL(s.Favicon) {
			icon = decorative(app.Img().Class("favicon").Src(s.Favicon).Width(16).Height(16).
				Attr("loading", "lazy").Attr("referrerpolicy", "no-referrer"))
		}
		var link app.UI = app.Span().Class("source-title").Text(title)
		if state.IsWebURL(s.URL) {
			link = app.A().Class("source-title").Href(s.URL).Target("_blank").Rel("noopener noreferrer").Text(title)
		}
		items = append(items, app.Li().Class("source").Body(
			icon,
			app.Div().Class("source-text").Body(
				link,
				app.Span().Class("source-domain").Text(sourceMeta(s, set)),
				app.If(s.Snippet != "", func() app.UI { return app.P().Class("source-snippet").Text(s.Snippet) }),
			),
		))
	}
	return app.Ul().Class("sources").Body(items...)
}

// artifactView draws a tool's artifact: a chart, or formatted JSON.
func artifactView(raw json.RawMessage, s Settings) app.UI {
	if len(raw) == 0 {
		return nil
	}
	var chart struct {
		Type string `json:"type"`
		Data struct {
			Labels []string  `json:"labels"`
			Values []float64 `json:"values"`
		} `json:"data"`
		Title string `json:"title"`
	}
	if json.Unmarshal(raw, &chart) == nil && chart.Type == "chart" && len(chart.Data.Values) > 0 {
		return app.Div().Class("tool-section").Body(
			app.Div().Class("tool-section-title").Text(s.T("chart.title")),
			Chart(chart.Title, chart.Data.Labels, chart.Data.Values, s),
		)
	}
	return app.Div().Class("tool-section").Body(
		app.Div().Class("tool-section-title").Text(s.T("artifact.title")),
		app.Pre().Class("tool-artifact").Text(state.IndentJSON(raw)),
	)
}

// formatNumber prints a value without needless decimals.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
