package components

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// translator looks up user-visible strings.
type translator interface {
	T(key string, args ...any) string
}

// citationMarks groups an item's citations by where their passage ends;
// a source cited twice for one passage shows once.
func citationMarks(it *state.Item, tr translator) []Mark {
	var marks []Mark
	for i := 0; i < len(it.Citations); {
		at := it.Citations[i].At
		var group []state.Citation
		for ; i < len(it.Citations) && it.Citations[i].At == at; i++ {
			group = addCitation(group, it.Citations[i])
		}
		markers := make([]app.UI, 0, len(group))
		for j, c := range group {
			markers = append(markers, citationMarker(c, "cite-"+strconv.Itoa(it.Key)+"-"+strconv.Itoa(len(marks))+"-"+strconv.Itoa(j), tr))
		}
		marks = append(marks, Mark{At: at, UI: app.Span().Class("citations").Body(markers...)})
	}
	return marks
}

// addCitation adds c to the markers of one passage, or joins its cited text
// to the marker of the same source.
func addCitation(group []state.Citation, c state.Citation) []state.Citation {
	for k := range group {
		if group[k].N == c.N {
			if c.CitedText != "" && !strings.Contains(group[k].CitedText, c.CitedText) {
				group[k].CitedText = strings.TrimPrefix(group[k].CitedText+" … "+c.CitedText, " … ")
			}
			return group
		}
	}
	return append(group, c)
}

// citationMarker is one numbered marker: a link to the cited page opening
// in a new tab, or, for a document without a URL, a focusable number. Its
// title and cited text show in a tooltip on hover and on keyboard focus, and
// are its accessible description.
func citationMarker(c state.Citation, id string, tr translator) app.UI {
	n := strconv.Itoa(c.N)
	title := c.Title
	domain := ""
	if u, err := url.Parse(c.URL); err == nil && state.IsWebURL(c.URL) {
		domain = u.Hostname()
	}
	if title == "" {
		title = domain
	}
	if title == "" && c.CitedText == "" {
		title = tr.T("citation.untitled")
	}
	tip := app.Span().ID(id).Class("citation-tip").Attr("role", "tooltip").Body(
		app.If(title != "", func() app.UI { return app.Span().Class("citation-title").Text(title) }),
		app.If(domain != "" && domain != title, func() app.UI { return app.Span().Class("citation-domain").Text(domain) }),
		app.If(c.CitedText != "", func() app.UI { return app.Span().Class("citation-text").Text("“" + c.CitedText + "”") }),
	)
	label := tr.T("citation.label", c.N)
	var marker app.UI
	if state.IsWebURL(c.URL) {
		marker = app.A().Class("citation").DataSet("testid", "citation").Href(c.URL).
			Target("_blank").Rel("noopener noreferrer").
			Aria("label", label).Aria("describedby", id).Text(n)
	} else {
		// Nothing to open: a button that only shows its tooltip, so the
		// keyboard reaches it too.
		marker = app.Button().Type("button").Class("citation no-link").DataSet("testid", "citation").
			Aria("label", label).Aria("describedby", id).Text(n)
	}
	return app.Span().Class("cite").Body(marker, tip)
}
