package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Scenarios are the built-in demo scenarios the empty state suggests.
var Scenarios = []string{"timeline", "plan", "parallel", "search", "chart", "app", "anthropic", "question", "approval", "markdown", "activity", "error", "long"}

// ScenarioOrder orders the scenario names a server plays: the built-in
// ones in the order of Scenarios, then the others (-scenarios files) as
// given. No names (a server that did not say) gives the built-in list.
func ScenarioOrder(names []string) []string {
	if len(names) == 0 {
		return Scenarios
	}
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	out := make([]string, 0, len(names))
	for _, n := range Scenarios {
		if has[n] {
			out = append(out, n)
			delete(has, n)
		}
	}
	for _, n := range names {
		if has[n] {
			out = append(out, n)
			delete(has, n)
		}
	}
	return out
}

// suggestionButtons lists a deployment's suggestions: each sends its own
// words (disabled until the app runs).
func suggestionButtons(texts []string, disabled bool) []app.UI {
	out := make([]app.UI, 0, len(texts))
	for i, text := range texts {
		out = append(out, app.Li().Body(
			app.Button().Type("button").Class("suggestion").Attr("dir", "auto").DataSet("suggestion", i).Disabled(disabled).
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(ActionSendMessage, text)
				}, app.EventScope(text)).Text(text),
		))
	}
	return out
}

// scenarioButtons lists the scenarios as suggestions: each sends "/NAME",
// which the demo agent plays (disabled until the app runs).
func scenarioButtons(names []string, disabled bool) []app.UI {
	out := make([]app.UI, 0, len(names))
	for _, s := range names {
		out = append(out, app.Li().Body(
			app.Button().Type("button").Class("suggestion").DataSet("scenario", s).Disabled(disabled).
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(ActionSendMessage, "/"+s)
				}, app.EventScope(s)).Text("/"+s),
		))
	}
	return out
}
