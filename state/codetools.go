package state

import (
	"encoding/json"

	"stepwise/state/wire"
)

// Anthropic's code tools (code execution, its bash and text editor
// commands, tool search) return structured results. The store reads each
// into a CodeRun, which the UI draws as what it is: a terminal, a file, a
// diff, the tools found. Their Result text stays as BACKENDS.md says.

// The kinds of CodeRun.
const (
	CodeTerminal = "terminal" // a command or code that ran, and its output
	CodeFile     = "file"     // a file viewed or created
	CodeDiff     = "diff"     // a file edited in place (str_replace)
	CodeTools    = "tools"    // the tools a tool search found
)

// CodeRun is a code tool's result read for its own view; the view model's
// tool `code` (docs/protocol-extensions.md).
type CodeRun struct {
	Kind string `json:"kind"`
	// Terminal: the bash command, or the code a code_execution ran
	// (Language "python"); its output, exit code and the ids of the files
	// it made.
	Command  string   `json:"command,omitempty"`
	Language string   `json:"language,omitempty"`
	Stdout   string   `json:"stdout,omitempty"`
	Stderr   string   `json:"stderr,omitempty"`
	ExitCode *int     `json:"exit_code,omitempty"`
	Files    []string `json:"files,omitempty"`
	// File and diff: the file's path. A file's Text is what was viewed
	// (from line FirstLine of TotalLines) or created (Replaced: over a
	// file that was there); FileType is "text" unless the view said
	// otherwise (image, pdf: no text to show).
	Path       string `json:"path,omitempty"`
	Text       string `json:"text,omitempty"`
	FileType   string `json:"file_type,omitempty"`
	FirstLine  int    `json:"first_line,omitempty"`
	TotalLines int    `json:"total_lines,omitempty"`
	Replaced   bool   `json:"replaced,omitempty"`
	// Diff: the edit's lines, each starting with ' ', '-' or '+', and
	// where the hunk starts in the old and new file (0: not known).
	Diff     []string `json:"diff,omitempty"`
	OldStart int      `json:"old_start,omitempty"`
	NewStart int      `json:"new_start,omitempty"`
	// Tools: the search's query (or pattern) and the tools it found.
	Query string   `json:"query,omitempty"`
	Tools []string `json:"tools,omitempty"`
}

// codeInput is what the code tools' inputs hold.
type codeInput struct {
	Command  string    `json:"command"`
	Code     string    `json:"code"`
	Path     string    `json:"path"`
	FileText string    `json:"file_text"`
	Query    string    `json:"query"`
	Pattern  string    `json:"pattern"`
	_        [0]func() // not comparable: no equality code in app.wasm
}

// codeContent is what their results' content holds.
type codeContent struct {
	Type       string          `json:"type"`
	Stdout     string          `json:"stdout"`
	Stderr     string          `json:"stderr"`
	ReturnCode json.RawMessage `json:"return_code"`
	Content    json.RawMessage `json:"content"` // a list of output files, or a viewed file's text
	FileType   string          `json:"file_type"`
	StartLine  int             `json:"start_line"`
	TotalLines int             `json:"total_lines"`
	IsUpdate   bool            `json:"is_file_update"`
	Lines      []string        `json:"lines"`
	OldStart   int             `json:"old_start"`
	NewStart   int             `json:"new_start"`
	ToolRefs   []struct {
		ToolName string `json:"tool_name"`
	} `json:"tool_references"`
}

// isCodeResult reports whether a result content's type is one CodeRunOf
// reads.
func isCodeResult(typ string) bool {
	switch typ {
	case "code_execution_result", "bash_code_execution_result",
		"text_editor_code_execution_view_result", "text_editor_code_execution_create_result",
		"text_editor_code_execution_str_replace_result", "tool_search_tool_search_result":
		return true
	}
	return false
}

// readCodeRun reads a code tool's result content (of type typ) with the
// tool's input; nil when it is none of theirs.
func readCodeRun(typ string, content, input json.RawMessage) *CodeRun {
	if !isCodeResult(typ) {
		return nil
	}
	var c codeContent
	var in codeInput
	// Fields of another type than expected stay empty; the rest is read.
	_ = json.Unmarshal(content, &c)
	_ = json.Unmarshal(input, &in)
	r := &CodeRun{}
	switch typ {
	case "code_execution_result", "bash_code_execution_result":
		r.Kind, r.Command, r.Language = CodeTerminal, in.Command, "bash"
		if typ == "code_execution_result" {
			r.Command, r.Language = in.Code, "python"
		}
		r.Stdout, r.Stderr = c.Stdout, c.Stderr
		var code int
		if json.Unmarshal(c.ReturnCode, &code) == nil {
			r.ExitCode = &code
		}
		var files []struct {
			FileID string `json:"file_id"`
		}
		_ = json.Unmarshal(c.Content, &files)
		for _, f := range files {
			if f.FileID != "" {
				r.Files = append(r.Files, f.FileID)
			}
		}
	case "text_editor_code_execution_view_result":
		r.Kind, r.Path, r.FileType = CodeFile, in.Path, c.FileType
		r.Text, _ = wire.StringValue(c.Content)
		r.FirstLine, r.TotalLines = c.StartLine, c.TotalLines
		if r.FirstLine == 0 && r.Text != "" {
			r.FirstLine = 1
		}
	case "text_editor_code_execution_create_result":
		r.Kind, r.Path, r.Text, r.Replaced = CodeFile, in.Path, in.FileText, c.IsUpdate
		r.FileType, r.FirstLine = "text", 1
	case "text_editor_code_execution_str_replace_result":
		// Anthropic's result always carries the hunk's lines; one without
		// keeps the usual Request and Response, old_str and new_str in it.
		if len(c.Lines) == 0 {
			return nil
		}
		r.Kind, r.Path = CodeDiff, in.Path
		r.Diff, r.OldStart, r.NewStart = c.Lines, c.OldStart, c.NewStart
	case "tool_search_tool_search_result":
		r.Kind, r.Query = CodeTools, in.Query
		if r.Query == "" {
			r.Query = in.Pattern
		}
		r.Tools = []string{}
		for _, ref := range c.ToolRefs {
			if ref.ToolName != "" {
				r.Tools = append(r.Tools, ref.ToolName)
			}
		}
	}
	return r
}

// setCodeResult keeps a code tool's result content and reads it with the
// tool's input as it is now; refreshCodeRun reads it again once the input
// changes (a tool_use merged into a result that came first).
func (t *Tool) setCodeResult(typ string, content json.RawMessage) {
	if !isCodeResult(typ) {
		t.Code, t.codeResult, t.codeType = nil, nil, ""
		return
	}
	t.codeType, t.codeResult = typ, content
	t.refreshCodeRun()
}

func (t *Tool) refreshCodeRun() {
	if t.codeType != "" {
		t.Code = readCodeRun(t.codeType, t.codeResult, t.Input)
	}
}
