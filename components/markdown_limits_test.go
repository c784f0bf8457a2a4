package components

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxAnswerDepth is how deep an answer's elements can nest with the caps:
// block containers (a list item is two elements, the list and the item),
// a table's or a code block's own elements, inline elements, then a
// formula (math and its row, two elements at most per TeX level).
const maxAnswerDepth = 2*maxBlockNesting + 5 + maxInlineNesting + 2 + 2*maxTeXNesting

// elementDepth is how deep elements nest in go-app's HTML: text is
// escaped there, attribute values are quoted Go strings.
func elementDepth(h string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(h); i++ {
		if h[i] != '<' {
			continue
		}
		j := i + 1
		closing := j < len(h) && h[j] == '/'
		if closing {
			j++
		}
		start := j
		for j < len(h) && h[j] != '>' && h[j] != ' ' {
			j++
		}
		tag := h[start:j]
		for j < len(h) && h[j] != '>' {
			if h[j] == '"' {
				for j++; j < len(h) && h[j] != '"'; j++ {
					if h[j] == '\\' {
						j++
					}
				}
			}
			j++
		}
		i = j
		switch {
		case closing:
			depth--
		case tag == "br" || tag == "hr" || tag == "input" || tag == "img":
		default:
			depth++
			deepest = max(deepest, depth)
		}
	}
	return deepest
}

var tagOrSpace = regexp.MustCompile(`<[^>]*>|\s+`)

// readText is the text an HTML fragment shows, without white space.
func readText(h string) string {
	return html.UnescapeString(tagOrSpace.ReplaceAllString(h, ""))
}

// hostileNesting are answers nested thousands deep (n levels: as deep
// as issue 38 found them), and what each must still show. Each once
// crashed the tab, froze it or (the emphasis) overflowed the wasm's stack,
// and did again on every reload.
var hostileNesting = []struct {
	name  string
	n     int
	src   func(n int) string
	shows func(n int) []string // bits of text it must still show, without white space
}{
	{"list", 2000, func(n int) string { return rep("- ", n) + "deep list" },
		func(n int) []string { return []string{rep("-", n-maxBlockNesting) + "deeplist"} }},
	{"ordered list", 2000, func(n int) string { return rep("1. ", n) + "deep list" },
		func(n int) []string { return []string{rep("1.", n-maxBlockNesting) + "deeplist"} }},
	{"quote", 5000, func(n int) string { return rep(">", n) + " deep quote" },
		func(n int) []string { return []string{rep(">", n-maxBlockNesting) + "deepquote"} }},
	{"quote and list", 2000, func(n int) string { return rep("> - ", n) + "deep mix" },
		func(n int) []string { return []string{"deepmix"} }},
	{"indented list", 200, func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(rep("  ", i) + "- item\n")
		}
		return b.String() + "\nafter"
	}, func(n int) []string {
		return []string{rep("item", maxBlockNesting) + rep("-item", n-maxBlockNesting) + "after"}
	}},
	{"emphasis", 20000, func(n int) string { return rep("*", n) + "deep emphasis" + rep("*", n) },
		func(n int) []string { return []string{"deepemphasis"} }},
	{"emphasis runs", 3000, func(n int) string { return rep("*a **b ", n) + "deep" + rep(" b** a*", n) },
		func(n int) []string { return []string{rep("ab", n) + "deep" + rep("ba", n)} }},
	{"underscores", 3000, func(n int) string { return rep("_a __b ", n) + "deep" + rep(" b__ a_", n) },
		func(n int) []string { return []string{rep("ab", n) + "deep" + rep("ba", n)} }},
	{"strikethrough", 3000, func(n int) string { return rep("~~a ", n) + "deep" + rep(" a~~", n) },
		func(n int) []string { return []string{rep("a", n) + "deep" + rep("a", n)} }},
	{"emphasis in a link", 20000, func(n int) string { return "[" + rep("*", n) + "deep link" + rep("*", n) + "](https://example.com)" },
		func(n int) []string { return []string{"deeplink"} }},
	{"images in images", 3000, func(n int) string { return rep("![", n) + "deep image" + rep("](https://example.com/i.png)", n) },
		func(n int) []string { return []string{"deepimage"} }},
	{"emphasis in a table", 20000, func(n int) string { return "| a |\n|---|\n| " + rep("*", n) + "deep cell" + rep("*", n) + " |" },
		func(n int) []string { return []string{"deepcell"} }},
	{"fractions", 2000, func(n int) string { return "$" + rep(`\frac{`, n) + "x" + rep("}{y}", n) + "$ deep fraction" },
		func(n int) []string { return []string{"$" + rep(`\frac{`, n) + "x}{y}", "deepfraction"} }},
	{"roots", 3000, func(n int) string { return "$" + rep(`\sqrt{`, n) + "x" + rep("}", n) + "$ deep root" },
		func(n int) []string { return []string{rep(`\sqrt{`, n) + "x", "deeproot"} }},
	{"roots without braces", 3000, func(n int) string { return "$" + rep(`\sqrt `, n) + "x$" },
		func(n int) []string { return []string{rep(`\sqrt`, n) + "x"} }},
	{"powers", 3000, func(n int) string { return "$" + rep("x^{", n) + "x" + rep("}", n) + "$ deep power" },
		func(n int) []string { return []string{rep("x^{", n), "deeppower"} }},
	{"braces", 1000, func(n int) string { return "$" + rep("{", n) + "x" + rep("}", n) + "$ deep braces" },
		func(n int) []string { return []string{rep("{", n) + "x", "deepbraces"} }},
	{"delimiters", 5000, func(n int) string { return "$" + rep(`\left`, n) + "(x)$" },
		func(n int) []string { return []string{rep(`\left`, n)} }},
	{"matrices", 300, func(n int) string { return "$" + rep(`\begin{pmatrix}`, n) + "x" + rep(`\end{pmatrix}`, n) + "$" },
		func(n int) []string { return []string{rep(`\begin{pmatrix}`, n)} }},
	{"display fractions", 500, func(n int) string { return "$$\n" + rep(`\frac{1}{1+`, n) + "x" + rep("}", n) + "\n$$" },
		func(n int) []string { return []string{rep(`\frac{1}{1+`, n)} }},
}

var rep = strings.Repeat

// Issue 38, item 4: each hostile answer draws elements nested no deeper
// than the caps, and still shows its text.
func TestHostileNestingIsCapped(t *testing.T) {
	for _, tc := range hostileNesting {
		h := app.HTMLString(app.Div().Body(Markdown(tc.src(tc.n))...))
		if d := elementDepth(h) - 1; d > maxAnswerDepth {
			t.Errorf("%s: elements nest %d deep (at most %d)", tc.name, d, maxAnswerDepth)
		}
		text := readText(h)
		for _, want := range tc.shows(tc.n) {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %.60q… is not shown", tc.name, want)
			}
		}
	}
}

// A streamed answer is drawn in segments: each is capped alike.
func TestHostileNestingIsCappedInSegments(t *testing.T) {
	for _, tc := range hostileNesting {
		src := "Intro.\n\n" + tc.src(tc.n) + "\n\nOutro.\n"
		var stream mdStream
		var got []app.UI
		for _, seg := range stream.segments(1, src) {
			v := &MarkdownSegment{Src: seg.src, Heading: seg.heading, Code: seg.code, Item: 1, Settings: DefaultSettings()}
			got = append(got, v.blocks()...)
		}
		h := app.HTMLString(app.Div().Body(got...))
		if d := elementDepth(h) - 1; d > maxAnswerDepth {
			t.Errorf("%s: elements nest %d deep (at most %d)", tc.name, d, maxAnswerDepth)
		}
		if text := readText(h); !strings.Contains(text, "Intro.") || !strings.Contains(text, "Outro.") {
			t.Errorf("%s: the text around it is gone", tc.name)
		}
	}
}

// The caps are far above what real answers nest: ten levels of lists,
// quotes and emphasis, and a continued fraction ten deep, draw as usual.
func TestRealNestingIsNotCapped(t *testing.T) {
	var list strings.Builder
	for i := range 10 {
		list.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	for src, want := range map[string]int{
		list.String():                                 10, // <ul>
		strings.Repeat("> ", 10) + "quoted":           10, // <blockquote>
		"***a _b **c _d **e _f g_ h** i_ j** k_ l***": 7,  // <em> and <strong>
	} {
		h := app.HTMLString(app.Div().Body(Markdown(src)...))
		n := strings.Count(h, "<ul") + strings.Count(h, "<blockquote") + strings.Count(h, "<em>") + strings.Count(h, "<strong>")
		if n != want {
			t.Errorf("%q: %d elements, want %d:\n%s", src, n, want, h)
		}
		// Five levels are indented, deeper ones not further: 32 of them
		// would leave the text no width.
		if deep := strings.Count(h, `class="md-deep"`); deep != max(0, n-mdIndentLevels) && !strings.Contains(h, "<em>") {
			t.Errorf("%q: %d of %d levels not indented, want %d", src, deep, n, n-mdIndentLevels)
		}
	}
	fraction := "$" + strings.Repeat(`\frac{1}{1+`, 10) + "x" + strings.Repeat("}", 10) + "$"
	h := app.HTMLString(app.Div().Body(Markdown(fraction)...))
	if strings.Contains(h, "math-source") || strings.Count(h, "<mfrac>") != 10 {
		t.Errorf("a continued fraction ten deep is not drawn:\n%s", h)
	}
}

// Marks (citations) inside or after a part drawn as plain text are not
// lost: each shows once.
func TestMarksInHostileNesting(t *testing.T) {
	for _, tc := range hostileNesting {
		body := tc.src(tc.n)
		src := body + "\n\nEnd."
		h := marked(src, len(body)/2, len(body), len(src))
		if n := strings.Count(h, "<sup>"); n != 3 {
			t.Errorf("%s: %d of 3 marks shown", tc.name, n)
		}
	}
}

// The backslashes that stop too deep a line's markers are never shown:
// not in text, not in code.
func TestLimitedLinesShowAsWritten(t *testing.T) {
	deep := strings.Repeat(">", 40) + " x"
	for src, want := range map[string]string{
		deep:                           strings.Repeat(">", 40-maxBlockNesting) + "x",
		"```\n" + deep + "\n```":       deep,
		"    " + deep:                  deep,
		strings.Repeat("- ", 40) + "x": strings.Repeat("-", 40-maxBlockNesting) + "x",
	} {
		h := app.HTMLString(app.Div().Body(Markdown(src)...))
		if strings.Contains(h, `\`) {
			t.Errorf("%q shows a backslash:\n%s", src, h)
		}
		if !strings.Contains(html.UnescapeString(h), want) && !strings.Contains(readText(h), strings.ReplaceAll(want, " ", "")) {
			t.Errorf("%q does not show %q:\n%s", src, want, h)
		}
	}
}

// limitBlockNesting leaves thematic breaks, and lines nested no deeper
// than the cap, as they are.
func TestLimitBlockNestingLeavesRealLines(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("- ", 60) + "-",
		strings.Repeat("* ", 60),
		strings.Repeat("> ", maxBlockNesting) + "x",
		strings.Repeat("- ", maxBlockNesting) + "x",
		strings.Repeat("1. ", maxBlockNesting) + "x",
		strings.Repeat(" ", 200) + "x",
		"- a\n" + strings.Repeat("  ", maxBlockNesting-1) + "- b",
		strings.Repeat("-", 100),
		strings.Repeat(">", maxBlockNesting) + "x",
	} {
		if out, inserted := limitBlockNesting([]byte(src)); string(out) != src || inserted != nil {
			t.Errorf("%q became %q", src, out)
		}
	}
	for _, src := range []string{
		strings.Repeat("> ", maxBlockNesting+1) + "x",
		strings.Repeat("- ", maxBlockNesting+1) + "x",
		strings.Repeat("\t", maxBlockNesting/2) + strings.Repeat("+ ", maxBlockNesting/2+1) + "x",
	} {
		if _, inserted := limitBlockNesting([]byte(src)); len(inserted) != 1 {
			t.Errorf("%q: %d backslashes, want 1", src, len(inserted))
		}
	}
}

// FuzzMarkdownDepth: whatever an answer holds, its elements nest no
// deeper than the caps, and the marks placed in it all show.
func FuzzMarkdownDepth(f *testing.F) {
	for _, tc := range hostileNesting {
		f.Add(tc.src(70)) // small enough for the fuzzer to work on, deeper than the caps
	}
	for _, src := range []string{
		"# Title\n\n- a *b* `c` [d](https://e.example)\n  > quote $x^2$\n\n| a | b |\n|---|---|\n| **1** | $\\frac{1}{2}$ |\n",
		"```go\nfunc main() {}\n```\n\n1. one\n   - two\n     > three ~~four~~\n",
		"$$\n\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$\n\\(\\sqrt[3]{x_1^{2}}\\) \\[\\sum_{i=1}^n i\\]",
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4000 {
			return
		}
		h := marked(src, len(src)/3, 2*len(src)/3)
		if d := elementDepth(h) - 1; d > maxAnswerDepth {
			t.Fatalf("elements nest %d deep (at most %d) for %q", d, maxAnswerDepth, src)
		}
		if n := strings.Count(h, "<sup>"); n != 2 {
			t.Fatalf("%d of 2 marks shown for %q", n, src)
		}
	})
}

// A formula nested right up to the TeX cap is drawn, 31 levels of
// fractions, matrices or scripts at least, and its elements nest no
// deeper than two per level (docs/security.md: 130).
func TestTeXNestingUpToTheCap(t *testing.T) {
	for name, formula := range map[string]func(n int) string{
		"fractions":  func(n int) string { return rep(`\frac{`, n) + "x" + rep("}{y}", n) },
		"matrices":   func(n int) string { return rep(`\begin{pmatrix}`, n) + "x" + rep(`\end{pmatrix}`, n) },
		"scripts":    func(n int) string { return rep("x_{y^{", n) + "x" + rep("}}", n) },
		"powers":     func(n int) string { return rep("x^{", n) + "x" + rep("}", n) },
		"braces":     func(n int) string { return rep("{", n) + "x" + rep("}", n) },
		"roots":      func(n int) string { return rep(`\sqrt{`, n) + "x" + rep("}", n) },
		"bare roots": func(n int) string { return rep(`\sqrt `, n) + "x" },
		"binomials":  func(n int) string { return rep(`\binom{`, n) + "x" + rep("}{y}", n) },
		"accents":    func(n int) string { return rep(`\hat{`, n) + "x" + rep("}", n) },
	} {
		levels := 0
		for n := 1; n <= maxTeXNesting+1; n++ {
			h := app.HTMLString(app.Div().Body(Markdown("$" + formula(n) + "$")...))
			if strings.Contains(h, "math-source") {
				break
			}
			levels = n
			if d := elementDepth(h) - 2; d > 2*maxTeXNesting+2 { // less the div and the paragraph
				t.Errorf("%s, %d levels: math nests %d elements (at most %d)", name, n, d, 2*maxTeXNesting+2)
			}
		}
		if levels < maxTeXNesting/2-1 || levels > maxTeXNesting {
			t.Errorf("%s: drawn up to %d levels", name, levels)
		}
	}
}
