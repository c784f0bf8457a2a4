package state

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Plans: an agent's todo list, written with a planning tool.
//
// The tool is LangChain deepagents' write_todos (the seeds' agent writes
// one first): its input is {"todos": [{"content": "...", "status":
// "pending" | "in_progress" | "completed"}]}, the whole list every time,
// so each call replaces the plan. Claude Code's TodoWrite has the same
// shape. A call is a tool item like any other, whatever dialect brought it
// (native stream or history, Anthropic, AG-UI, AI SDK): the plan is read
// from the tool's input, here, once for all of them.
//
// Backends vary, so the input is read leniently: the list may be under
// "todos", "plan", "items" or "tasks", or be the input itself; an entry may
// be a string, or an object naming its words "content", "text", "title",
// "task", "step" or "description"; a status may be spelt in several ways
// ("done", "in-progress", ...) or be a boolean "done"/"completed"/"checked".
// An entry with no words is skipped; an unknown status counts as pending.

// TodoStatus is the state of one entry of a plan.
type TodoStatus string

// The todo statuses (deepagents' own words).
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// Todo is one entry of a plan.
type Todo struct {
	Content string
	Status  TodoStatus
}

// Plan is a todo list as one planning call wrote it.
type Plan struct {
	// ToolID is the id of the call that wrote it, ItemKey its tool item's
	// Key.
	ToolID  string
	ItemKey int
	Todos   []Todo
}

// Done is how many entries are completed.
func (p Plan) Done() int {
	n := 0
	for _, t := range p.Todos {
		if t.Status == TodoCompleted {
			n++
		}
	}
	return n
}

// MaxTodos bounds a plan: entries past it are dropped, so a runaway list
// cannot flood the page.
const MaxTodos = 100

// maxTodoBytes bounds one entry's words.
const maxTodoBytes = 2000

// planTools are the tool names whose input is a todo list.
var planTools = map[string]bool{
	"write_todos": true, // LangChain deepagents, the seeds' agent
	"TodoWrite":   true, // Claude Code
	"todo_write":  true,
}

// IsPlanTool reports whether calls of the tool named name write a plan.
func IsPlanTool(name string) bool { return planTools[name] }

// ParseTodos reads a planning tool's input. ok is false when it holds no
// todo list (it is not JSON, or has no list where one is looked for); an
// empty list is a plan with no entries.
func ParseTodos(input json.RawMessage) (todos []Todo, ok bool) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return nil, false
	}
	var list []json.RawMessage
	switch input[0] {
	case '[':
		if json.Unmarshal(input, &list) != nil {
			return nil, false
		}
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(input, &obj) != nil {
			return nil, false
		}
		found := false
		for _, key := range []string{"todos", "plan", "items", "tasks"} {
			list = nil
			raw, has := obj[key]
			if has && json.Unmarshal(raw, &list) == nil && list != nil {
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	default:
		return nil, false
	}
	todos = make([]Todo, 0, min(len(list), MaxTodos))
	for _, raw := range list {
		if len(todos) == MaxTodos {
			break
		}
		if t, ok := parseTodo(raw); ok {
			todos = append(todos, t)
		}
	}
	return todos, true
}

// parseTodo reads one entry; ok is false for junk (no words).
func parseTodo(raw json.RawMessage) (Todo, bool) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return cleanTodo(text, TodoPending)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return Todo{}, false
	}
	for _, key := range []string{"content", "text", "title", "task", "step", "description", "name"} {
		if json.Unmarshal(obj[key], &text) == nil && strings.TrimSpace(text) != "" {
			break
		}
		text = ""
	}
	status := TodoPending
	var word string
	if json.Unmarshal(obj["status"], &word) == nil || json.Unmarshal(obj["state"], &word) == nil {
		status = todoStatus(word)
	}
	for _, key := range []string{"done", "completed", "checked"} {
		var b bool
		if json.Unmarshal(obj[key], &b) == nil && b {
			status = TodoCompleted
		}
	}
	return cleanTodo(text, status)
}

func cleanTodo(text string, status TodoStatus) (Todo, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Todo{}, false
	}
	if len(text) > maxTodoBytes {
		cut := maxTodoBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return Todo{Content: text, Status: status}, true
}

// todoStatus reads a status word; unknown words are pending.
func todoStatus(word string) TodoStatus {
	w := strings.ToLower(strings.TrimSpace(word))
	w = strings.NewReplacer("-", "_", " ", "_").Replace(w)
	switch w {
	case "in_progress", "inprogress", "active", "doing", "running", "started", "current", "working":
		return TodoInProgress
	case "completed", "complete", "done", "finished", "success", "succeeded", "checked":
		return TodoCompleted
	}
	return TodoPending
}

// planCache is a tool item's parsed plan, valid while the item's Rev is
// rev: an input changes only with a touch, which bumps Rev.
type planCache struct {
	rev   uint64
	todos []Todo
	ok    bool
}

// PlanOf is the plan a planning tool item's own input holds. ok is false
// for an item that is not a planning call, or whose input holds no todo
// list (yet: a streamed input is read once it is valid JSON).
func PlanOf(it *Item) (Plan, bool) {
	if it == nil || it.Tool == nil || !IsPlanTool(it.Tool.Name) {
		return Plan{}, false
	}
	t := it.Tool
	if t.plan == nil || t.plan.rev != it.Rev || it.Rev == 0 {
		todos, ok := ParseTodos(t.Input)
		t.plan = &planCache{rev: it.Rev, todos: todos, ok: ok}
	}
	if !t.plan.ok {
		return Plan{}, false
	}
	return Plan{ToolID: t.ID, ItemKey: it.Key, Todos: t.plan.todos}, true
}

// notePlanTool records a tool item that may be a planning call, once.
func (s *Store) notePlanTool(it *Item) {
	if it.Tool.planTool || !IsPlanTool(it.Tool.Name) {
		return
	}
	it.Tool.planTool = true
	s.planTools = append(s.planTools, it)
}

// Plan is the conversation's newest plan: the one of the latest planning
// call whose input holds a todo list; later calls replace it. A call whose
// input is still streaming does not count yet (its list may be cut short),
// so the previous plan stays until it is complete. ok is false when no
// call wrote a plan.
func (s *Store) Plan() (Plan, bool) {
	for i := len(s.planTools) - 1; i >= 0; i-- {
		it := s.planTools[i]
		if !IsPlanTool(it.Tool.Name) || s.inputStreaming(it) {
			continue
		}
		if p, ok := PlanOf(it); ok {
			return p, true
		}
	}
	return Plan{}, false
}

// inputStreaming reports a tool whose input is still arriving in pieces:
// native input_json_delta before the block's stop, an AI SDK
// tool-input-delta before tool-input-available, an AG-UI TOOL_CALL_CHUNK
// while more chunks may follow. The dialects show such inputs repaired as
// they grow.
func (s *Store) inputStreaming(it *Item) bool {
	t := it.Tool
	if t.partialJSON != nil {
		return true
	}
	if s.dialect == nil {
		return false
	}
	return s.dialect.ui.partial[t.ID] != nil || s.dialect.agui.chunkTool == t.ID
}
