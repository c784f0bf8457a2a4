package components

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// marked renders src with a <sup>N</sup> mark after each offset.
func marked(src string, at ...int) string {
	var marks []Mark
	for i, a := range at {
		marks = append(marks, Mark{At: a, UI: sup(i + 1)})
	}
	return app.HTMLString(app.Div().Body(MarkdownWithMarks(src, marks)...))
}

func sup(n int) app.UI { return app.Sup().Text(strconv.Itoa(n)) }

func div(body ...app.UI) string { return app.HTMLString(app.Div().Body(body...)) }

func txt(s string) app.UI { return app.Text(s) }

func link(href string, label string) app.UI {
	return app.A().Href(href).Target("_blank").Rel("noopener noreferrer").Body(txt(label))
}

var anchorTag = regexp.MustCompile(`<a [^>]*>`)

func TestMarksFollowTheirPassage(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		at   []int
		want string
	}{
		"inside a paragraph, in bytes": {"Trời mưa. Gió lạnh.", []int{len("Trời mưa.")},
			div(app.P().Body(txt("Trời mưa."), sup(1), txt(" Gió lạnh.")))},
		"at the end of emphasis, inside it": {"A **bold** claim.", []int{len("A **bold**")},
			div(app.P().Body(txt("A "), app.Strong().Body(txt("bold"), sup(1)), txt(" claim.")))},
		"a passage ending with blank lines stays in its paragraph": {"One.\n\nTwo.", []int{len("One.\n\n"), len("One.\n\nTwo.")},
			div(app.P().Body(txt("One."), sup(1)), app.P().Body(txt("Two."), sup(2)))},
		"two marks at one place keep their order": {"Rain.", []int{5, 5},
			div(app.P().Body(txt("Rain."), sup(1), sup(2)))},
		"never inside code": {"Run `go test ./...` now", []int{len("Run `go te")},
			div(app.P().Body(txt("Run "), app.Code().Text("go test ./..."), sup(1), txt(" now")))},
		"never inside a link": {"See [the docs](https://go.dev/doc) first", []int{len("See [the do")},
			div(app.P().Body(txt("See "), link("https://go.dev/doc", "the docs"), sup(1), txt(" first")))},
		"after an autolink": {"See https://go.dev today", []int{len("See https://go.dev")},
			div(app.P().Body(txt("See "), link("https://go.dev", "https://go.dev"), sup(1), txt(" today")))},
		"before any text": {"Hi", []int{0},
			div(app.P().Body(sup(1), txt("Hi")))},
		"no text at all": {"", []int{0},
			div(sup(1))},
		"in a list item": {"- one\n- two\n", []int{len("- one")},
			div(app.Ul().Body(app.Li().Body(app.Span().Body(txt("one"), sup(1))), app.Li().Body(app.Span().Body(txt("two")))))},
		"in a heading": {"# Weather\n\nRain.", []int{len("# Weather\n\n")},
			div(app.H2().Class("md-h1").Body(txt("Weather"), sup(1)), app.P().Body(txt("Rain.")))},
		"in a table cell": {"| a | b |\n|---|---|\n| x | y |\n", []int{len("| a | b |\n|---|---|\n| x")},
			div(app.Div().Class("md-table").Body(app.Table().Body(
				app.THead().Body(app.Tr().Body(app.Th().Attr("scope", "col").Body(txt("a")), app.Th().Attr("scope", "col").Body(txt("b")))),
				app.TBody().Body(app.Tr().Body(app.Td().Body(txt("x"), sup(1)), app.Td().Body(txt("y")))))))},
		"after raw HTML, shown as text": {"Bad <b>idea</b> here", []int{len("Bad <b>idea</b>")},
			div(app.P().Body(txt("Bad <b>idea</b>"), sup(1), txt(" here")))},
		"a soft break stays after the mark": {"line one\nline two", []int{len("line one\n")},
			div(app.P().Body(txt("line one"), sup(1), txt("\nline two")))},
	} {
		t.Run(name, func(t *testing.T) {
			// go-app writes attributes in no fixed order.
			assert.Equal(t, anchorTag.ReplaceAllString(tc.want, "<a>"), anchorTag.ReplaceAllString(marked(tc.src, tc.at...), "<a>"))
		})
	}
}

func TestMarkdownWithoutMarksUnchanged(t *testing.T) {
	src := "# T\n\nSome *text* with `code`, a [link](https://x.example) and\n\n| a |\n|---|\n| 1 |\n"
	assert.Equal(t, anchorTag.ReplaceAllString(div(Markdown(src)...), "<a>"), anchorTag.ReplaceAllString(marked(src), "<a>"))
}
