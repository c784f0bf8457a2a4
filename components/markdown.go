package components

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// markdownParser parses CommonMark with GitHub's tables, strikethrough,
// task lists and autolinks. Its AST is turned into go-app elements: backend
// text never becomes HTML markup, so raw HTML in it shows as text.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// Markdown renders src as elements.
func Markdown(src string) []app.UI {
	b := []byte(src)
	doc := markdownParser.Parse(text.NewReader(b))
	return mdChildren(doc, b)
}

func mdChildren(n ast.Node, src []byte) []app.UI {
	var out []app.UI
	var pending strings.Builder // adjacent text runs join into one text node
	flush := func() {
		if pending.Len() > 0 {
			out = append(out, app.Text(pending.String()))
			pending.Reset()
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			pending.Write(t.Segment.Value(src))
			switch {
			case t.HardLineBreak():
				flush()
				out = append(out, app.Br())
			case t.SoftLineBreak():
				pending.WriteByte('\n')
			}
			continue
		case *ast.String:
			pending.Write(t.Value)
			continue
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				pending.Write(seg.Value(src))
			}
			continue
		}
		flush()
		if ui := mdNode(c, src); ui != nil {
			out = append(out, ui)
		}
	}
	flush()
	return out
}

func mdNode(n ast.Node, src []byte) app.UI {
	kids := func() []app.UI { return mdChildren(n, src) }
	switch t := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if _, tight := n.(*ast.TextBlock); tight {
			return app.Span().Body(kids()...)
		}
		return app.P().Body(kids()...)
	case *ast.Heading:
		switch t.Level {
		case 1:
			return app.H2().Class("md-h1").Body(kids()...)
		case 2:
			return app.H3().Class("md-h2").Body(kids()...)
		default:
			return app.H4().Class("md-h3").Body(kids()...)
		}
	case *ast.ThematicBreak:
		return app.Hr()
	case *ast.Blockquote:
		return app.Blockquote().Body(kids()...)
	case *ast.List:
		if t.IsOrdered() {
			ol := app.Ol()
			if t.Start > 1 {
				ol = ol.Attr("start", t.Start)
			}
			return ol.Body(kids()...)
		}
		return app.Ul().Body(kids()...)
	case *ast.ListItem:
		return app.Li().Body(kids()...)
	case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
			b.Write(hb.ClosureLine.Value(src))
		}
		code := app.Code().Text(strings.TrimSuffix(b.String(), "\n"))
		if f, ok := n.(*ast.FencedCodeBlock); ok {
			if l := string(f.Language(src)); l != "" {
				code = code.Class("language-" + sanitizeClass(l))
			}
		}
		return app.Pre().Class("md-code").Body(code)
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if tx, ok := c.(*ast.Text); ok {
				b.Write(tx.Segment.Value(src))
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
	case *east.TaskCheckBox:
		return app.Input().Type("checkbox").Checked(t.IsChecked).Disabled(true).Class("md-task")
	case *east.Table:
		return mdTable(t, src)
	}
	// Anything else keeps its text.
	return app.Span().Body(kids()...)
}

func mdTable(t *east.Table, src []byte) app.UI {
	var head, body []app.UI
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		_, isHeader := r.(*east.TableHeader)
		var cells []app.UI
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
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
			content := mdChildren(cell, src)
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
