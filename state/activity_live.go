package state

import (
	"encoding/json"
	"strings"

	"stepwise/state/wire"
)

// Live activity cards: an AG-UI activity's content is whatever the agent
// keeps up to date with snapshots and deltas. Its row reads what the
// content says of itself, as it changes: a title and a status, and how
// far along it is; the whole content shows, indented, when opened.

// activityLive reads an activity's content: its summary (title or
// message or text or label, then status or state or step, joined by " ·
// ") and its progress from 0 to 1 (a progress, percent or percentage
// field, a fraction or out of 100; or done/completed/current out of
// total), nil when it says none.
func activityLive(content json.RawMessage) (summary string, progress *float64) {
	var o map[string]json.RawMessage
	if json.Unmarshal(content, &o) != nil {
		return "", nil
	}
	first := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := wire.StringValue(o[k]); ok && strings.TrimSpace(v) != "" {
				return strings.Join(strings.Fields(v), " ")
			}
		}
		return ""
	}
	var parts []string
	for _, p := range []string{first("title", "message", "text", "label"), first("status", "state", "step")} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	summary = strings.Join(parts, " · ")
	if r := []rune(summary); len(r) > 160 {
		summary = string(r[:159]) + "…"
	}
	number := func(k string) (float64, bool) {
		var f float64
		if len(o[k]) == 0 || json.Unmarshal(o[k], &f) != nil {
			return 0, false
		}
		return f, true
	}
	for _, k := range []string{"progress", "percent", "percentage"} {
		if f, ok := number(k); ok && f >= 0 {
			if f > 1 || k != "progress" {
				f /= 100
			}
			if f <= 1 {
				return summary, &f
			}
		}
	}
	if total, ok := number("total"); ok && total > 0 {
		for _, k := range []string{"done", "completed", "current"} {
			if f, ok := number(k); ok && f >= 0 && f <= total {
				r := f / total
				return summary, &r
			}
		}
	}
	return summary, nil
}
