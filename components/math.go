package components

import (
	"errors"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// TeX math in answers ($…$, $$…$$, \(…\), \[…\]) drawn as MathML Core
// elements, which Chromium lays out natively: a small converter for the
// common subset (letters, numbers, operators, Greek, fractions, roots,
// sub- and superscripts, sums and integrals with limits, accents, \text,
// matrices and cases). What it cannot read shows as its source, as code.
// A full TeX engine (KaTeX, MathJax) would be JavaScript and hundreds of
// kilobytes; this is a few kilobytes of wasm.

// mathNode is a math span of an answer: its TeX, and whether it is display
// math ($$…$$, \[…\]).
type mathNode struct {
	ast.BaseInline
	TeX     string
	Display bool
	Source  string // with its delimiters, shown when the TeX cannot be read
}

var kindMath = ast.NewNodeKind("Math")

func (n *mathNode) Kind() ast.NodeKind { return kindMath }
func (n *mathNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"TeX": n.TeX}, nil)
}

// mathParser finds math spans. Its rules keep prices prices: an opening $
// is followed by no space, a closing $ follows no space and is followed by
// no digit, and an inline $…$ stays on one line ("$5 and $10" is text).
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$', '\\'} }

func (mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	var open, close string
	switch {
	case len(line) >= 2 && line[0] == '$' && line[1] == '$':
		open, close = "$$", "$$"
	case len(line) >= 1 && line[0] == '$':
		open, close = "$", "$"
	case len(line) >= 2 && line[0] == '\\' && line[1] == '(':
		open, close = `\(`, `\)`
	case len(line) >= 2 && line[0] == '\\' && line[1] == '[':
		open, close = `\[`, `\]`
	default:
		return nil
	}
	if open == "$" {
		rest := line[1:]
		if len(rest) == 0 || util.IsSpace(rest[0]) {
			return nil
		}
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '$':
				if util.IsSpace(rest[i-1]) || i+1 < len(rest) && (rest[i+1] >= '0' && rest[i+1] <= '9') {
					continue
				}
				tex := string(rest[:i])
				block.Advance(i + 2)
				return &mathNode{TeX: tex, Source: "$" + tex + "$"}
			case '\n':
				return nil
			}
		}
		return nil
	}
	// $$…$$, \(…\) and \[…\] may span lines: the paragraph's own lines,
	// read the way goldmark's code span parser reads them.
	_ = seg
	var tex strings.Builder
	rest := line[len(open):]
	skip := len(open)
	for {
		if i := strings.Index(string(rest), close); i >= 0 {
			tex.Write(rest[:i])
			block.Advance(skip + i + len(close))
			t := tex.String()
			return &mathNode{TeX: t, Display: open != `\(`, Source: open + t + close}
		}
		tex.Write(rest)
		block.AdvanceLine()
		rest, _ = block.PeekLine()
		skip = 0
		if rest == nil {
			return nil
		}
	}
}

const mathNS = "http://www.w3.org/1998/Math/MathML"

// mathUI draws a math node: MathML, or its source as code.
func mathUI(n *mathNode) app.UI {
	p := &texParser{src: strings.TrimSpace(n.TeX)}
	kids := p.row(0)
	if p.err == nil && p.pos < len(p.src) {
		p.err = errors.New("unexpected " + p.src[p.pos:p.pos+1])
	}
	if p.err != nil || len(kids) == 0 {
		return app.Code().Class("math-source").Text(n.Source)
	}
	m := app.Elem("math").XMLNS(mathNS)
	if n.Display {
		// A wide formula scrolls in its box: focusable, so a keyboard can
		// scroll it in every browser (Safari does not focus scrollers).
		// Inline formulas are not: an answer may hold dozens, each would
		// be a tab stop; Chromium and Firefox focus the rare one that
		// overflows by themselves.
		m = m.Attr("display", "block").Attr("tabindex", "0")
	}
	return m.Body(mel("mrow", kids...))
}

func mel(tag string, kids ...app.UI) app.UI { return app.Elem(tag).XMLNS(mathNS).Body(kids...) }
func mtok(tag, text string) app.HTMLElem    { return app.Elem(tag).XMLNS(mathNS).Text(text) }

// fences are the brackets MathML stretches by default; TeX keeps a plain
// bracket its size (f(x^2) has small parentheses), and only \left and
// \right (and the matrices') grow.
var fences = map[string]bool{"(": true, ")": true, "[": true, "]": true, "{": true, "}": true, "|": true,
	"‖": true, "⟨": true, "⟩": true, "⌊": true, "⌋": true, "⌈": true, "⌉": true}

// fence marks a bracket that must not stretch.
func fence(mo app.HTMLElem, text string) app.HTMLElem {
	if fences[text] {
		return mo.Attr("stretchy", "false")
	}
	return mo
}

// texParser reads TeX into MathML elements; err is set on the first thing
// it cannot read.
type texParser struct {
	src   string
	pos   int
	err   error
	env   string // the matrix environment being read, if any
	depth int    // rows and atoms being read, one inside another
}

// maxTeXNesting caps how deep rows and atoms nest in a formula: a formula
// nested deeper shows as its source, like one it cannot read. Each level
// draws at most two elements, and Chromium's MathML layout grows faster
// than the depth, as does the wasm's recursion on V8's stack
// (docs/security.md, "Rendering limits"). A real formula nests a few
// levels; a fraction in a fraction costs two.
const maxTeXNesting = 64

// nest enters one more level of nesting, and fails past maxTeXNesting.
func (p *texParser) nest() bool {
	p.depth++
	if p.depth > maxTeXNesting {
		p.fail("nested too deeply")
		return false
	}
	return true
}

func (p *texParser) fail(msg string) {
	if p.err == nil {
		p.err = errors.New(msg)
	}
}

// row reads atoms until the end, a closing brace, or (in a matrix) a cell
// or row end. stop is the brace depth: at 0 a '}' is an error.
func (p *texParser) row(depth int) []app.UI {
	var out []app.UI
	if p.nest() {
		out = p.rowItems(depth)
	}
	p.depth--
	return out
}

func (p *texParser) rowItems(depth int) []app.UI {
	var out []app.UI
	for p.err == nil {
		p.skipSpace()
		if p.pos >= len(p.src) {
			if depth > 0 {
				p.fail("missing }")
			}
			return out
		}
		c := p.src[p.pos]
		if c == '}' {
			if depth == 0 {
				p.fail("unexpected }")
			}
			return out
		}
		if p.env != "" && (c == '&' || strings.HasPrefix(p.src[p.pos:], `\\`) || strings.HasPrefix(p.src[p.pos:], `\end`)) {
			return out
		}
		if c == '^' || c == '_' {
			// A script with nothing before it.
			out = append(out, p.scripts(mtok("mrow", ""), false))
			continue
		}
		base, big := p.atom()
		if base == nil {
			continue
		}
		out = append(out, p.scripts(base, big))
	}
	return out
}

func (p *texParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\n' || p.src[p.pos] == '\t' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

// scripts reads the _ and ^ after base. Big operators (sums, limits) take
// their limits under and over.
func (p *texParser) scripts(base app.UI, big bool) app.UI {
	var sub, sup app.UI
	for p.err == nil {
		p.skipSpace()
		if p.pos >= len(p.src) || (p.src[p.pos] != '_' && p.src[p.pos] != '^') {
			break
		}
		c := p.src[p.pos]
		p.pos++
		arg := p.arg()
		if c == '_' {
			sub = arg
		} else {
			sup = arg
		}
	}
	switch {
	case sub != nil && sup != nil:
		if big {
			return mel("munderover", base, sub, sup)
		}
		return mel("msubsup", base, sub, sup)
	case sub != nil:
		if big {
			return mel("munder", base, sub)
		}
		return mel("msub", base, sub)
	case sup != nil:
		if big {
			return mel("mover", base, sup)
		}
		return mel("msup", base, sup)
	}
	return base
}

// arg reads one argument: a group or a single atom.
func (p *texParser) arg() app.UI {
	p.skipSpace()
	if p.pos >= len(p.src) {
		p.fail("missing argument")
		return nil
	}
	if p.src[p.pos] == '{' {
		return p.group()
	}
	if p.src[p.pos] >= '0' && p.src[p.pos] <= '9' { // x^23 is x² then 3
		p.pos++
		return mtok("mn", p.src[p.pos-1:p.pos])
	}
	a, _ := p.atom()
	if a == nil {
		p.fail("missing argument")
	}
	return a
}

// group reads {…} as one row.
func (p *texParser) group() app.UI {
	p.pos++ // {
	env := p.env
	p.env = ""
	kids := p.row(1)
	p.env = env
	if p.err == nil {
		p.pos++ // }
	}
	return mel("mrow", kids...)
}

// text reads a {…} argument as plain text.
func (p *texParser) text() string {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '{' {
		p.fail("missing {")
		return ""
	}
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		p.fail("missing }")
		return ""
	}
	s := p.src[p.pos+1 : p.pos+end]
	p.pos += end + 1
	return s
}

// atom reads one element; big is true for operators whose limits go
// under and over.
func (p *texParser) atom() (ui app.UI, big bool) {
	if p.nest() {
		ui, big = p.atomOf()
	}
	p.depth--
	return ui, big
}

func (p *texParser) atomOf() (ui app.UI, big bool) {
	s := p.src
	c := s[p.pos]
	switch {
	case c == '{':
		return p.group(), false
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(s) && s[p.pos+1] >= '0' && s[p.pos+1] <= '9':
		end := p.pos
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
			end++
		}
		n := s[p.pos:end]
		p.pos = end
		return mtok("mn", n), false
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		p.pos++
		return mtok("mi", string(c)), false
	case c == '\\':
		return p.command()
	case c == '&' || c == '#' || c == '%' || c == '$':
		p.fail("unexpected " + string(c))
		return nil, false
	case c == '\'':
		p.pos++
		return mtok("mo", "′"), false
	case c == '-':
		// TeX's minus is the minus sign, not the shorter hyphen.
		p.pos++
		return mtok("mo", "−"), false
	case c < 0x80:
		p.pos++
		return fence(mtok("mo", string(c)), string(c)), false
	}
	// Any other character (a Unicode letter or symbol) as it is.
	r := []rune(s[p.pos:])[0]
	p.pos += len(string(r))
	return mtok("mi", string(r)), false
}

// command reads \name and what it takes.
func (p *texParser) command() (app.UI, bool) {
	s := p.src
	p.pos++ // backslash
	if p.pos >= len(s) {
		p.fail("lone \\")
		return nil, false
	}
	start := p.pos
	for p.pos < len(s) && (s[p.pos] >= 'a' && s[p.pos] <= 'z' || s[p.pos] >= 'A' && s[p.pos] <= 'Z') {
		p.pos++
	}
	if p.pos == start { // \{ \, \; and the like
		p.pos++
	}
	name := s[start:p.pos]
	if v, ok := texSymbols[name]; ok {
		tag := "mo"
		if v[0] == 'i' {
			return mtok("mi", v[1:]), false
		}
		return fence(mtok(tag, v[1:]), v[1:]), false
	}
	if v, ok := texBigOps[name]; ok {
		tag := "mo"
		if v[0] < 0x80 { // lim, max: names
			tag = "mi"
		}
		return mtok(tag, v), !strings.Contains(name, "int")
	}
	if w, ok := texSpaces[name]; ok {
		return app.Elem("mspace").XMLNS(mathNS).Attr("width", w), false
	}
	if strings.Contains(texFunctions, " "+name+" ") {
		return mtok("mi", name), false
	}
	switch name {
	case "frac", "dfrac", "tfrac", "binom":
		a := p.arg()
		b := p.arg()
		if name == "binom" {
			return mel("mrow", mtok("mo", "("), app.Elem("mfrac").XMLNS(mathNS).Attr("linethickness", "0").Body(a, b), mtok("mo", ")")), false
		}
		return mel("mfrac", a, b), false
	case "sqrt":
		p.skipSpace()
		if p.pos < len(s) && s[p.pos] == '[' {
			end := strings.IndexByte(s[p.pos:], ']')
			if end < 0 {
				p.fail("missing ]")
				return nil, false
			}
			idx := &texParser{src: s[p.pos+1 : p.pos+end], depth: p.depth}
			index := idx.row(0)
			if idx.err != nil {
				p.fail(idx.err.Error())
			}
			p.pos += end + 1
			return mel("mroot", p.arg(), mel("mrow", index...)), false
		}
		return mel("msqrt", p.arg()), false
	case "text", "textrm", "mbox", "textit", "textbf":
		return mtok("mtext", p.text()), false
	case "mathrm", "operatorname", "mathit", "mathbf", "mathsf", "mathtt", "boldsymbol", "mathcal":
		t := p.text()
		if name == "mathrm" || name == "operatorname" {
			return app.Elem("mi").XMLNS(mathNS).Attr("mathvariant", "normal").Text(t), false
		}
		return mtok("mi", t), false
	case "mathbb":
		t := p.text()
		var b strings.Builder
		for _, r := range t {
			if d, ok := doubleStruck[r]; ok {
				b.WriteRune(d)
			} else {
				b.WriteRune(r)
			}
		}
		return mtok("mi", b.String()), false
	case "hat", "bar", "vec", "dot", "ddot", "tilde", "overline", "widehat", "widetilde":
		base := p.arg()
		return app.Elem("mover").XMLNS(mathNS).Attr("accent", "true").Body(base, mtok("mo", texAccents[name])), false
	case "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr":
		p.skipSpace()
		if p.pos >= len(s) {
			p.fail("missing delimiter")
			return nil, false
		}
		if s[p.pos] == '.' {
			p.pos++
			return nil, false
		}
		d, _ := p.atom()
		if e, ok := d.(app.HTMLElem); ok {
			// Only these delimiters grow with what they enclose.
			d = e.Attr("stretchy", "true")
		}
		return d, false
	case "begin":
		return p.environment(), false
	case "displaystyle", "textstyle", "limits", "nolimits":
		return nil, false
	}
	p.fail("unknown command \\" + name)
	return nil, false
}

// environment reads \begin{name}…\end{name}: matrices and cases.
func (p *texParser) environment() app.UI {
	name := p.text()
	open, close, ok := "", "", true
	switch name {
	case "matrix", "smallmatrix", "aligned", "align", "align*", "array", "gathered":
	case "pmatrix":
		open, close = "(", ")"
	case "bmatrix":
		open, close = "[", "]"
	case "Bmatrix":
		open, close = "{", "}"
	case "vmatrix":
		open, close = "|", "|"
	case "cases":
		open = "{"
	default:
		ok = false
	}
	if !ok {
		p.fail("unknown environment " + name)
		return nil
	}
	if name == "array" {
		p.text() // column spec
	}
	env := p.env
	p.env = name
	var rows, cells []app.UI
	for p.err == nil {
		cells = append(cells, mel("mtd", p.row(0)...))
		if p.err != nil {
			break
		}
		switch {
		case p.pos >= len(p.src):
			p.fail("missing \\end{" + name + "}")
		case p.src[p.pos] == '&':
			p.pos++
			continue
		case strings.HasPrefix(p.src[p.pos:], `\\`):
			p.pos += 2
			rows = append(rows, mel("mtr", cells...))
			cells = nil
			continue
		}
		break
	}
	p.env = env
	if p.err != nil {
		return nil
	}
	p.pos += len(`\end`)
	if end := p.text(); end != name {
		p.fail("\\end{" + end + "} for \\begin{" + name + "}")
		return nil
	}
	rows = append(rows, mel("mtr", cells...))
	table := mel("mtable", rows...)
	if open == "" && close == "" {
		return table
	}
	kids := []app.UI{mtok("mo", open), table}
	if close != "" {
		kids = append(kids, mtok("mo", close))
	}
	return mel("mrow", kids...)
}

// texSymbols: a command's character, after "i" (an identifier) or "o" (an
// operator).
var texSymbols = map[string]string{
	"alpha": "iα", "beta": "iβ", "gamma": "iγ", "delta": "iδ", "epsilon": "iϵ", "varepsilon": "iε", "zeta": "iζ", "eta": "iη",
	"theta": "iθ", "vartheta": "iϑ", "iota": "iι", "kappa": "iκ", "lambda": "iλ", "mu": "iμ", "nu": "iν", "xi": "iξ", "pi": "iπ",
	"varpi": "iϖ", "rho": "iρ", "varrho": "iϱ", "sigma": "iσ", "varsigma": "iς", "tau": "iτ", "upsilon": "iυ", "phi": "iϕ",
	"varphi": "iφ", "chi": "iχ", "psi": "iψ", "omega": "iω",
	"Gamma": "iΓ", "Delta": "iΔ", "Theta": "iΘ", "Lambda": "iΛ", "Xi": "iΞ", "Pi": "iΠ", "Sigma": "iΣ", "Upsilon": "iΥ",
	"Phi": "iΦ", "Psi": "iΨ", "Omega": "iΩ",
	"infty": "i∞", "partial": "i∂", "nabla": "i∇", "emptyset": "i∅", "varnothing": "i∅", "hbar": "iℏ", "ell": "iℓ",
	"Re": "iℜ", "Im": "iℑ", "aleph": "iℵ",
	"pm": "o±", "mp": "o∓", "times": "o×", "div": "o÷", "cdot": "o⋅", "ast": "o∗", "star": "o⋆", "circ": "o∘", "bullet": "o•",
	"leq": "o≤", "le": "o≤", "geq": "o≥", "ge": "o≥", "neq": "o≠", "ne": "o≠", "approx": "o≈", "equiv": "o≡", "sim": "o∼",
	"simeq": "o≃", "cong": "o≅", "propto": "o∝", "ll": "o≪", "gg": "o≫", "to": "o→", "rightarrow": "o→", "leftarrow": "o←",
	"gets": "o←", "Rightarrow": "o⇒", "Leftarrow": "o⇐", "Leftrightarrow": "o⇔", "leftrightarrow": "o↔", "implies": "o⟹",
	"iff": "o⟺", "mapsto": "o↦", "in": "o∈", "notin": "o∉", "ni": "o∋", "subset": "o⊂", "supset": "o⊃", "subseteq": "o⊆",
	"supseteq": "o⊇", "cup": "o∪", "cap": "o∩", "setminus": "o∖", "forall": "o∀", "exists": "o∃", "neg": "o¬", "lnot": "o¬",
	"land": "o∧", "wedge": "o∧", "lor": "o∨", "vee": "o∨", "oplus": "o⊕", "otimes": "o⊗", "perp": "o⊥", "parallel": "o∥",
	"mid": "o∣", "angle": "o∠", "cdots": "o⋯", "ldots": "o…", "dots": "o…", "vdots": "o⋮", "ddots": "o⋱", "prime": "o′",
	"langle": "o⟨", "rangle": "o⟩", "lfloor": "o⌊", "rfloor": "o⌋", "lceil": "o⌈", "rceil": "o⌉", "{": "o{", "}": "o}",
	"|": "o‖", "lvert": "o|", "rvert": "o|", "vert": "o|", "Vert": "o‖", "%": "o%", "$": "o$", "#": "o#", "&": "o&", "_": "o_",
	"deg": "o°", "degree": "o°",
}

// texBigOps take limits: under and over for sums and the like, as scripts
// for integrals.
var texBigOps = map[string]string{
	"sum": "∑", "prod": "∏", "coprod": "∐", "bigcup": "⋃", "bigcap": "⋂", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮",
	"lim": "lim", "max": "max", "min": "min", "sup": "sup", "inf": "inf", "limsup": "lim sup", "liminf": "lim inf", "argmax": "arg max", "argmin": "arg min",
}

// texFunctions are upright names.
const texFunctions = " sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln lg exp det dim ker gcd lcm deg hom arg Pr mod "

var texSpaces = map[string]string{",": "0.1667em", ":": "0.2222em", ";": "0.2778em", "!": "0", " ": "0.25em", "quad": "1em", "qquad": "2em"}

var texAccents = map[string]string{"hat": "^", "widehat": "^", "bar": "‾", "overline": "‾", "vec": "→", "dot": "˙", "ddot": "¨", "tilde": "~", "widetilde": "~"}

var doubleStruck = map[rune]rune{'R': 'ℝ', 'N': 'ℕ', 'Z': 'ℤ', 'Q': 'ℚ', 'C': 'ℂ', 'P': 'ℙ', 'H': 'ℍ', 'E': '𝔼', '1': '𝟙'}
