package state

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"stepwise/state/wire"
)

// displayAsContent names the tools whose calls never show as tool items
// (rule 4): their content reaches the user another way (the question form,
// a text block).
var displayAsContent = map[string]bool{
	"ask_user_question": true,
	"share_thought":     true,
}

var emptyObject = json.RawMessage("{}")

// toolUse adds a tool call, or merges it into the item its result already
// made. label is the tool_content_message; titleLabel, when set, is what the
// new step gives its group's title. It returns the tool item, or nil for a
// hidden tool.
func (s *Store) toolUse(id, name string, input json.RawMessage, label, titleLabel string) *Item {
	if displayAsContent[name] {
		s.hidden[id] = true
		return nil
	}
	if it := s.tools[id]; it != nil {
		t := it.Tool
		t.Name = name
		s.notePlanTool(it)
		if !wire.IsNull(input) {
			t.Input = input
			t.refreshCodeRun()
		}
		s.setLabel(t, label)
		s.touch(it)
		return it
	}
	it := s.newTool(id, name, label)
	if !wire.IsNull(input) {
		it.Tool.Input = input
	}
	it.titleLabel = titleLabel
	s.toolNames[name] = append(s.toolNames[name], it)
	s.place(it) // first: a change to an unplaced item would name it as top-level
	s.setToolStatus(it, s.runningStatus())
	return it
}

// toolItem allocates a tool item and its Tool at once.
type toolItem struct {
	item Item
	tool Tool
}

func (s *Store) newTool(id, name, label string) *Item {
	s.nextKey++
	ti := &toolItem{
		item: Item{Key: s.nextKey, Kind: KindTool},
		tool: Tool{ID: id, Name: name, Input: emptyObject},
	}
	it := &ti.item
	it.Tool = &ti.tool
	s.setLabel(it.Tool, label)
	s.tools[id] = it
	s.notePlanTool(it)
	return it
}

// setLabel sets a tool's label: an explicit label wins over the one made
// from the name.
func (s *Store) setLabel(t *Tool, label string) {
	switch {
	case label != "":
		t.Label, t.explicitLabel = label, true
	case !t.explicitLabel:
		t.Label = ReadableName(t.Name)
	}
}

// toolResult merges a result into its tool, wherever it is; a result with
// no tool yet becomes a tool item where it arrived. It returns the tool
// item, or nil for a hidden tool.
func (s *Store) toolResult(id, name, status, text string, artifact json.RawMessage, label string) *Item {
	if s.hidden[id] {
		return nil
	}
	it := s.tools[id]
	if it == nil {
		it = s.newTool(id, name, label)
		s.toolNames[it.Tool.Name] = append(s.toolNames[it.Tool.Name], it)
		s.place(it)
	} else if label != "" && !it.Tool.explicitLabel {
		s.setLabel(it.Tool, label)
	}
	t := it.Tool
	if t.Name == "" {
		t.Name = name
		s.setLabel(t, "")
		s.notePlanTool(it)
	}
	t.Result = &text
	t.hasResult = true
	t.InputStreaming = false
	if !wire.IsNull(artifact) {
		t.Artifact = artifact
	}
	t.awaitingKey = ""
	st := ToolDone
	t.Cancelled = false
	switch status {
	case "cancelled", "canceled":
		t.Cancelled = true
		st = ToolError
	case "error", "failed":
		st = ToolError
	}
	s.setToolStatus(it, st)
	if t.Name == "web_search" && t.Artifact != nil {
		s.addSources(it)
	}
	return it
}

// concernedTool is the most recently added tool of that name that has no
// result and waits on no approval (PROTOCOL.md section 2).
func (s *Store) concernedTool(name string) *Item {
	list := s.toolNames[name]
	// Tools with results never qualify again: drop them from the tail so
	// the scan stays short.
	for len(list) > 0 && list[len(list)-1].Tool.hasResult {
		list = list[:len(list)-1]
	}
	s.toolNames[name] = list
	for i := len(list) - 1; i >= 0; i-- {
		t := list[i].Tool
		if !t.hasResult && t.awaitingKey == "" {
			return list[i]
		}
	}
	return nil
}

// ReadableName makes a tool name readable: underscores, hyphens and
// camelCase boundaries become spaces, and the first letter is capitalised
// (web_search and webSearch both become "Web search").
func ReadableName(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 4)
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
				b.WriteByte(' ')
			}
			prevLower = false
			continue
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte(' ')
			}
			r = unicode.ToLower(r)
			prevLower = false
		default:
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		}
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if out == "" {
		return ""
	}
	first, size := utf8.DecodeRuneInString(out)
	return string(unicode.ToUpper(first)) + out[size:]
}
