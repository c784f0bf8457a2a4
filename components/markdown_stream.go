package components

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark/ast"
)

// A streamed answer grows by a few words per event. Parsing its whole
// Markdown for each would cost O(length) per delta, O(length²) for the
// answer. Instead the answer is cut into segments at points where no text
// added later can change how what comes before is parsed; completed
// segments are parsed once and drawn by components whose props do not
// change (go-app neither re-renders nor diffs them), and only the last,
// growing segment is parsed again on each delta.

// mdSegment is a stretch of an answer's source parsed on its own, with
// the renderer's state where it starts.
type mdSegment struct {
	src     string
	heading int // the level of the last heading drawn before it, 0 for none
	code    int // code blocks drawn before it
}

// mdStream keeps an answer's completed segments between renders.
type mdStream struct {
	key     int    // the item they belong to
	done    string // the source of the completed segments
	segs    []mdSegment
	heading int // the renderer's state at the end of done
	code    int
	whole   bool // the source holds constructs that reach back (see mdCuts): no cuts
}

// segments returns src cut into segments: the completed ones, reused from
// earlier calls when src extends what they were made of, then the rest.
func (m *mdStream) segments(key int, src string) []mdSegment {
	if m.key != key || !strings.HasPrefix(src, m.done) {
		*m = mdStream{key: key}
	}
	if !m.whole {
		cut, ok := mdLastCut(src, len(m.done))
		if !ok {
			*m = mdStream{key: key, whole: true}
		} else if cut > len(m.done) {
			seg := mdSegment{src: src[len(m.done):cut], heading: m.heading, code: m.code}
			m.heading, m.code = mdEndState(seg)
			m.segs = append(m.segs, seg)
			m.done = src[:cut]
		}
	}
	if !m.whole && len(m.segs) > 0 {
		// The line being written may turn out to reach back: until it is
		// complete, the answer is drawn whole.
		last := src[strings.LastIndexByte(src, '\n')+1:]
		if trimmed := strings.TrimLeft(last, " "); len(last)-len(trimmed) <= 3 && reachesBack(trimmed) {
			return []mdSegment{{src: src}}
		}
	}
	out := make([]mdSegment, len(m.segs), len(m.segs)+1)
	copy(out, m.segs)
	return append(out, mdSegment{src: src[len(m.done):], heading: m.heading, code: m.code})
}

// mdLastCut returns the start of the last line, at or after from, before
// which src can be cut: what precedes it parses the same whatever follows.
// That is a line after a blank line, outside a fenced code block, that
// starts at the margin and is no list item (so that no list, list item,
// indented code or paragraph goes on across it), and whose own line is
// complete. ok is false when src has a link reference definition or an HTML
// block that may span blank lines (those reach across blocks): such a
// source is parsed whole. from must be 0 or a cut.
func mdLastCut(src string, from int) (cut int, ok bool) {
	cut = from
	var fence string // the open fence's run of ` or ~, "" outside one
	prevBlank := false
	for pos := from; pos < len(src); {
		nl := strings.IndexByte(src[pos:], '\n')
		if nl < 0 {
			break // the line being written: it may still become anything
		}
		line := src[pos : pos+nl]
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if indent <= 3 && reachesBack(trimmed) {
			return from, false
		}
		blank := strings.TrimSpace(line) == ""
		switch {
		case fence != "":
			if indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t\r") == "" {
				fence = ""
			}
		case indent <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			run := len(trimmed) - len(strings.TrimLeft(trimmed, trimmed[:1]))
			if trimmed[0] == '~' || !strings.Contains(trimmed[run:], "`") {
				if prevBlank && indent == 0 && pos > from {
					cut = pos
				}
				fence = trimmed[:run]
			}
		case prevBlank && !blank && indent == 0 && line[0] != '\t' && !listMarker(line) && pos > from:
			cut = pos
		}
		prevBlank = blank && fence == ""
		pos += nl + 1
	}
	return cut, true
}

// reachesBack is true for a line (without its indentation) that starts a
// link reference definition, which applies to the whole answer, or an HTML
// block of CommonMark's kinds 1 to 5, which blank lines do not end.
func reachesBack(line string) bool {
	if strings.HasPrefix(line, "[") && strings.Contains(line, "]:") {
		return true
	}
	if !strings.HasPrefix(line, "<") {
		return false
	}
	l := strings.ToLower(line)
	for _, p := range []string{"<!--", "<?", "<![cdata[", "<script", "<pre", "<style", "<textarea"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return len(l) > 2 && l[1] == '!' && l[2] >= 'a' && l[2] <= 'z'
}

// listMarker is true for a line that starts a list item: -, + or *, or up
// to nine digits and . or ), then a space, a tab or the line's end.
func listMarker(line string) bool {
	rest := ""
	switch {
	case line[0] == '-' || line[0] == '+' || line[0] == '*':
		rest = line[1:]
	default:
		i := 0
		for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(line) || (line[i] != '.' && line[i] != ')') {
			return false
		}
		rest = line[i+1:]
	}
	return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r'
}

// mdEndState is the renderer's state after a segment: the last heading's
// level and the count of code blocks, as mdRenderer.node counts them.
func mdEndState(seg mdSegment) (heading, code int) {
	heading, code = seg.heading, seg.code
	doc, _, _ := parseMarkdown(seg.src)
	mdWalk(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.WalkContinue
		}
		switch t := n.(type) {
		case *ast.Heading:
			level := min(t.Level+1, heading+1, 6)
			if heading == 0 {
				level = 2
			}
			heading = level
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			code++
		}
		return ast.WalkContinue
	})
	return heading, code
}

// MarkdownSegment draws one segment of an answer. Its props are the
// segment and what its code blocks' copy buttons need: a completed
// segment's never change, so go-app leaves it alone.
type MarkdownSegment struct {
	app.Compo
	Src      string
	Heading  int
	Code     int
	Item     int
	Copied   string // the answer's copy button that just copied, if any
	Settings Settings
}

// Render draws the segment's blocks in a box that does not take part in
// the layout (display: contents): the blocks lay out as the answer's own.
func (v *MarkdownSegment) Render() app.UI {
	return app.Div().Class("md-seg").Body(v.blocks()...)
}

func (v *MarkdownSegment) blocks() []app.UI {
	doc, b, inserted := parseMarkdown(v.Src)
	r := &mdRenderer{src: b, inserted: inserted, lastHeading: v.Heading, codeBlocks: v.Code,
		copy: &mdCopy{item: v.Item, copied: v.Copied, tr: v.Settings}}
	return r.children(doc)
}
