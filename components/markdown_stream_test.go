package components

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A streamed answer drawn in segments must read exactly as the same text
// parsed whole, at every length it passes through.
func TestMarkdownSegmentsMatchWholeParse(t *testing.T) {
	docs := []string{
		"# Title\n\nSome *text* here.\n\n## Sub\n\nMore text\nwith a soft break.\n\n### Deep\n\n# Top again\n\nEnd.",
		"Intro:\n\n- one\n- two\n\n- loose three\n\n  continued\n\nAfter the list.\n\n1. first\n2. second\n\n3) third\n\nDone.",
		"```go\nfunc main() {\n\n\tprintln(1)\n}\n```\n\nText after code.\n\n~~~\nraw\n\n~~~\n\n    indented code\n\n    more\n\nParagraph.\n\n```\nunclosed\n\nstill code",
		"| a | b |\n|---|---|\n| 1 | 2 |\n\nText.\n\n> quote\n\n> another\n\n---\n\nSetext\n===\n\nline\n\n===\n",
		"See [the docs][d].\n\nMore.\n\n[d]: https://example.com\n",
		"<!-- note\n\nstill a comment -->\n\nText.",
		"Math $x^2$ and\n\n$$\na+b\n$$\n\nDone `code` **bold** ~~gone~~ https://example.com.",
		"Chữ Việt có dấu.\n\n* star item\n\n+ plus item\n\nkết thúc.\n",
	}
	for _, doc := range docs {
		var stream mdStream
		for n := 0; n <= len(doc); n++ {
			if n < len(doc) && (doc[n]&0xC0) == 0x80 {
				continue // mid-rune
			}
			src := doc[:n]
			var got []app.UI
			for _, seg := range stream.segments(1, src) {
				v := &MarkdownSegment{Src: seg.src, Heading: seg.heading, Code: seg.code, Item: 1, Settings: DefaultSettings()}
				got = append(got, v.blocks()...)
			}
			want := renderMarkdown(src, nil, &mdCopy{item: 1, tr: DefaultSettings()})
			g, w := sortedAttrs(app.HTMLString(app.Div().Body(got...))), sortedAttrs(app.HTMLString(app.Div().Body(want...)))
			if g != w {
				t.Fatalf("at %d bytes of %q:\nsegments: %s\nwhole:    %s", n, doc, g, w)
			}
		}
		if strings.Contains(doc, "]:") || strings.Contains(doc, "<!--") {
			if !stream.whole {
				t.Errorf("%q: parsed in segments despite a construct that reaches back", doc)
			}
		} else if len(stream.segs) == 0 {
			t.Errorf("%q: never cut", doc)
		}
	}
}

// A completed segment is parsed once: later deltas reuse it as it was.
func TestMarkdownSegmentsKeepCompletedBlocks(t *testing.T) {
	var stream mdStream
	stream.segments(7, "First paragraph.\n\nSecond\n")
	first := stream.segs
	if len(first) != 1 || first[0].src != "First paragraph.\n\n" {
		t.Fatalf("segments after the first cut: %+v", first)
	}
	segs := stream.segments(7, "First paragraph.\n\nSecond\nparagraph grows")
	if len(segs) != 2 || segs[0] != first[0] || segs[1].src != "Second\nparagraph grows" {
		t.Fatalf("segments: %+v", segs)
	}
	// Another item, or a text that is not an extension, starts anew.
	if segs := stream.segments(8, "Other"); len(segs) != 1 || segs[0].src != "Other" {
		t.Fatalf("segments of another item: %+v", segs)
	}
}

var tagPattern, attrPattern = regexp.MustCompile(`<[a-z0-9]+( [^>]*)?>`), regexp.MustCompile(`[^ =]+(="[^"]*")?`)

// sortedAttrs puts every tag's attributes in order: go-app writes them in
// any order.
func sortedAttrs(html string) string {
	return tagPattern.ReplaceAllStringFunc(html, func(tag string) string {
		name, attrs, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(tag, "<"), ">"), " ")
		list := attrPattern.FindAllString(attrs, -1)
		sort.Strings(list)
		return "<" + strings.Join(append([]string{name}, list...), " ") + ">"
	})
}
