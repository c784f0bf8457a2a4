package components

import (
	"bytes"
	"html"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdownParser parses CommonMark with GitHub's tables, strikethrough,
// task lists and autolinks. Its AST is turned into go-app elements: backend
// text never becomes HTML markup, so raw HTML in it shows as text.
// Math spans ($…$, $$…$$, \(…\), \[…\]) are nodes of their own (math.go).
// It is made on first use, not as the app starts: a new conversation shows
// no Markdown, and starting is what a person waits for.
var markdownParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(linkify(), extension.Table, extension.Strikethrough, extension.TaskList),
		goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(mathParser{}, 150)))).Parser()
})

// MarkdownWarmUp is what the first answer's Markdown would otherwise wait
// for, done ahead in steps, each meant for a browser task of its own (the
// app runs one per idle moment after it starts; a replay runs them all
// before its stream). Each is code run for the first time, which the
// browser compiles as it runs it, so each step is kept short:
//  1. the parser;
//  2. a first parse of a short text (the parser's own code).
//
// With fewer, larger steps the browser often runs two back to back in one
// long frame, which a person typing then waits for (docs/performance.md).
func MarkdownWarmUp() []func() {
	return []func(){
		func() { markdownParser() },
		func() { markdownParser().Parse(text.NewReader([]byte("- a *b* `c` [d](https://e.example)"))) },
	}
}

// Markdown renders src as elements.
func Markdown(src string) []app.UI {
	return MarkdownWithMarks(src, nil)
}

// Mark is an element placed in rendered Markdown right after the source
// text that ends at byte offset At: a citation marker after its passage.
type Mark struct {
	At int
	UI app.UI
}

// MarkdownWithMarks renders src as elements with marks inserted. A mark
// goes right after the last character of text that comes before its offset
// in the source, in that text's element (inside the paragraph, the
// emphasis, the list item or the table cell it ends); where that text is a
// link or code, right after the link or code, which never holds a mark.
// Marks at the same place keep their order.
func MarkdownWithMarks(src string, marks []Mark) []app.UI {
	return renderMarkdown(src, marks, nil)
}

// mdCopy gives an answer's code blocks their copy buttons.
type mdCopy struct {
	item   int    // the answer's item key
	copied string // the copy button that just copied
	tr     translator
}

// renderMarkdown is MarkdownWithMarks with copy buttons on code blocks
// when cp is not nil.
func renderMarkdown(src string, marks []Mark, cp *mdCopy) []app.UI {
	doc, b, inserted := parseMarkdown(src)
	r := &mdRenderer{src: b, inserted: inserted, copy: cp}
	r.anchor(doc, shiftMarks(marks, inserted))
	out := r.children(doc)
	for _, m := range r.unplaced {
		out = append(out, m.UI)
	}
	return out
}

// mdRenderer turns a goldmark AST into go-app elements.
type mdRenderer struct {
	src      []byte
	inserted []int // offsets of the backslashes limitBlockNesting added to src
	// marks maps a text node (or a node that takes no mark inside, like a
	// link) to the marks that follow it, each with its split point in the
	// source.
	marks    map[ast.Node][]placedMark
	unplaced []Mark // marks with no text at all to follow

	lastHeading int // the level of the last heading element drawn, 0 before any
	copy        *mdCopy
	codeBlocks  int // code blocks drawn so far: the next one's number
	inlines     int // inline elements around the node being drawn
}

type placedMark struct {
	split int // source offset where the node's text is cut for the mark
	ui    app.UI
}

// closed reports whether n is rendered whole, never holding a mark: code,
// whose text must stay as it is, and links, which cannot nest a link.
func closed(n ast.Node) bool {
	switch n.(type) {
	case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock,
		*ast.Link, *ast.AutoLink, *ast.Image, *ast.RawHTML, *mathNode:
		return true
	}
	return false
}

// span is a stretch of rendered source text, in document order.
type span struct {
	node        ast.Node
	start, stop int
}

// anchor finds, for each mark, the text it follows: the last span that
// starts before the mark's offset.
func (r *mdRenderer) anchor(doc ast.Node, marks []Mark) {
	if len(marks) == 0 {
		return
	}
	var spans []span
	inlines := 0 // as mdRenderer.inlines counts them
	mdWalk(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		nested := n.Type() == ast.TypeInline && n.HasChildren()
		if !entering {
			if nested {
				inlines--
			}
			return ast.WalkContinue
		}
		if closed(n) || nested && inlines >= maxInlineNesting {
			if lo, hi, ok := r.sourceRange(n); ok {
				spans = append(spans, span{n, lo, hi})
			}
			if nested {
				inlines++ // undone as it is left
			}
			return ast.WalkSkipChildren
		}
		if nested {
			inlines++
		}
		if t, ok := n.(*ast.Text); ok {
			spans = append(spans, span{t, t.Segment.Start, t.Segment.Stop})
		}
		return ast.WalkContinue
	})
	r.marks = make(map[ast.Node][]placedMark)
	for _, m := range marks {
		i := sort.Search(len(spans), func(i int) bool { return spans[i].start >= m.At }) - 1
		switch {
		case len(spans) == 0:
			r.unplaced = append(r.unplaced, m)
		case i < 0: // before any text: ahead of the first
			r.marks[spans[0].node] = append(r.marks[spans[0].node], placedMark{spans[0].start, m.UI})
		default:
			sp := spans[i]
			split := min(m.At, sp.stop)
			if _, isText := sp.node.(*ast.Text); !isText {
				split = sp.stop
			}
			r.marks[sp.node] = append(r.marks[sp.node], placedMark{split, m.UI})
		}
	}
	for _, pm := range r.marks {
		sort.SliceStable(pm, func(i, j int) bool { return pm[i].split < pm[j].split })
	}
}

// sourceRange is the stretch of source a node's text comes from.
func (r *mdRenderer) sourceRange(n ast.Node) (lo, hi int, ok bool) {
	if al, isAuto := n.(*ast.AutoLink); isAuto {
		// An autolink keeps its text out of the tree; its label is a slice
		// of the source, whose position its capacity tells.
		label := al.Label(r.src)
		if start := cap(r.src) - cap(label); len(label) > 0 && start >= 0 && start+len(label) <= len(r.src) && string(r.src[start:start+len(label)]) == string(label) {
			return start, start + len(label), true
		}
		return 0, 0, false
	}
	lo, hi = -1, -1
	grow := func(a, b int) {
		if lo < 0 || a < lo {
			lo = a
		}
		if b > hi {
			hi = b
		}
	}
	if n.Type() == ast.TypeBlock {
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			grow(seg.Start, seg.Stop)
		}
	}
	if raw, isRaw := n.(*ast.RawHTML); isRaw {
		for i := 0; i < raw.Segments.Len(); i++ {
			seg := raw.Segments.At(i)
			grow(seg.Start, seg.Stop)
		}
	}
	mdWalk(n, func(c ast.Node, entering bool) ast.WalkStatus {
		if t, isText := c.(*ast.Text); entering && isText {
			grow(t.Segment.Start, t.Segment.Stop)
		}
		return ast.WalkContinue
	})
	return lo, hi, lo >= 0
}

func (r *mdRenderer) children(n ast.Node) []app.UI {
	var run textRun
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			if len(r.marks) > 0 {
				r.markedText(&run, t)
			} else {
				run.write(inlineText(r.source(t.Segment.Start, t.Segment.Stop)))
			}
			switch {
			case t.HardLineBreak():
				run.add(app.Br())
			case t.SoftLineBreak():
				run.write(newline)
			}
			continue
		case *ast.String:
			run.write(t.Value)
			continue
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				run.write(r.source(seg.Start, seg.Stop))
			}
		default:
			run.add(r.node(c))
		}
		if len(r.marks) > 0 {
			r.after(&run, c)
		}
	}
	return run.done()
}

var newline = []byte{'\n'}

// markedText writes a text node whose source holds marks, each placed
// at its split point. Apart from children, whose every answer's text
// runs through it: citations are rare, and V8 optimises a hot function
// whole.
func (r *mdRenderer) markedText(run *textRun, t *ast.Text) {
	from := t.Segment.Start
	for _, m := range r.marks[t] {
		run.write(inlineText(r.source(from, max(from, m.split))))
		from = max(from, m.split)
		run.add(m.ui)
	}
	run.write(inlineText(r.source(from, t.Segment.Stop)))
}

// inlineText is a text node's source as the reader sees it: a backslash
// before ASCII punctuation dropped, entity and numeric character
// references resolved, as CommonMark says (goldmark does it when it
// writes HTML; the components write the source's bytes). Code spans keep
// theirs. References go through html.UnescapeString, whose table the
// wasm has anyway (goldmark's own would add its copy).
func inlineText(b []byte) []byte {
	if bytes.IndexByte(b, '\\') >= 0 {
		b = util.UnescapePunctuations(b)
	}
	if bytes.IndexByte(b, '&') >= 0 {
		b = []byte(html.UnescapeString(string(b)))
	}
	return b
}

// after adds the marks that follow a closed node.
func (r *mdRenderer) after(run *textRun, c ast.Node) {
	for _, m := range r.marks[c] {
		run.add(m.ui)
	}
}

// textRun gathers a node's children: adjacent text joins into one text
// node. Its methods are not inlined, so that children stays one small
// function (each inlined call is code V8 optimises with it).
type textRun struct {
	out     []app.UI
	pending strings.Builder
}

//go:noinline
func (b *textRun) write(p []byte) { b.pending.Write(p) }

// add ends the pending text and adds ui, if any, after it.
//
//go:noinline
func (b *textRun) add(ui app.UI) {
	b.flush()
	if ui != nil {
		b.out = append(b.out, ui)
	}
}

//go:noinline
func (b *textRun) flush() {
	if b.pending.Len() > 0 {
		b.out = append(b.out, app.Text(b.pending.String()))
		b.pending.Reset()
	}
}

func (b *textRun) done() []app.UI {
	b.flush()
	return b.out
}

// node renders one node that is not text. The kinds are split by how
// often they come: V8 optimises a function whole once it turns hot, and
// an answer's paragraphs would otherwise make it optimise every kind's
// code in one large function.
func (r *mdRenderer) node(n ast.Node) app.UI {
	switch n.(type) {
	case *ast.Paragraph:
		return app.P().Body(r.children(n)...)
	case *ast.TextBlock:
		return app.Span().Body(r.children(n)...)
	case *ast.CodeSpan, *ast.Emphasis, *east.Strikethrough, *ast.Link, *ast.AutoLink, *ast.Image, *mathNode, *east.TaskCheckBox:
		return r.inline(n)
	case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
		return r.codeBlock(n)
	case *ast.Heading:
		return r.heading(n.(*ast.Heading))
	}
	return r.block(n)
}

// block renders the blocks other than paragraphs, headings and code.
func (r *mdRenderer) block(n ast.Node) app.UI {
	kids := func() []app.UI { return r.children(n) }
	switch t := n.(type) {
	case *ast.ThematicBreak:
		return app.Hr()
	case *ast.Blockquote:
		if indentedEnough(n) {
			return app.Blockquote().Class("md-deep").Body(kids()...)
		}
		return app.Blockquote().Body(kids()...)
	case *ast.List:
		if t.IsOrdered() {
			ol := app.Ol()
			if t.Start > 1 {
				ol = ol.Attr("start", t.Start)
			}
			if indentedEnough(n) {
				ol = ol.Class("md-deep")
			}
			return ol.Body(kids()...)
		}
		if indentedEnough(n) {
			return app.Ul().Class("md-deep").Body(kids()...)
		}
		return app.Ul().Body(kids()...)
	case *ast.ListItem:
		return app.Li().Body(kids()...)
	case *east.Table:
		return r.table(t)
	}
	// Anything else keeps its text.
	return app.Span().Body(kids()...)
}

// heading renders a heading. The page's own h1 is the agent's name: an
// answer's headings start at h2 and never skip a level on the way down (a
// "###" right after a "#" is an h3), whatever the model wrote; their look
// follows the source's level.
func (r *mdRenderer) heading(t *ast.Heading) app.UI {
	level := min(t.Level+1, r.lastHeading+1, 6)
	if r.lastHeading == 0 {
		level = 2
	}
	r.lastHeading = level
	kids := r.children(t)
	class := "md-h" + strconv.Itoa(min(t.Level, 3))
	switch level {
	case 2:
		return app.H2().Class(class).Body(kids...)
	case 3:
		return app.H3().Class(class).Body(kids...)
	case 4:
		return app.H4().Class(class).Body(kids...)
	case 5:
		return app.H5().Class(class).Body(kids...)
	default:
		return app.H6().Class(class).Body(kids...)
	}
}

// codeBlock renders an indented or fenced code block, or an HTML block as
// code.
func (r *mdRenderer) codeBlock(n ast.Node) app.UI {
	src := r.src
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(r.segment(seg))
	}
	if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
		b.Write(r.segment(hb.ClosureLine))
	}
	source := strings.TrimSuffix(b.String(), "\n")
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	code := app.Code().Body(highlight(lang, source)...)
	if lang != "" {
		code = code.Class("language-" + sanitizeClass(lang))
	}
	// Long lines scroll inside the block: focusable, so a keyboard can
	// scroll it too.
	pre := app.Pre().Class("md-code").Attr("tabindex", "0").Body(code)
	if _, isHTML := n.(*ast.HTMLBlock); isHTML || r.copy == nil {
		return pre
	}
	id := codeCopyID(r.copy.item, r.codeBlocks)
	r.codeBlocks++
	if f, ok := n.(*ast.FencedCodeBlock); ok && lang == "mermaid" && fenceClosed(f, src) {
		set, ok := r.copy.tr.(Settings)
		if !ok {
			set = DefaultSettings()
		}
		return &MermaidView{Source: source, CopyID: id, Copied: r.copy.copied == id, Settings: set}
	}
	return app.Div().Class("md-codeblock").Body(
		app.Div().Class("md-code-head").Body(
			app.Span().Class("md-code-lang").Text(lang),
			copyButton(id, source, "copy.code", r.copy.copied, r.copy.tr),
		),
		pre,
	)
}

// inline renders the inline nodes other than text.
func (r *mdRenderer) inline(n ast.Node) app.UI {
	if r.inlines >= maxInlineNesting && n.HasChildren() {
		return r.plain(n)
	}
	r.inlines++
	defer func() { r.inlines-- }()
	src := r.src
	kids := func() []app.UI { return r.children(n) }
	switch t := n.(type) {
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if tx, ok := c.(*ast.Text); ok {
				b.Write(r.source(tx.Segment.Start, tx.Segment.Stop))
			} else if s, ok := c.(*ast.String); ok {
				b.Write(s.Value)
			}
		}
		return app.Code().Text(b.String())
	case *ast.Emphasis:
		if t.Level >= 2 {
			return app.Strong().Body(kids()...)
		}
		return app.Em().Body(kids()...)
	case *east.Strikethrough:
		return app.Del().Body(kids()...)
	case *ast.Link:
		return mdLink(string(t.Destination), string(t.Title), kids())
	case *ast.AutoLink:
		label := string(t.Label(src))
		dest := string(t.URL(src))
		if t.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		return mdLink(dest, "", []app.UI{app.Text(label)})
	case *ast.Image:
		// Images from the backend show as links: nothing loads unasked.
		alt := kids()
		if len(alt) == 0 {
			alt = []app.UI{app.Text(string(t.Destination))}
		}
		return mdLink(string(t.Destination), string(t.Title), alt)
	case *mathNode:
		return mathUI(t)
	case *east.TaskCheckBox:
		return app.Input().Type("checkbox").Checked(t.IsChecked).Disabled(true).Class("md-task")
	}
	return app.Span().Body(kids()...)
}

func (r *mdRenderer) table(t *east.Table) app.UI {
	var head, body []app.UI
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		_, isHeader := row.(*east.TableHeader)
		var cells []app.UI
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cell, ok := c.(*east.TableCell)
			if !ok {
				continue
			}
			align := ""
			switch cell.Alignment {
			case east.AlignLeft:
				align = "left"
			case east.AlignRight:
				align = "right"
			case east.AlignCenter:
				align = "center"
			}
			content := r.children(cell)
			if isHeader {
				th := app.Th().Attr("scope", "col").Body(content...)
				if align != "" {
					th = th.Class("align-" + align)
				}
				cells = append(cells, th)
			} else {
				td := app.Td().Body(content...)
				if align != "" {
					td = td.Class("align-" + align)
				}
				cells = append(cells, td)
			}
		}
		if isHeader {
			head = append(head, app.Tr().Body(cells...))
		} else {
			body = append(body, app.Tr().Body(cells...))
		}
	}
	return app.Div().Class("md-table").Body(
		app.Table().Body(app.THead().Body(head...), app.TBody().Body(body...)),
	)
}

// mdLink makes a link that opens in a new tab, or plain text when the URL
// is not http:, https: or mailto:.
func mdLink(dest, title string, label []app.UI) app.UI {
	if !SafeLink(dest) {
		return app.Span().Class("md-unsafe-link").Body(label...)
	}
	a := app.A().Href(dest).Target("_blank").Rel("noopener noreferrer")
	if title != "" {
		a = a.Title(title)
	}
	return a.Body(label...)
}

// SafeLink reports whether a link may be followed: an absolute http:,
// https: or mailto: URL.
func SafeLink(dest string) bool {
	u, err := url.Parse(strings.TrimSpace(dest))
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return u.Opaque != ""
	}
	return false
}

func sanitizeClass(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}
