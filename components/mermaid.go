package components

import (
	"bytes"
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark/ast"
)

// MermaidView is a mermaid code fence drawn as a diagram, once its fence is
// closed (while it streams it is code). Mermaid runs in a frame sandboxed
// without allow-same-origin (web/mermaid/frame.html): an opaque origin
// with its own CSP, so the diagram's text cannot reach the page, its
// cookies or storage, nor the network. The source is one click away (and
// is what shows when Mermaid is not installed: docs/renderers.md).
type MermaidView struct {
	app.Compo
	Source string
	// CopyID, Copied: the copy button of the source (copy.go).
	CopyID   string
	Copied   bool
	Settings Settings

	showSource bool
	_          [0]func() // not comparable: no equality code in app.wasm
}

func (v *MermaidView) toggle(ctx app.Context, e app.Event) { v.showSource = !v.showSource }

func (v *MermaidView) Render() app.UI {
	s := v.Settings
	var body app.UI
	if v.showSource {
		body = attrs(elem("pre", "md-code", textElem("code", "", v.Source)), "tabindex", "0")
	} else {
		// The source rides in the fragment: never sent to the server.
		body = attrs(elem("iframe", "mermaid-frame"), "src", "web/mermaid/frame.html#"+url.PathEscape(v.Source),
			"sandbox", "allow-scripts", "referrerpolicy", "no-referrer", "title", s.T("mermaid.title"))
	}
	return elem("div", "md-codeblock mermaid",
		elem("div", "md-code-head",
			textElem("span", "md-code-lang", "mermaid"),
			attrs(textElem("button", "mermaid-toggle", s.T("mermaid.source")), "type", "button", "aria-pressed", strconv.FormatBool(v.showSource)).OnClick(v.toggle),
			copyButton(v.CopyID, v.Source, "copy.code", copiedID(v.Copied, v.CopyID), s),
		),
		body,
	)
}

// copiedID is the id copyButton compares with its own.
func copiedID(copied bool, id string) string {
	if copied {
		return id
	}
	return ""
}

// fenceClosed reports whether a fenced code block has its closing fence in
// src: the line after its last line starts with ``` or ~~~ (after up to
// three spaces). A fence still streaming has none yet.
func fenceClosed(f *ast.FencedCodeBlock, src []byte) bool {
	lines := f.Lines()
	if lines.Len() == 0 {
		return false
	}
	rest := bytes.TrimPrefix(src[lines.At(lines.Len()-1).Stop:], []byte("\n"))
	rest = bytes.TrimLeft(rest, " ")
	return bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~"))
}
