package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Scenarios are the built-in demo scenarios the empty state suggests.
var Scenarios = []string{"timeline", "parallel", "search", "question", "approval", "markdown", "activity", "error", "long"}

// scenarioLinks lists the scenarios as suggestions: each plays in the page.
func scenarioLinks() []app.UI {
	out := make([]app.UI, 0, len(Scenarios))
	for _, s := range Scenarios {
		out = append(out, app.Li().Body(
			app.A().Class("suggestion").Href("/?replay=/scenarios/"+s+".jsonl&rate=25&lang="+Language()).Text("/"+s),
		))
	}
	return out
}
