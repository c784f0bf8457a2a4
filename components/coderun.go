package components

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Anthropic's code tools drawn as what they are (state.CodeRun): a
// terminal, a file, a diff, the tools a search found; in place of the
// Request and Response of other tools. The styles are web/renderers.css.
//
// Every kind is laid out the same way (codeLayout: a head, panes, chips)
// and drawn by one function: in app.wasm each call site of go-app's
// builders costs code, so the kinds only say what goes where.

// maxCodeLines bounds the lines a file or diff view draws: past it, a note
// says how many more there are.
const maxCodeLines = 2000

// codeLayout is a code run's view: a head (a title or a path, then short
// notes), panes that scroll, and a list of names under a label (the files
// a command made, the tools a search found).
type codeLayout struct {
	title, path string
	notes       []codeNote
	panes       []codePane
	chipsLabel  string
	chips       []string
}

// codeNote is a note of the head; class colours it (exit-code failed...).
type codeNote struct {
	class, text string
	_           [0]func() // not comparable: no equality code in app.wasm
}

// codePane is a box that scrolls, named by label: a text, or code lines
// (body) beside a gutter of line numbers.
type codePane struct {
	class, label, gutter, text string
	body                       []app.UI
}

// codeRunView is a code tool's details.
func codeRunView(id string, c *state.CodeRun, s Settings) app.UI {
	l := &codeLayout{}
	switch c.Kind {
	case state.CodeTerminal:
		terminalLayout(l, c, s)
	case state.CodeFile:
		fileLayout(l, c, s)
	case state.CodeDiff:
		diffLayout(l, c, s)
	default:
		l.chipsLabel, l.chips = s.T("code.tools_found"), c.Tools
		if c.Query != "" {
			l.notes = []codeNote{{text: s.T("code.searched", c.Query)}}
		}
		if len(c.Tools) == 0 {
			l.panes = []codePane{{class: "code-note-box", text: s.T("code.no_tools")}}
		}
	}
	head := make([]app.UI, 0, len(l.notes)+1)
	if l.title != "" {
		head = append(head, textElem("span", "code-title", l.title))
	}
	if l.path != "" {
		head = append(head, textElem("span", "code-path", l.path))
	}
	for i := range l.notes {
		head = append(head, textElem("span", "code-note "+l.notes[i].class, l.notes[i].text))
	}
	body := []app.UI{elem("div", "code-head", head...)}
	for i := range l.panes {
		p := &l.panes[i]
		switch {
		case p.label == "":
			body = append(body, textElem("div", p.class, p.text))
		case p.body == nil:
			body = append(body, focusable(textElem("pre", p.class, p.text), p.label))
		default:
			gutter := textElem("pre", "file-gutter", p.gutter).Aria("hidden", true)
			body = append(body, focusable(elem("div", "file-body "+p.class, gutter, elem("pre", "file-code", p.body...)), p.label))
		}
	}
	if len(l.chips) > 0 {
		chips := make([]app.UI, len(l.chips))
		for i, name := range l.chips {
			chips[i] = elem("li", "", textElem("code", "", name))
		}
		body = append(body, elem("div", "code-chips", textElem("span", "", l.chipsLabel), elem("ul", "", chips...)))
	}
	return attrs(elem("div", "tool-details code-run", body...), "id", id, "data-code", c.Kind)
}

// elem is an element with a class and children, textElem one with a class
// and a text: never inlined, so that each element costs app.wasm one call.
//
//go:noinline
func elem(tag, class string, kids ...app.UI) app.HTMLElem {
	return app.Elem(tag).Class(class).Body(kids...)
}

//go:noinline
func textElem(tag, class, text string) app.HTMLElem {
	return app.Elem(tag).Class(class).Text(text)
}

// attrs sets attributes given as name, value pairs: one call site in
// app.wasm where a chain of Attr costs one each.
//
//go:noinline
func attrs(e app.HTMLElem, kv ...string) app.HTMLElem {
	for i := 1; i < len(kv); i += 2 {
		e = e.Attr(kv[i-1], kv[i])
	}
	return e
}

// focusable makes a box that scrolls reachable by keyboard, named by label.
func focusable(e app.HTMLElem, label string) app.UI {
	return attrs(e, "tabindex", "0", "aria-label", label)
}

// terminalLayout is a command (or code) that ran: what ran, its output,
// its errors, how it exited and the files it made.
func terminalLayout(l *codeLayout, c *state.CodeRun, s Settings) {
	l.title, l.chipsLabel, l.chips = s.T("code.terminal"), s.T("code.files"), c.Files
	lang, prompt := "bash", "$ "
	if c.Language == "python" {
		l.title, lang, prompt = s.T("code.python"), "python", ""
	}
	if c.ExitCode != nil {
		cls := "exit-code"
		if *c.ExitCode != 0 {
			cls += " failed"
		}
		l.notes = []codeNote{{class: cls, text: s.T("code.exit", *c.ExitCode)}}
	}
	code := append([]app.UI{app.Text(prompt)}, highlight(lang, c.Command)...)
	l.panes = []codePane{{class: "terminal-command", label: l.title, body: code}}
	if c.Stdout != "" {
		l.panes = append(l.panes, codePane{class: "terminal-out", label: s.T("code.stdout"), text: c.Stdout})
	}
	if c.Stderr != "" {
		l.panes = append(l.panes, codePane{class: "terminal-err", label: s.T("code.stderr"), text: c.Stderr})
	}
	if c.Stdout == "" && c.Stderr == "" {
		l.panes = append(l.panes, codePane{class: "code-note-box", text: s.T("code.no_output")})
	}
}

// fileLayout is a file viewed or created: its path, what was done, and its
// text with line numbers.
func fileLayout(l *codeLayout, c *state.CodeRun, s Settings) {
	note := s.T("code.viewed")
	if c.Replaced {
		note = s.T("code.replaced")
	} else if c.TotalLines == 0 {
		note = s.T("code.created")
	}
	l.path, l.notes = c.Path, []codeNote{{text: note}}
	lines := strings.Split(strings.TrimSuffix(c.Text, "\n"), "\n")
	n := len(lines)
	switch {
	case c.FileType != "" && c.FileType != "text":
		l.panes = []codePane{{class: "code-note-box", text: s.T("code.not_text", c.FileType)}}
		return
	case c.Text == "":
		l.panes = []codePane{{class: "code-note-box", text: s.T("code.empty_file")}}
		return
	case c.TotalLines > n || c.FirstLine > 1:
		last := c.FirstLine + n - 1
		note = s.T("code.lines_of", c.FirstLine, last, max(c.TotalLines, last))
	default:
		note = s.N("code.lines", n)
	}
	l.notes = append(l.notes, codeNote{text: note})
	shown := lines[:min(n, maxCodeLines)]
	var gutter strings.Builder
	for i := range shown {
		gutter.WriteString(strconv.Itoa(c.FirstLine+i) + "\n")
	}
	l.panes = []codePane{{label: c.Path, gutter: gutter.String(), body: highlight(fileLanguage(c.Path), strings.Join(shown, "\n"))}}
	l.panes = moreLines(l.panes, n, s)
}

// moreLines adds the note that total lines were more than are shown.
func moreLines(panes []codePane, total int, s Settings) []codePane {
	if total <= maxCodeLines {
		return panes
	}
	return append(panes, codePane{class: "code-note-box", text: s.N("code.more_lines", total-maxCodeLines)})
}

// fileLanguage is the highlighter's language for a path: its extension,
// which the highlighter knows by the usual names (py, js, sh...).
func fileLanguage(path string) string {
	dot := strings.LastIndexByte(path, '.')
	if dot < 0 || strings.ContainsRune(path[dot:], '/') {
		return ""
	}
	return path[dot+1:]
}

// diffLayout is an edit as a unified diff: a line per change, marked by
// its sign and colour, beside the old and new line numbers when the
// result said where the edit starts; how many lines were added and
// removed, in the head.
func diffLayout(l *codeLayout, c *state.CodeRun, s Settings) {
	added, removed := 0, 0
	shown := c.Diff[:min(len(c.Diff), maxCodeLines)]
	rows := make([]app.UI, len(shown))
	var gutter strings.Builder
	oldN, newN := c.OldStart, c.NewStart
	for i, line := range shown {
		cls, nums := "diff-line", pad(oldN)+" "+pad(newN)
		switch {
		case strings.HasPrefix(line, "+"):
			cls, nums, added = "diff-line diff-add", "     "+pad(newN), added+1
			oldN--
		case strings.HasPrefix(line, "-"):
			cls, nums, removed = "diff-line diff-del", pad(oldN), removed+1
			newN--
		}
		oldN, newN = oldN+1, newN+1
		gutter.WriteString(nums + "\n")
		rows[i] = textElem("span", cls, line+"\n")
	}
	if c.OldStart == 0 || c.NewStart == 0 {
		gutter.Reset() // not known
	}
	l.path, l.notes = c.Path, []codeNote{{class: "diff-stat", text: "+" + strconv.Itoa(added) + " −" + strconv.Itoa(removed)}}
	l.panes = moreLines([]codePane{{class: "diff-body", label: s.T("code.diff", c.Path, added, removed), gutter: gutter.String(), body: rows}}, len(c.Diff), s)
}

// pad right-aligns a line number in four columns.
func pad(n int) string {
	v := strconv.Itoa(n)
	return strings.Repeat(" ", max(0, 4-len(v))) + v
}

// codePreview is what a code tool's row says beside its label once its
// result came: the file's path, the command or the code's first line, or
// how many tools a search found.
func codePreview(t *state.Tool, s Settings) string {
	c := t.Code
	switch {
	case c == nil || t.ErrorCode != "":
		return ""
	case c.Kind == state.CodeTools:
		return s.N("code.tools_count", len(c.Tools))
	case c.Path != "":
		return c.Path
	}
	return firstLine(c.Command, 80)
}
