package components

import (
	"bytes"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// An answer is backend text, and nesting in it costs at every level: an
// element each, a call of the renderer's and of go-app's recursion (the
// wasm's calls run on V8's stack, about 1 MB), layout in Chromium. One
// answer of "- "×2000 or "*"×20000 around a word overflowed the one or the
// other, and the tab crashed again on every reload, as the answer is kept.
// So nesting is capped where it is made: what lies deeper is drawn as
// plain text, in its place. Real answers nest a few levels (lists 3 or 4,
// quotes 2, emphasis 2); the caps are far above that and far below what
// hurts (docs/security.md, "Rendering limits").
const (
	// maxBlockNesting caps block quotes and list items inside one another.
	maxBlockNesting = 32
	// maxInlineNesting caps emphasis, strikethrough, links and images
	// inside one another.
	maxInlineNesting = 32
)

// mdIndentLevels is how many block quotes and lists inside one another
// are indented: a deeper one (class md-deep) is not indented further.
// Five lists take 200 of a phone's 320 pixels; 32 of them, each indented,
// left the text at the bottom no width at all.
const mdIndentLevels = 5

// indentedEnough reports whether a block quote or list is inside
// mdIndentLevels others already.
func indentedEnough(n ast.Node) bool {
	outer := 0
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.(type) {
		case *ast.Blockquote, *ast.List:
			outer++
		}
	}
	return outer >= mdIndentLevels
}

// parseMarkdown parses an answer with its blocks' nesting capped
// (limitBlockNesting): the renderer draws src without the inserted
// backslashes.
func parseMarkdown(source string) (doc ast.Node, src []byte, inserted []int) {
	src, inserted = limitBlockNesting([]byte(source))
	return markdownParser().Parse(text.NewReader(src)), src, inserted
}

// limitBlockNesting returns src with a backslash before each container
// marker (">", a list item's "-", "+" or "*", an ordered one's "." or ")")
// that could open a block quote or list item deeper than maxBlockNesting,
// so that the rest of its line is text. inserted holds the offsets of the
// backslashes in the result, ascending; with none, src is returned as is.
//
// This is done before parsing because goldmark's own cost grows with the
// depth of the blocks open on every line (docs/security.md, "Rendering
// limits"). A line's containers are counted from its start without
// parsing: each ">" and list marker, and one for every two columns of
// indentation (a list item is continued by indenting to its content, two
// columns at least). That is never fewer than a parser finds, so no block
// nests deeper than the cap.
func limitBlockNesting(src []byte) (out []byte, inserted []int) {
	last := 0
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if at := deepMarker(src[start:end]); at >= 0 {
			if out == nil {
				out = make([]byte, 0, len(src)+64)
			}
			out = append(out, src[last:start+at]...)
			inserted = append(inserted, len(out))
			out = append(out, '\\')
			last = start + at
		}
		start = end + 1
	}
	if out == nil {
		return src, nil
	}
	return append(out, src[last:]...), inserted
}

// deepMarker returns the offset of the first container marker of a line
// that could open a container deeper than maxBlockNesting, or -1.
func deepMarker(line []byte) int {
	containers := 0 // markers so far
	indent := 0     // columns of indentation, but for markers' own padding
	col := 0        // the column, for tabs
	padding := 0    // columns after the last marker that belong to it
	for i := 0; i < len(line); {
		c := line[i]
		from, marker := i, i // marker: where the backslash goes
		switch {
		case c == ' ' || c == '\t':
			w := 1
			if c == '\t' {
				w = 4 - col%4
			}
			col += w
			pad := min(w, padding)
			padding -= pad
			indent += w - pad
			i++
			continue
		case c == '>':
			i++
			padding = 1
		case c == '-' || c == '+' || c == '*':
			if !markerEnds(line, i+1) || thematicBreak(line[i:]) {
				return -1
			}
			i++
			padding = 4
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || line[j] != '.' && line[j] != ')' || !markerEnds(line, j+1) {
				return -1
			}
			marker = j
			i = j + 1
			padding = 4
		default:
			return -1
		}
		if containers+indent/2 >= maxBlockNesting {
			return marker
		}
		containers++
		col += i - from
	}
	return -1
}

// markerEnds reports whether a list marker may end before line[i]: a
// space, a tab or the line's end follows it.
func markerEnds(line []byte, i int) bool {
	return i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r'
}

// thematicBreak reports whether a line (from a "-" or "*" on) is a
// thematic break, which CommonMark reads before a list item: three or more
// of the same character and nothing else but spaces and tabs.
func thematicBreak(rest []byte) bool {
	n := 0
	for _, c := range rest {
		switch c {
		case rest[0]:
			n++
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return n >= 3
}

// shiftMarks moves marks' source offsets past the backslashes
// limitBlockNesting inserted before them.
func shiftMarks(marks []Mark, inserted []int) []Mark {
	if len(inserted) == 0 || len(marks) == 0 {
		return marks
	}
	out := make([]Mark, len(marks))
	for i, m := range marks {
		// The k-th backslash stands before the original offset inserted[k]-k.
		before := sort.Search(len(inserted), func(k int) bool { return inserted[k]-k >= m.At })
		out[i] = Mark{At: m.At + before, UI: m.UI}
	}
	return out
}

// source is src[lo:hi] without the backslashes limitBlockNesting inserted.
func (r *mdRenderer) source(lo, hi int) []byte {
	k := sort.SearchInts(r.inserted, lo)
	if k == len(r.inserted) || r.inserted[k] >= hi {
		return r.src[lo:hi]
	}
	out := make([]byte, 0, hi-lo)
	for ; k < len(r.inserted) && r.inserted[k] < hi; k++ {
		out = append(out, r.src[lo:r.inserted[k]]...)
		lo = r.inserted[k] + 1
	}
	return append(out, r.src[lo:hi]...)
}

// segment is seg.Value(r.src) without the inserted backslashes.
func (r *mdRenderer) segment(seg text.Segment) []byte {
	if len(r.inserted) == 0 {
		return seg.Value(r.src)
	}
	v := r.source(seg.Start, seg.Stop)
	if seg.Padding > 0 {
		v = append(bytes.Repeat([]byte{' '}, seg.Padding), v...)
	}
	if seg.ForceNewline && len(v) > 0 && v[len(v)-1] != '\n' {
		v = append(v[:len(v):len(v)], '\n')
	}
	return v
}

// plain is the text of an inline node and all it holds, as the reader
// would read it: an inline nested too deep is drawn so. It walks the
// nodes without recursion, however deep they go.
func (r *mdRenderer) plain(n ast.Node) app.UI {
	var b strings.Builder
	mdWalk(n, func(c ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.WalkContinue
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(r.source(t.Segment.Start, t.Segment.Stop))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				b.Write(r.source(seg.Start, seg.Stop))
			}
		case *ast.AutoLink:
			b.Write(t.Label(r.src))
		case *mathNode:
			b.WriteString(t.Source)
		}
		return ast.WalkContinue
	})
	return app.Text(b.String())
}

// mdWalk is ast.Walk without recursion: its depth costs no stack (a
// hostile answer's inlines nest as deep as it likes).
func mdWalk(root ast.Node, walker func(n ast.Node, entering bool) ast.WalkStatus) {
	n := root
	for {
		status := walker(n, true)
		if status == ast.WalkStop {
			return
		}
		if c := n.FirstChild(); c != nil && status != ast.WalkSkipChildren {
			n = c
			continue
		}
		// Leave n and every ancestor that has no next sibling.
		for {
			if walker(n, false) == ast.WalkStop || n == root {
				return
			}
			if s := n.NextSibling(); s != nil {
				n = s
				break
			}
			n = n.Parent()
		}
	}
}
