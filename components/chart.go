package components

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

const svgNS = "http://www.w3.org/2000/svg"

func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// Chart draws a bar chart in SVG: a baseline at zero, a value axis with
// three ticks, each bar labelled, and a hover title with its exact value.
func Chart(title string, labels []string, values []float64, s Settings) app.UI {
	const (
		w, h           = 480.0, 220.0
		left, right    = 48.0, 12.0
		top, bottom    = 16.0, 36.0
		plotW, plotH   = w - left - right, h - top - bottom
		barGapFraction = 0.3
	)
	lo, hi := 0.0, 0.0
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi == lo {
		hi = lo + 1
	}
	y := func(v float64) float64 { return top + plotH*(hi-v)/(hi-lo) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

	var parts []app.UI
	for i := 0; i <= 2; i++ { // axis ticks: lo, middle, hi
		v := lo + (hi-lo)*float64(i)/2
		parts = append(parts,
			svg("line").Class("chart-grid").Attr("x1", f(left)).Attr("x2", f(w-right)).Attr("y1", f(y(v))).Attr("y2", f(y(v))),
			svg("text").Class("chart-tick").Attr("x", f(left-6)).Attr("y", f(y(v)+4)).Attr("text-anchor", "end").Text(formatNumber(round2(v))),
		)
	}
	slot := plotW / float64(len(values))
	barW := slot * (1 - barGapFraction)
	for i, v := range values {
		label := ""
		if i < len(labels) {
			label = labels[i]
		}
		x := left + slot*float64(i) + (slot-barW)/2
		y0, y1 := y(math.Max(v, 0)), y(math.Min(v, 0))
		cls := "chart-bar"
		if v < 0 {
			cls += " negative"
		}
		parts = append(parts,
			svg("rect").Class(cls).Attr("x", f(x)).Attr("y", f(y0)).Attr("width", f(barW)).Attr("height", f(math.Max(y1-y0, 1))).Attr("rx", "2").Body(
				svg("title").Text(label+": "+formatNumber(v)),
			),
			svg("text").Class("chart-label").Attr("x", f(x+barW/2)).Attr("y", f(h-bottom+16)).Attr("text-anchor", "middle").Text(label),
		)
	}
	parts = append(parts, svg("line").Class("chart-axis").Attr("x1", f(left)).Attr("x2", f(w-right)).Attr("y1", f(y(0))).Attr("y2", f(y(0))))
	if title == "" {
		title = s.T("chart.title")
	}
	return svg("svg").Class("chart").Attr("viewBox", "0 0 480 220").Attr("role", "img").Attr("aria-label", title).Body(parts...)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
