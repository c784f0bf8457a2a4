package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Scenarios are the built-in demo scenarios the empty state suggests.
var Scenarios = []string{"timeline", "parallel", "search", "anthropic", "question", "approval", "markdown", "activity", "error", "long"}

// scenarioButtons lists the scenarios as suggestions: each sends "/NAME",
// which the demo agent plays.
func scenarioButtons() []app.UI {
	out := make([]app.UI, 0, len(Scenarios))
	for _, s := range Scenarios {
		out = append(out, app.Li().Body(
			app.Button().Type("button").Class("suggestion").DataSet("scenario", s).
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(ActionSendMessage, "/"+s)
				}, app.EventScope(s)).Text("/"+s),
		))
	}
	return out
}
