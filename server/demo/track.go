package demo

import (
	"time"
)

// track follows what a sent event changes in the run: tools without
// results (to cancel them on stop), the pending approval and the tools it
// concerns, its timeout.
func (r *run) track(ev map[string]any, timeout *time.Duration) {
	switch ev["type"] {
	case "content_block_start":
		b, _ := ev["content_block"].(map[string]any)
		switch b["type"] {
		case "tool_use":
			r.opened(str(b["id"]), str(b["name"]))
		case "tool_result":
			delete(r.open, str(b["tool_use_id"]))
		case "approval_request":
			r.pending = str(b["approval_key"])
			r.awaiting, r.awaitingOrder = map[string]bool{}, nil
			if actions, ok := b["action_requests"].([]any); ok {
				r.concern(actions)
			}
			*timeout = seconds(b["timeout_seconds"])
		}
	case "content_block_delta":
		d, _ := ev["delta"].(map[string]any)
		if actions, ok := d["action_requests"].([]any); ok && r.pending != "" {
			r.concern(actions)
			if t := seconds(d["timeout_seconds"]); t > 0 {
				*timeout = t
			}
		}
	case "activity":
		for _, t := range list(ev["tools"]) {
			r.opened(str(t["id"]), str(t["name"]))
		}
		for _, res := range list(ev["results"]) {
			delete(r.open, str(res["call_id"]))
		}
	}
}

func (r *run) opened(id, name string) {
	if id == "" || name == "ask_user_question" {
		return
	}
	r.open[id] = true
	r.byName[name] = append(r.byName[name], id)
}

// concern pairs each action with the newest open tool of its name, as the
// client does (PROTOCOL.md section 2).
func (r *run) concern(actions []any) {
	r.awaitingOrder = make([]string, len(actions))
	for i, a := range actions {
		name := str(a.(map[string]any)["name"])
		ids := r.byName[name]
		for j := len(ids) - 1; j >= 0; j-- {
			if id := ids[j]; r.open[id] && !r.awaiting[id] {
				r.awaiting[id] = true
				r.awaitingOrder[i] = id
				break
			}
		}
	}
}

// resultFor returns the tool id of a tool_result block.
func resultFor(ev map[string]any) (string, bool) {
	if ev["type"] != "content_block_start" {
		return "", false
	}
	b, _ := ev["content_block"].(map[string]any)
	if b["type"] != "tool_result" {
		return "", false
	}
	return str(b["tool_use_id"]), true
}

// rewriteIDs appends suffix to the tool ids and approval keys of an event,
// so that a scenario played twice in one session makes new items.
func rewriteIDs(ev map[string]any, suffix string) {
	suffixField(ev, "approval_key", suffix)
	if b, ok := ev["content_block"].(map[string]any); ok {
		for _, k := range []string{"id", "tool_use_id", "approval_key"} {
			suffixField(b, k, suffix)
		}
	}
	for _, t := range list(ev["tools"]) {
		suffixField(t, "id", suffix)
	}
	for _, res := range list(ev["results"]) {
		suffixField(res, "call_id", suffix)
	}
}

func suffixField(m map[string]any, k, suffix string) {
	if s, ok := m[k].(string); ok && s != "" {
		m[k] = s + suffix
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func list(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func seconds(v any) time.Duration {
	f, _ := v.(float64)
	return time.Duration(f * float64(time.Second))
}
