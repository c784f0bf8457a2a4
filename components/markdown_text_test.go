package components

import (
	"strings"
	"testing"

	"stepwise/components/htmltest"
)

// Text reads as CommonMark says: backslash escapes and character
// references resolved, in emphasis, links and headings too; a code span
// keeps its text as written.
func TestMarkdownTextResolvesEscapesAndReferences(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`chart\.png and a \* star`, "chart.png and a * star"},
		{`fish &amp; chips &copy; &#65;&#x42;`, "fish & chips © AB"},
		{`*in \_emphasis\_* and [a \*link\*](https://example.com)`, "in _emphasis_ and a *link*"},
		{`# Title \#1`, "Title #1"},
		{"`a\\.b &amp;` stays", "a\\.b &amp; stays"},
		{`a \q stays`, `a \q stays`},
	} {
		doc := htmltest.Parse(t, render(t, &mdHost{src: c.src}))
		if got := strings.TrimSpace(doc.Text()); got != c.want {
			t.Errorf("%q reads %q, want %q", c.src, got, c.want)
		}
	}
}
