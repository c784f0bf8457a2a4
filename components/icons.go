package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Icons are drawn as SVG paths (24×24, stroked with currentColor), hidden
// from assistive technology: the button around each has its own name.
var iconPaths = map[string]string{
	"menu":   "M4 6h16M4 12h16M4 18h16",
	"plus":   "M12 5v14M5 12h14",
	"pencil": "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
	"trash":  "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
	"send":   "M4 12l16-8-6 16-2-7-8-1z",
	"stop":   "M7 7h10v10H7z",
	"check":  "M5 12l5 5 9-10",
	"list":   "M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01",
	"close":  "M6 6l12 12M18 6L6 18",
	// The user's half (messages.go, attachments.go).
	"retry":      "M4 12a8 8 0 0 1 14-5.3M20 4v5h-5M20 12a8 8 0 0 1-14 5.3M4 20v-5h5",
	"thumb-up":   "M7 11v9H4v-9h3zm0 0l4-7a2 2 0 0 1 3 2l-1 4h5a2 2 0 0 1 2 2.3l-1.3 6A2 2 0 0 1 16.7 20H7",
	"thumb-down": "M7 13V4H4v9h3zm0 0l4 7a2 2 0 0 0 3-2l-1-4h5a2 2 0 0 0 2-2.3l-1.3-6A2 2 0 0 0 16.7 4H7",
	"down":       "M12 5v14M6 13l6 6 6-6",
	"paperclip":  "M20 11l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.5 3.5 0 0 1 5 5L10 17a2 2 0 0 1-3-3l7.5-7.5",
	"file":       "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5zM14 3v5h5",
	"download":   "M12 4v11M7 10l5 5 5-5M5 20h14",
	"globe":      "M12 3a9 9 0 100 18 9 9 0 000-18zM3 12h18M12 3c2.4 2.5 3.6 5.5 3.6 9s-1.2 6.5-3.6 9M12 3c-2.4 2.5-3.6 5.5-3.6 9s1.2 6.5 3.6 9",
}

// mirrored are the icons that point along the line of text: a
// right-to-left page draws them flipped (stepwise.css, .mirror-rtl).
var mirrored = map[string]bool{"send": true}

func icon(name string) app.UI {
	class := "icon"
	if mirrored[name] {
		class += " mirror-rtl"
	}
	return svg("svg").Class(class).Attr("viewBox", "0 0 24 24").Attr("width", "20").Attr("height", "20").
		Attr("aria-hidden", "true").Attr("focusable", "false").Body(
		svg("path").Attr("d", iconPaths[name]).Attr("fill", "none").Attr("stroke", "currentColor").
			Attr("stroke-width", "2").Attr("stroke-linecap", "round").Attr("stroke-linejoin", "round"),
	)
}

// logo draws the Stepwise mark (web/logo.svg) inline, size px square,
// hidden from assistive technology as the icons are (the agent's name is
// beside it). As an <img>, each copy of the file would be an SVG document
// of its own for the browser to make on the main thread as the page
// starts, and a request (the file is revalidated at each use).
//
// A deployment's own logo (Settings.Logo) is an image instead, as
// decorative as the mark.
func logo(s Settings, class string, size int) app.UI {
	px := strconv.Itoa(size)
	if s.Logo != "" {
		return app.Img().Class(class+" custom-logo").Src(s.Logo).Attr("role", "presentation").Aria("hidden", true).
			Width(size).Height(size)
	}
	return svg("svg").Class(class).Attr("viewBox", "0 0 64 64").Attr("width", px).Attr("height", px).
		Attr("aria-hidden", "true").Attr("focusable", "false").Body(
		svg("rect").Attr("width", "64").Attr("height", "64").Attr("rx", "15").Attr("fill", "#4f46e5"),
		svg("path").Attr("d", "M13 47h12V37h12V27h12").Attr("fill", "none").Attr("stroke", "#fff").
			Attr("stroke-width", "6").Attr("stroke-linecap", "round").Attr("stroke-linejoin", "round"),
		svg("circle").Attr("cx", "49").Attr("cy", "17").Attr("r", "5.5").Attr("fill", "#5eead4"),
	)
}
