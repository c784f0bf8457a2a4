package state

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codeTools lists a store's tools with a CodeRun, in order.
func codeTools(s *Store) []*Tool {
	var out []*Tool
	var walk func(items []*Item)
	walk = func(items []*Item) {
		for _, it := range items {
			if it.Group != nil {
				walk(it.Group.Steps)
			}
			if it.Tool != nil && it.Tool.Code != nil {
				out = append(out, it.Tool)
			}
		}
	}
	walk(s.Items())
	return out
}

// Anthropic's code execution (bash and text editor commands), recorded:
// the file it created and the command it ran, with its output.
func TestCodeRunsOfCodeExecution(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/anthropic-code-execution-20250825.1.chunks.txt")
	runs := codeTools(s)
	require.Len(t, runs, 2)
	create := runs[0].Code
	assert.Equal(t, CodeFile, create.Kind)
	assert.Equal(t, "/tmp/fibonacci.py", create.Path)
	assert.True(t, strings.HasPrefix(create.Text, "def fibonacci(n):\n"), create.Text)
	assert.False(t, create.Replaced)
	assert.Equal(t, 1, create.FirstLine)

	bash := runs[1].Code
	assert.Equal(t, CodeTerminal, bash.Kind)
	assert.Equal(t, "python /tmp/fibonacci.py", bash.Command)
	assert.Equal(t, "bash", bash.Language)
	assert.Contains(t, bash.Stdout, "The 10th Fibonacci number is: 34")
	assert.Empty(t, bash.Stderr)
	require.NotNil(t, bash.ExitCode)
	assert.Equal(t, 0, *bash.ExitCode)
	assert.Empty(t, bash.Files)

	// A command that made a file names it.
	runs = codeTools(replayUpstream(t, "vercel-ai/anthropic/anthropic-code-execution-20250825.2.chunks.txt"))
	last := runs[len(runs)-1].Code
	assert.Equal(t, []string{"file_011CUJb8TVNUHywcwDzzu7ms"}, last.Files)
}

// The pptx skill's run: files viewed, an edit as a diff with its line
// numbers, output on stderr, and a command that exited 1.
func TestCodeRunsOfSkillRun(t *testing.T) {
	runs := codeTools(replayUpstream(t, "vercel-ai/anthropic/anthropic-code-execution-20250825.pptx-skill.chunks.txt"))
	view := runs[0].Code
	assert.Equal(t, CodeFile, view.Kind)
	assert.Equal(t, "/skills/pptx/SKILL.md", view.Path)
	assert.Equal(t, "text", view.FileType)
	assert.True(t, strings.HasPrefix(view.Text, "---\nname: PowerPoint Suite\n"))

	var diff, stderr, failed *CodeRun
	for _, r := range runs {
		c := r.Code
		switch {
		case c.Kind == CodeDiff && diff == nil:
			diff = c
		case c.Kind == CodeTerminal && c.Stderr != "" && stderr == nil:
			stderr = c
		case c.Kind == CodeTerminal && c.ExitCode != nil && *c.ExitCode == 1:
			failed = c
		}
	}
	require.NotNil(t, diff)
	assert.Equal(t, "/tmp/slide4.html", diff.Path)
	assert.Equal(t, 9, diff.OldStart)
	assert.Equal(t, 9, diff.NewStart)
	assert.Contains(t, diff.Diff, "-  margin: 60pt;")
	assert.Contains(t, diff.Diff, "+  margin: 50pt 60pt 60pt 60pt;")
	require.NotNil(t, stderr)
	assert.Equal(t, "cd /tmp && node create_presentation.js", stderr.Command)
	assert.Contains(t, stderr.Stderr, "ends too close to bottom edge")
	require.NotNil(t, failed)
	assert.Contains(t, failed.Stdout, "PDF conversion failed")
}

// Code execution run by programmatic tool calling: Python code.
func TestCodeRunOfPythonCode(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/anthropic-programmatic-tool-calling.1.chunks.txt")
	c := s.Tool("srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK").Tool.Code
	require.NotNil(t, c)
	assert.Equal(t, CodeTerminal, c.Kind)
	assert.Equal(t, "python", c.Language)
	assert.Contains(t, c.Command, "async def main():")
	assert.Contains(t, c.Stdout, "=== DICE GAME: First to 3 Wins ===")
}

// Tool search: its pattern or query, and the tools it found.
func TestCodeRunOfToolSearch(t *testing.T) {
	runs := codeTools(replayUpstream(t, "vercel-ai/anthropic/anthropic-tool-search-deferred-regex.chunks.txt"))
	require.Len(t, runs, 1)
	assert.Equal(t, CodeTools, runs[0].Code.Kind)
	assert.Equal(t, []string{"readNoteTree", "executeEditorOperation"}, runs[0].Code.Tools)
	assert.NotEmpty(t, runs[0].Code.Query)

	runs = codeTools(replayUpstream(t, "vercel-ai/anthropic/anthropic-tool-search-deferred-bm25.chunks.txt"))
	require.Len(t, runs, 1)
	assert.Equal(t, "add bullet point insert text editor", runs[0].Code.Query)
}

// An edit whose result carries no lines (Anthropic's always do) keeps the
// usual view; an error result, an encrypted one and other tools have no CodeRun;
// a result before its tool_use is read again with the input.
func TestCodeRunEdgeCases(t *testing.T) {
	s := New(DefaultOptions())
	for _, line := range []string{
		`{"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"e1","name":"text_editor_code_execution","input":{"command":"str_replace","path":"a.py","old_str":"x = 1\ny = 2\n","new_str":"x = 1\ny = 3\n"}}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text_editor_code_execution_tool_result","tool_use_id":"e1","content":{"type":"text_editor_code_execution_str_replace_result"}}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"server_tool_use","id":"e2","name":"bash_code_execution","input":{"command":"false"}}}`,
		`{"type":"content_block_stop","index":2}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"bash_code_execution_tool_result","tool_use_id":"e2","content":{"type":"bash_code_execution_tool_result_error","error_code":"execution_time_exceeded"}}}`,
		`{"type":"content_block_stop","index":3}`,
		`{"type":"content_block_start","index":4,"content_block":{"type":"bash_code_execution_tool_result","tool_use_id":"e3","content":{"type":"bash_code_execution_result","stdout":7,"stderr":"oops","return_code":"x","content":{}}}}`,
		`{"type":"content_block_stop","index":4}`,
		`{"type":"content_block_start","index":5,"content_block":{"type":"server_tool_use","id":"e3","name":"bash_code_execution","input":{"command":"ls"}}}`,
		`{"type":"content_block_stop","index":5}`,
	} {
		s.ApplyJSON([]byte(line))
	}
	assert.Nil(t, s.Tool("e1").Tool.Code, "an edit without lines keeps its Request and Response")
	assert.Nil(t, s.Tool("e2").Tool.Code, "an error result shows its error")
	late := s.Tool("e3").Tool.Code
	require.NotNil(t, late, "a result with fields of the wrong type keeps the others")
	assert.Equal(t, "oops", late.Stderr)
	assert.Empty(t, late.Stdout)
	assert.Nil(t, late.ExitCode)
	assert.Equal(t, "ls", late.Command, "read again once its tool_use came")
}
