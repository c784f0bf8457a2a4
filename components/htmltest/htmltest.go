// Package htmltest reads the HTML go-app renders into a tree, so that
// tests assert on elements, their attributes and their text rather than
// on substrings of the markup (whose attribute order go-app does not
// keep). It is for tests only.
package htmltest

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Node is an element, or a text (Tag "").
type Node struct {
	Tag      string
	Attrs    map[string]string
	Children []*Node
	Parent   *Node
	text     string
}

// Parse reads html (encoding/xml's lenient mode reads HTML as go-app
// writes it: void elements, attributes without a value).
func Parse(t testing.TB, html string) *Node {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(html))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	root := &Node{Tag: "#root"}
	cur := root
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root
		}
		if err != nil {
			t.Fatalf("htmltest: %v in\n%s", err, html)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &Node{Tag: tok.Name.Local, Attrs: map[string]string{}, Parent: cur}
			for _, a := range tok.Attr {
				n.Attrs[a.Name.Local] = a.Value
			}
			cur.Children = append(cur.Children, n)
			cur = n
		case xml.EndElement:
			if cur.Parent != nil {
				cur = cur.Parent
			}
		case xml.CharData:
			cur.Children = append(cur.Children, &Node{text: string(tok), Parent: cur})
		}
	}
}

// Render mounts c in go-app's test engine and reads what it renders.
func Render(t testing.TB, c app.Composer) *Node {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return Parse(t, app.HTMLString(c))
}

// Attr is an attribute's value ("" when absent).
func (n *Node) Attr(name string) string { return n.Attrs[name] }

// Has reports whether the element has the attribute.
func (n *Node) Has(name string) bool {
	_, ok := n.Attrs[name]
	return ok
}

// Disabled reports a disabled control (go-app writes disabled="false"
// for an enabled one).
func (n *Node) Disabled() bool {
	v, ok := n.Attrs["disabled"]
	return ok && v != "false"
}

// Text is the text within n, its runs of spaces collapsed and trimmed.
func (n *Node) Text() string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(n *Node) {
		if n.Tag == "" {
			b.WriteString(n.text)
			b.WriteByte(' ')
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// All are the elements within n (n included) that match, in document
// order.
func (n *Node) All(match func(*Node) bool) []*Node {
	var out []*Node
	var walk func(*Node)
	walk = func(n *Node) {
		if n.Tag != "" && match(n) {
			out = append(out, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

// First is the first element that matches, nil when none does.
func (n *Node) First(match func(*Node) bool) *Node {
	if all := n.All(match); len(all) > 0 {
		return all[0]
	}
	return nil
}

// TestID matches the element with that data-testid.
func TestID(id string) func(*Node) bool {
	return func(n *Node) bool { return n.Attrs["data-testid"] == id }
}

// AttrIs matches an element whose attribute name has that value.
func AttrIs(name, value string) func(*Node) bool {
	return func(n *Node) bool { v, ok := n.Attrs[name]; return ok && v == value }
}

// Tag matches elements of that tag.
func Tag(tag string) func(*Node) bool {
	return func(n *Node) bool { return n.Tag == tag }
}
