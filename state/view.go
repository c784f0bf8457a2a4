package state

import (
	"encoding/json"

	"stepwise/state/wire"
)

// DefaultGroupTitle is a running group's title when nothing names it yet
// (rule 7). The UI shows its own translation instead.
const DefaultGroupTitle = "Working…"

// View is the view model of REPLAY.md: what the UI shows, as JSON.
type View struct {
	AgentStatus AgentStatus   `json:"agent_status"`
	LastEventID *string       `json:"last_event_id"`
	Skipped     int           `json:"skipped"`
	Pending     *PendingView  `json:"pending"`
	Sources     []SourceGroup `json:"sources"`
	// Usage sums the token counts of the conversation's messages
	// (BACKENDS.md section 1); absent when no message reported any.
	Usage *Usage `json:"usage,omitempty"`
	Items []any  `json:"items"`
}

// PendingView names the unanswered approval or question.
type PendingView struct {
	ApprovalKey string `json:"approval_key"`
	Kind        string `json:"kind"` // "question", "approval" or "form"
}

// View returns the store's view model.
func (s *Store) View() View {
	v := View{
		AgentStatus: s.status,
		Skipped:     s.skipped,
		Sources:     s.sources,
		Items:       make([]any, 0, len(s.items)),
	}
	if v.Sources == nil {
		v.Sources = []SourceGroup{}
	}
	if !s.lastID.IsZero() {
		id := s.lastID.String()
		v.LastEventID = &id
	}
	if p := s.Pending(); p != nil {
		v.Pending = &PendingView{Kind: string(p.Kind)}
		switch {
		case p.Question != nil:
			v.Pending.ApprovalKey = p.Question.ApprovalKey
		case p.Form != nil:
			v.Pending.ApprovalKey = p.Form.ApprovalKey
		default:
			v.Pending.ApprovalKey = p.Approval.ApprovalKey
		}
	}
	if u, ok := s.Usage(); ok {
		v.Usage = &u
	}
	for _, it := range s.items {
		v.Items = append(v.Items, withMessage(it, viewItem(it, true)))
	}
	return v
}

type viewBase struct {
	Kind  Kind  `json:"kind"`
	Brand *bool `json:"brand,omitempty"`
}

type viewText struct {
	viewBase
	Text      string         `json:"text"`
	Final     bool           `json:"final"`
	Citations []viewCitation `json:"citations,omitempty"`
}

type viewCitation struct {
	N         int     `json:"n"`
	URL       *string `json:"url"` // null for a document cited without one
	Title     string  `json:"title"`
	CitedText string  `json:"cited_text"`
	At        int     `json:"at"`
}

type viewThinking struct {
	viewBase
	Text     string `json:"text"`
	Redacted bool   `json:"redacted,omitempty"`
}

type viewPlain struct {
	viewBase
	Text string `json:"text"`
}

type viewTool struct {
	viewBase
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Label    string          `json:"label"`
	Status   ToolStatus      `json:"status"`
	Input    json.RawMessage `json:"input"`
	Result   *string         `json:"result"`
	Artifact json.RawMessage `json:"artifact"`
	// Progress: what a tool still running reports (AI SDK preliminary
	// outputs), until its result.
	Progress string `json:"progress,omitempty"`
	// UI is the tool's MCP App (docs/protocol-extensions.md), absent for
	// none.
	UI *viewToolUI `json:"ui,omitempty"`
	// Code: a code tool's result read for its own view (codetools.go).
	Code *CodeRun `json:"code,omitempty"`
	// Images: the images its result carried (toolimages.go).
	Images []ToolImage `json:"images,omitempty"`
}

type viewGroup struct {
	viewBase
	Open    bool   `json:"open"`
	Title   string `json:"title"`
	Visible int    `json:"visible"`
	Steps   []any  `json:"steps"`
	// Subagent: the group holds a sub-agent's work.
	Subagent *viewSubagent `json:"subagent,omitempty"`
}

type viewQuestion struct {
	viewBase
	ApprovalKey string            `json:"approval_key"`
	State       QuestionState     `json:"state"`
	Questions   []wire.Question   `json:"questions"`
	Answers     map[string]string `json:"answers"`
}

type viewApproval struct {
	viewBase
	ApprovalKey string               `json:"approval_key"`
	State       ApprovalState        `json:"state"`
	Actions     []viewApprovalAction `json:"actions"`
	// Automatic: decided by the backend's policy (AI SDK isAutomatic).
	Automatic bool `json:"automatic,omitempty"`
}

type viewApprovalAction struct {
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args"`
	Allowed  []string        `json:"allowed"`
	Decision *string         `json:"decision"`
}

type viewSubagent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Failed      bool   `json:"failed,omitempty"`
}

type viewActivity struct {
	viewBase
	ActivityType string `json:"activity_type"`
	Name         string `json:"name"`
	Icon         string `json:"icon"`
	Text         string `json:"text"`
	// Summary and Progress: a live AG-UI activity's own account.
	Summary  string   `json:"summary,omitempty"`
	Progress *float64 `json:"progress,omitempty"`
}

type viewUnknown struct {
	viewBase
	Type string `json:"type"`
}

func viewItem(it *Item, top bool) any {
	base := viewBase{Kind: it.Kind}
	if top && it.Kind != KindUser {
		brand := it.Brand
		base.Brand = &brand
	}
	if v, ok := viewBackendItem(it, base); ok {
		return v
	}
	switch it.Kind {
	case KindText:
		v := viewText{viewBase: base, Text: it.Text, Final: it.Final}
		for _, c := range it.Citations {
			vc := viewCitation{N: c.N, Title: c.Title, CitedText: c.CitedText, At: c.At}
			if c.URL != "" {
				url := c.URL
				vc.URL = &url
			}
			v.Citations = append(v.Citations, vc)
		}
		return v
	case KindThinking:
		return viewThinking{base, it.Text, it.Redacted}
	case KindUser:
		return viewUserItem(it, base)
	case KindError:
		return viewPlain{base, it.Text}
	case KindTool:
		t := it.Tool
		return viewTool{base, t.ID, t.Name, t.Label, t.Status, t.Input, t.Result, t.Artifact, t.Progress, viewAppOf(t), t.Code, t.Images}
	case KindImage:
		return viewImage{base, pictureView(it.Image)}
	case KindGroup:
		g := it.Group
		title := g.Title()
		if title == "" {
			title = DefaultGroupTitle
		}
		steps := make([]any, 0, len(g.Steps))
		for _, st := range g.Steps {
			steps = append(steps, viewItem(st, false))
		}
		var sub *viewSubagent
		if g.Subagent != nil {
			sub = &viewSubagent{g.Subagent.Name, g.Subagent.Description, g.Subagent.Failed}
		}
		return viewGroup{base, g.Open, title, g.Visible(), steps, sub}
	case KindQuestion:
		q := it.Question
		return viewQuestion{base, q.ApprovalKey, q.State, q.Questions, q.Answers}
	case KindApproval:
		return viewItemApproval(it, base)
	case KindActivity:
		return viewActivity{base, it.Activity.Type, it.Activity.Name, it.Activity.Icon, it.Text, it.Activity.Summary, it.Activity.Progress}
	case KindUnknown:
		return viewUnknown{base, it.BlockType}
	case KindNotice:
		v := viewNotice{viewBase: base, Reason: it.Notice.Reason, Category: it.Notice.Category}
		if it.Notice.Detail != "" { // BACKENDS.md: the explanation, or null
			detail := it.Notice.Detail
			v.Detail = &detail
		}
		return v
	}
	return base // stopped
}

// viewItemApproval is an approval card's view: REPLAY.md's fields, and
// BACKENDS.md's text and expiry where the card has them (an AG-UI
// interrupt's message and expiresAt), which REPLAY.md's own cards never
// carry.
func viewItemApproval(it *Item, base viewBase) any {
	a := it.Approval
	actions := make([]viewApprovalAction, len(a.Actions))
	for i, act := range a.Actions {
		actions[i] = viewApprovalAction{Name: act.Name, Args: act.Args, Allowed: act.Allowed}
		if act.Decision != "" {
			d := act.Decision
			actions[i].Decision = &d
		}
	}
	v := viewApproval{base, a.ApprovalKey, a.State, actions, a.Automatic}
	if a.Text != "" || a.ExpiresAt != "" {
		return viewApprovalText{v, a.Text, a.ExpiresAt}
	}
	return v
}
