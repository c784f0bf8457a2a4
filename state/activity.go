package state

import (
	"encoding/json"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

var defaultActivityIcons = map[string]string{
	"tool_call":          "🔧",
	"tool_request":       "🔧",
	"tool_result":        "✅",
	"thought":            "💭",
	"activity":           "🧠",
	"error":              "❌",
	"skill_loading":      "📥",
	"diagram_generation": "📊",
	"chart_generation":   "📈",
}

// beginDialectTurn marks the agent running; from idle, a new turn starts.
func (s *Store) beginDialectTurn() {
	if s.status != StatusRunning {
		s.brandPending = true
		s.msgType = ""
	}
	s.setStatus(StatusRunning)
}

// applyDialectText handles text_output_stream. It reports false for a
// legacy marker whose JSON cannot be read.
func (s *Store) applyDialectText(text string) bool {
	if rest, ok := strings.CutPrefix(text, wire.ActivityMarker); ok {
		if s.sawActivity {
			return true // a copy of an activity already shown
		}
		var a wire.Activity
		if json.Unmarshal([]byte(rest), &a) != nil {
			return false
		}
		if a.ActivityType == "" {
			a.ActivityType = a.Type
		}
		if a.ActivityType == "" {
			return false
		}
		s.beginDialectTurn()
		s.applyActivity(&a)
		return true
	}
	s.beginDialectTurn()
	if text != "" {
		s.appendDialectText(text)
	}
	return true
}

// appendDialectText adds text to the current text item; after an activity
// it starts a new one, which closes the activities' group.
func (s *Store) appendDialectText(text string) {
	if s.dialectText == nil {
		it := s.newItem(KindText)
		s.standalone(it)
		s.dialectText = it
		s.dialectBuf.Reset()
	}
	if growText(&s.dialectBuf, text) {
		s.dialectText.Cut = true
	}
	s.dialectText.Text = s.dialectBuf.String()
	s.touch(s.dialectText)
}

// applyActivity adds an activity to the open group, opening one when none is.
func (s *Store) applyActivity(a *wire.Activity) {
	s.dialectText = nil
	if s.group == nil {
		s.openGroup("")
	}
	name, icon := activityDisplay(a)
	text, _ := wire.ContentText(a.Content)
	switch a.ActivityType {
	case "tool_call", "tool_request":
		for i, t := range a.Tools {
			label := ReadableName(t.Name)
			if len(a.Tools) == 1 && a.DisplayInfo != nil && a.DisplayInfo.FriendlyName != "" {
				label = a.DisplayInfo.FriendlyName
			}
			id := t.ID
			if id == "" {
				id = "activity-" + strconv.Itoa(s.nextKey+1) + "-" + strconv.Itoa(i)
			}
			if it := s.toolUse(id, t.Name, t.Arguments, label, name); it != nil && it.Timestamp == "" {
				it.Timestamp = a.Timestamp
			}
		}
		s.activityResults(a.Results)
		if len(a.Tools) > 0 || len(a.Results) > 0 {
			return
		}
	case "tool_result":
		if len(a.Results) > 0 {
			s.activityResults(a.Results)
			return
		}
	}
	var it *Item
	switch a.ActivityType {
	case "thought":
		it = s.newItem(KindThinking)
	case "error":
		it = s.newItem(KindError)
	default:
		it = s.newItem(KindActivity)
		it.Activity = &ActivityInfo{Type: a.ActivityType, Name: name, Icon: icon}
	}
	it.Text = text
	it.Timestamp = a.Timestamp
	it.titleLabel = name
	s.place(it)
}

// activityResults merges the results of a tool_call or legacy tool_result
// into the tools with their call ids.
func (s *Store) activityResults(results []wire.ActivityResult) {
	for _, r := range results {
		if r.CallID == "" {
			continue
		}
		status := "success"
		if r.IsError {
			status = "error"
		}
		text, _ := wire.ContentText(r.Content)
		s.toolResult(r.CallID, r.Name, status, text, nil, "")
	}
}

// activityDisplay is an activity's display name (friendly_name, else its
// type) and icon (display_info.icon, else one by type).
func activityDisplay(a *wire.Activity) (name, icon string) {
	name, icon = a.ActivityType, ""
	if a.DisplayInfo != nil {
		if a.DisplayInfo.FriendlyName != "" {
			name = a.DisplayInfo.FriendlyName
		}
		icon = a.DisplayInfo.Icon
	}
	if icon == "" {
		icon = defaultActivityIcons[a.ActivityType]
	}
	if icon == "" {
		icon = "⚙️"
	}
	return name, icon
}
