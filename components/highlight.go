package components

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Syntax highlighting of fenced code: a small hand-written tokenizer per
// language family, drawn as spans with classes (never markup). A library
// (chroma and the like) costs hundreds of kilobytes of wasm; these rules
// cost a few, and a pass is linear in the code, so a code block that
// streams in is re-highlighted on every delta without a stutter. The
// classes (hl-kw, hl-str, ...) are coloured in web/stepwise.css.

// lexer is what a language family's tokenizer needs to know.
type lexer struct {
	line   []string // line comment starters
	block  [2]string
	quotes string // string delimiters
	// Words, each list space-separated and space-padded.
	keywords, literals, builtins string
	fold                         bool // keywords in any case (SQL)
	dashes                       bool // words may hold '-' (shell, CSS)
	dollar                       bool // $NAME and ${...} are variables (shell)
	keys                         bool // a string followed by ':' is a key (JSON)
	triple                       bool // """ and ''' strings (Python)
	markup                       bool // HTML/XML: tags, attributes, comments
	stylesheet                   bool // CSS: selectors, properties, @-rules
}

var (
	lexGo = &lexer{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`",
		keywords: " break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var ",
		literals: " true false nil iota ",
		builtins: " bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable append cap clear close copy delete len make max min new panic print println recover "}
	lexPython = &lexer{line: []string{"#"}, quotes: "\"'", triple: true,
		keywords: " and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case ",
		literals: " True False None self cls ",
		builtins: " print len range int str float bool list dict set tuple open isinstance type super enumerate zip map filter sorted sum min max abs any all repr iter next "}
	lexJS = &lexer{line: []string{"//"}, block: [2]string{"/*", "*/"}, quotes: "\"'`",
		keywords: " abstract as async await break case catch class const continue debugger declare default delete do else enum export extends finally for from function get if implements import in instanceof interface keyof let namespace new of private protected public readonly return set static super switch this throw try type typeof var void while with yield ",
		literals: " true false null undefined NaN Infinity ",
		builtins: " string number boolean any unknown never object bigint symbol console window document JSON Math Promise Array Object String Number Error Map Set "}
	lexJSON = &lexer{quotes: "\"", keys: true, literals: " true false null "}
	lexSQL  = &lexer{line: []string{"--"}, block: [2]string{"/*", "*/"}, quotes: "'\"", fold: true,
		keywords: " add all alter and as asc begin between by case check commit constraint create cross default delete desc distinct drop else end exists foreign from full group having if in index inner insert into is join key left like limit not null offset on or order outer primary references returning right rollback select set table then transaction union unique update using values view when where with ",
		literals: " true false null ",
		builtins: " int integer bigint smallint text varchar char boolean date time timestamp numeric decimal real float serial count sum avg min max coalesce now "}
	lexShell = &lexer{line: []string{"#"}, quotes: "\"'`", dashes: true, dollar: true,
		keywords: " if then else elif fi for while until do done case esac in function return local export readonly select break continue ",
		builtins: " echo cd ls cat grep sed awk printf read set unset source exit test curl wget git make go npm npx node python python3 pip sudo mkdir rm cp mv chmod chown apt apt-get docker kubectl tar ssh "}
	lexHTML = &lexer{markup: true}
	lexCSS  = &lexer{block: [2]string{"/*", "*/"}, quotes: "\"'", dashes: true, stylesheet: true}
)

// lexers maps a fence's language name to its tokenizer.
var lexers = map[string]*lexer{
	"go": lexGo, "golang": lexGo,
	"python": lexPython, "py": lexPython, "python3": lexPython,
	"javascript": lexJS, "js": lexJS, "jsx": lexJS, "mjs": lexJS, "cjs": lexJS,
	"typescript": lexJS, "ts": lexJS, "tsx": lexJS,
	"json": lexJSON, "jsonc": lexJSON, "json5": lexJSON,
	"sql": lexSQL, "postgresql": lexSQL, "postgres": lexSQL, "mysql": lexSQL, "sqlite": lexSQL,
	"bash": lexShell, "sh": lexShell, "shell": lexShell, "zsh": lexShell, "console": lexShell,
	"html": lexHTML, "xml": lexHTML, "svg": lexHTML, "xhtml": lexHTML, "vue": lexHTML,
	"css": lexCSS, "scss": lexCSS, "less": lexCSS,
}

// highlight draws code in language lang as text and classed spans; code in
// a language it does not know stays plain text.
func highlight(lang, code string) []app.UI {
	toks := tokenize(lang, code)
	out := make([]app.UI, len(toks))
	for i, t := range toks {
		if t.class == "" {
			out[i] = app.Text(t.text)
		} else {
			out[i] = app.Span().Class(t.class).Text(t.text)
		}
	}
	return out
}

// hlToken is a stretch of code and its class ("" for plain text).
type hlToken struct{ class, text string }

// tokenize cuts code into tokens, in order: their texts make up the code.
func tokenize(lang, code string) []hlToken {
	lx := lexers[strings.ToLower(lang)]
	if lx == nil || code == "" {
		return []hlToken{{"", code}}
	}
	h := &highlighter{lx: lx, src: code}
	h.run()
	h.flush(len(code))
	return h.out
}

// A token's class: "" is plain text.
const (
	hlKeyword  = "hl-kw"
	hlString   = "hl-str"
	hlNumber   = "hl-num"
	hlComment  = "hl-com"
	hlLiteral  = "hl-lit"  // true, null, None...
	hlBuiltin  = "hl-bi"   // built-in types and functions
	hlFunction = "hl-fn"   // a name called
	hlTag      = "hl-tag"  // HTML tags, CSS selectors
	hlAttr     = "hl-attr" // HTML attributes, CSS properties, JSON keys
	hlVar      = "hl-var"  // shell variables
)

type highlighter struct {
	lx    *lexer
	src   string
	out   []hlToken
	plain int // start of the plain text not yet emitted
}

// emit adds src[from:to] with class cls, after the plain text before it.
func (h *highlighter) emit(from, to int, cls string) {
	if to <= from {
		return
	}
	h.flush(from)
	h.out = append(h.out, hlToken{cls, h.src[from:to]})
	h.plain = to
}

func (h *highlighter) flush(to int) {
	if to > h.plain {
		h.out = append(h.out, hlToken{"", h.src[h.plain:to]})
		h.plain = to
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWordStart(c byte) bool {
	return c == '_' || c == '$' || (c|0x20) >= 'a' && (c|0x20) <= 'z' || c >= 0x80
}
func (h *highlighter) isWord(c byte) bool {
	return isWordStart(c) || isDigit(c) || (h.lx.dashes && c == '-')
}

// inList reports whether word is in the space-padded list.
func inList(list, word string) bool {
	if list == "" || strings.ContainsRune(word, ' ') {
		return false
	}
	i := strings.Index(list, word)
	for i >= 0 {
		if list[i-1] == ' ' && list[i+len(word)] == ' ' {
			return true
		}
		j := strings.Index(list[i+1:], word)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// until is the end of what starts at i and closes with end (its end
// included), or the end of the source when it never closes (it is still
// streaming in).
func (h *highlighter) until(i int, end string) int {
	if j := strings.Index(h.src[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(h.src)
}

// stringEnd is the end of the string opened by quote q at i: past its
// closing quote, at the end of the line for an unclosed one (but
// backquoted and triple-quoted strings span lines).
func (h *highlighter) stringEnd(i int, q string) int {
	s := h.src
	multi := q == "`" || len(q) == 3
	for j := i + len(q); j < len(s); j++ {
		switch {
		case s[j] == '\\' && q != "`":
			j++
		case s[j] == '\n' && !multi:
			return j
		case strings.HasPrefix(s[j:], q):
			return j + len(q)
		}
	}
	return len(s)
}

func (h *highlighter) run() {
	if h.lx.markup {
		h.markup()
		return
	}
	lx, s := h.lx, h.src
	for i := 0; i < len(s); {
		c := s[i]
		if lx.block[0] != "" && strings.HasPrefix(s[i:], lx.block[0]) {
			end := h.until(i+2, lx.block[1])
			h.emit(i, end, hlComment)
			i = end
			continue
		}
		if h.lineComment(i) {
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			h.emit(i, i+end, hlComment)
			i += end
			continue
		}
		if strings.IndexByte(lx.quotes, c) >= 0 {
			q := s[i : i+1]
			if lx.triple && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)) {
				q = s[i : i+3]
			}
			end := h.stringEnd(i, q)
			cls := hlString
			if lx.keys {
				k := end
				for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
					k++
				}
				if k < len(s) && s[k] == ':' {
					cls = hlAttr
				}
			}
			h.emit(i, end, cls)
			i = end
			continue
		}
		if lx.dollar && c == '$' && i+1 < len(s) {
			end := i + 1
			if s[end] == '{' {
				end = h.until(end, "}")
			} else {
				for end < len(s) && (isWordStart(s[end]) || isDigit(s[end])) && s[end] != '$' {
					end++
				}
				if end == i+1 && strings.IndexByte("?#@*!0123456789", s[end]) >= 0 {
					end++
				}
			}
			h.emit(i, end, hlVar)
			i = end
			continue
		}
		if lx.stylesheet && (c == '@' || c == '#' || c == '.') && i+1 < len(s) && h.isWord(s[i+1]) {
			sel := h.selector(i)
			if c == '@' || sel || c == '#' && isHex(s[i+1]) {
				end := i + 1
				for end < len(s) && h.isWord(s[end]) {
					end++
				}
				cls := hlNumber // a colour
				switch {
				case c == '@':
					cls = hlKeyword
				case sel:
					cls = hlTag
				}
				h.emit(i, end, cls)
				i = end
				continue
			}
		}
		if isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]) {
			if i == 0 || !h.isWord(s[i-1]) {
				end := i + 1
				for end < len(s) && (h.isWord(s[end]) || s[end] == '.' || s[end] == '%') {
					end++
				}
				h.emit(i, end, hlNumber)
				i = end
				continue
			}
		}
		if isWordStart(c) || lx.dashes && c == '-' && i+1 < len(s) && isWordStart(s[i+1]) && (i == 0 || !h.isWord(s[i-1])) {
			end := i + 1
			for end < len(s) && h.isWord(s[end]) {
				end++
			}
			h.word(i, end)
			i = end
			continue
		}
		i++
	}
}

func isHex(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }

// lineComment reports whether a line comment starts at i. '#' starts one
// only at a word's start (a shell's a#b, a URL's fragment are no comments).
func (h *highlighter) lineComment(i int) bool {
	for _, lc := range h.lx.line {
		if strings.HasPrefix(h.src[i:], lc) {
			if lc == "#" && i > 0 && h.src[i-1] != ' ' && h.src[i-1] != '\t' && h.src[i-1] != '\n' {
				return false
			}
			return true
		}
	}
	return false
}

// selector reports whether CSS at i is a selector: a '{' comes before any
// ';' or '}'.
func (h *highlighter) selector(i int) bool {
	j := strings.IndexAny(h.src[i:], "{;}")
	return j >= 0 && h.src[i+j] == '{'
}

// word classifies the word at src[from:to].
func (h *highlighter) word(from, to int) {
	lx, w := h.lx, h.src[from:to]
	next := to
	for next < len(h.src) && (h.src[next] == ' ' || h.src[next] == '\t') {
		next++
	}
	called := next < len(h.src) && h.src[next] == '('
	if lx.stylesheet {
		switch {
		case h.selector(from):
			h.emit(from, to, hlTag)
		case next < len(h.src) && h.src[next] == ':':
			h.emit(from, to, hlAttr)
		case called:
			h.emit(from, to, hlFunction)
		}
		return
	}
	key := w
	if lx.fold {
		key = strings.ToLower(w)
	}
	switch {
	case inList(lx.keywords, key):
		h.emit(from, to, hlKeyword)
	case inList(lx.literals, key):
		h.emit(from, to, hlLiteral)
	case inList(lx.builtins, key):
		h.emit(from, to, hlBuiltin)
	case called:
		h.emit(from, to, hlFunction)
	}
}

// markup highlights HTML and XML: comments, tags with their attributes and
// quoted values; text and entities stay plain.
func (h *highlighter) markup() {
	s := h.src
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "<!--") {
			end := h.until(i+4, "-->")
			h.emit(i, end, hlComment)
			i = end
			continue
		}
		if s[i] != '<' || i+1 >= len(s) || !(isWordStart(s[i+1]) || s[i+1] == '/' || s[i+1] == '!' || s[i+1] == '?') {
			i++
			continue
		}
		end := i + 1
		if strings.IndexByte("/!?", s[end]) >= 0 {
			end++
		}
		for end < len(s) && (h.isWord(s[end]) || s[end] == ':' || s[end] == '-') {
			end++
		}
		h.emit(i, end, hlTag)
		i = end
		// Attributes up to the tag's end.
		for i < len(s) && s[i] != '>' && s[i] != '<' {
			switch c := s[i]; {
			case c == '"' || c == '\'':
				e := h.stringEnd(i, s[i:i+1])
				h.emit(i, e, hlString)
				i = e
			case isWordStart(c):
				e := i + 1
				for e < len(s) && (h.isWord(s[e]) || s[e] == '-' || s[e] == ':') {
					e++
				}
				h.emit(i, e, hlAttr)
				i = e
			case c == '/' && i+1 < len(s) && s[i+1] == '>':
				h.emit(i, i+2, hlTag)
				i += 2
			default:
				i++
			}
		}
		if i < len(s) && s[i] == '>' {
			h.emit(i, i+1, hlTag)
			i++
		}
	}
}
