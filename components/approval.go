package components

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
	"stepwise/state/wire"
)

// ApprovalView is a tool approval card (PROTOCOL.md section 6): one button
// per allowed decision for each action. With one action, Approve sends at
// once; Edit, Reject and Respond open their field first. Every control
// disables while the decisions are on their way, and the card is editable
// again with the reason when they are refused: both come from the
// controller (Form), which also sends one frame however often it is
// clicked. The card keeps only what the user is choosing.
type ApprovalView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Form     FormState

	key     string
	chosen  []string // per action: the decision picked, "" for none
	edit    []string // per action: the arguments editor's text
	message []string // per action: reject reason or response text
	invalid string   // why the decisions cannot be sent, until they change
}

// approvalStateKeys describe a resolved approval.
var approvalStateKeys = map[state.ApprovalState]string{
	state.ApprovalApproved:  "approval.state.approved",
	state.ApprovalEdited:    "approval.state.edited",
	state.ApprovalRejected:  "approval.state.rejected",
	state.ApprovalResponded: "approval.state.responded",
	state.ApprovalExpired:   "approval.state.expired",
}

// automaticStateKeys describe an approval the backend's policy decided.
var automaticStateKeys = map[state.ApprovalState]string{
	state.ApprovalApproved: "approval.state.approved_by_policy",
	state.ApprovalRejected: "approval.state.rejected_by_policy",
}

// decisionKeys label the decision buttons (PROTOCOL.md section 6).
var decisionKeys = map[string]string{
	"approve": "approval.approve",
	"edit":    "approval.edit",
	"reject":  "approval.reject",
	"respond": "approval.respond",
}

// decisionLabel labels a decision button; one this client does not know
// shows its protocol name.
func (v *ApprovalView) decisionLabel(d string) string {
	if key, ok := decisionKeys[d]; ok {
		return v.Settings.T(key)
	}
	return d
}

func (v *ApprovalView) sync() {
	a := v.Item.Approval
	if v.key == a.ApprovalKey && len(v.chosen) == len(a.Actions) {
		return
	}
	n := len(a.Actions)
	v.key = a.ApprovalKey
	v.chosen, v.edit, v.message = make([]string, n), make([]string, n), make([]string, n)
	for i, act := range a.Actions {
		v.edit[i] = state.IndentJSON(act.Args)
	}
	v.invalid = ""
	v.restore()
}

// approvalDraft is what the card keeps for a reload: per action, the
// decision chosen, the edited arguments and the message.
type approvalDraft struct {
	Chosen, Edit, Message []string
}

// restore starts from what was chosen and typed before a reload
// (Form.Restore), when it still fits the actions.
func (v *ApprovalView) restore() {
	var kept approvalDraft
	n := len(v.chosen)
	if v.Form.Restore == "" || json.Unmarshal([]byte(v.Form.Restore), &kept) != nil ||
		len(kept.Chosen) != n || len(kept.Edit) != n || len(kept.Message) != n {
		return
	}
	v.chosen, v.edit, v.message = kept.Chosen, kept.Edit, kept.Message
}

// changed raises what is chosen and typed so far (ActionFormDraft): a
// reload keeps it.
func (v *ApprovalView) changed(ctx app.Context) {
	raw, _ := json.Marshal(approvalDraft{Chosen: v.chosen, Edit: v.edit, Message: v.message})
	ctx.NewActionWithValue(ActionFormDraft, FormDraft{Key: v.key, Value: string(raw)})
}

// sending is true while the decisions are on their way.
func (v *ApprovalView) sending() bool { return v.Form.Sending }

// errorText is why the card is not sent: its own check first, then the
// controller's outcome.
func (v *ApprovalView) errorText() string {
	if v.invalid != "" {
		return v.invalid
	}
	return v.Form.Error
}

// OnMount never focuses a decision: see cards.go.
func (v *ApprovalView) OnMount(ctx app.Context) {
	v.sync()
	if v.Item.Approval.State == state.ApprovalPending {
		focusCardIfIdle(ctx, domID("approval", v.Item))
	}
}

func (v *ApprovalView) OnUpdate(ctx app.Context) { v.sync() }

// title names what is to run: the tool's label for one action.
func (v *ApprovalView) title() string {
	a := v.Item.Approval
	if len(a.Actions) != 1 {
		return v.Settings.N("approval.title_many", len(a.Actions))
	}
	name := state.ReadableName(a.Actions[0].Name)
	if t := a.Tool(0); t != nil && t.Tool.Label != "" {
		name = t.Tool.Label
	}
	if name == "" {
		// An agent's own request for approval that names no action.
		return v.Settings.T("approval.title_plain")
	}
	return v.Settings.T("approval.title", name)
}

func (v *ApprovalView) Render() app.UI {
	v.sync()
	a := v.Item.Approval
	root := app.Div().ID(domID("approval", v.Item)).Class("item approval state-"+string(a.State)).
		DataSet("kind", "approval").DataSet("card", true).DataSet("state", string(a.State)).Attr("role", "group").
		Aria("labelledby", domID("aph", v.Item))
	title := app.Div().ID(domID("aph", v.Item)).Class("approval-title").Text(v.title())
	// The backend's own question (an AG-UI interrupt's message), as text.
	text := app.If(a.Text != "", func() app.UI { return app.P().Class("approval-text").Text(a.Text) })
	if a.State != state.ApprovalPending {
		key := approvalStateKeys[a.State]
		if k, ok := automaticStateKeys[a.State]; ok && a.Automatic {
			key = k // the backend's policy decided, not the user
		}
		return root.Body(title, text, app.Div().Class("approval-status").DataSet("automatic", a.Automatic).Text(v.Settings.T(key)))
	}
	root = root.Attr("tabindex", "-1").Aria("keyshortcuts", CardShortcut)
	body := []app.UI{app.Div().Class("card-head").Body(title, cardKeys(v.Settings)), text}
	for i := range a.Actions {
		body = append(body, v.action(i))
	}
	if until, err := time.Parse(time.RFC3339, a.ExpiresAt); err == nil {
		// When the agent stops waiting (an AG-UI interrupt's expiresAt).
		body = append(body, app.P().Class("form-countdown").Body(&Countdown{Until: until, Settings: v.Settings, ExpireKey: a.ApprovalKey}))
	}
	if msg := v.errorText(); msg != "" {
		body = append(body, app.P().Class("form-error").Attr("role", "alert").DataSet("testid", "form-error").Text(msg))
	}
	sending := v.sending()
	if v.needsSend() || sending {
		label := v.Settings.T("approval.send")
		if sending {
			label = v.Settings.T("approval.sending")
		}
		body = append(body, app.Div().Class("approval-actions").Body(
			app.Button().Class("primary").DataSet("testid", "approval-send").Disabled(sending).OnClick(v.send).Text(label),
			app.If(len(a.Actions) == 1 && v.needsSend(), func() app.UI {
				return app.Button().Class("secondary").Disabled(sending).OnClick(func(ctx app.Context, e app.Event) {
					v.chosen[0], v.invalid = "", ""
				}).Text(v.Settings.T("approval.cancel"))
			}),
		))
	}
	return root.Body(body...)
}

// needsSend is true when a separate Send button is needed: several actions,
// or a decision that takes input.
func (v *ApprovalView) needsSend() bool {
	if len(v.chosen) != 1 {
		return true
	}
	return v.chosen[0] != "" && v.chosen[0] != "approve"
}

func (v *ApprovalView) action(i int) app.UI {
	a := v.Item.Approval
	act := a.Actions[i]
	buttons := make([]app.UI, 0, len(act.Allowed))
	for j, d := range act.Allowed {
		cls := "decision decision-" + d
		if d == "approve" {
			cls += " primary"
		}
		buttons = append(buttons, app.Button().ID(fmt.Sprintf("%s-%d-%d", domID("ap", v.Item), i, j)).Class(cls).
			DataSet("decision", d).Aria("pressed", v.chosen[i] == d).Disabled(v.sending()).
			OnClick(func(ctx app.Context, e app.Event) { v.pick(ctx, i, d) }, app.EventScope(v.Item.Key, i, d)).Text(v.decisionLabel(d)))
	}
	var field app.UI
	switch v.chosen[i] {
	case "edit":
		field = app.Label().Class("field").Body(
			app.Span().Text(v.Settings.T("approval.args")),
			app.Textarea().Class("json-editor").Attr("spellcheck", "false").Rows(6).Disabled(v.sending()).Text(v.edit[i]).
				OnInput(func(ctx app.Context, e app.Event) {
					v.edit[i] = e.Get("target").Get("value").String()
					ctx.PreventUpdate()
					v.changed(ctx)
				}, app.EventScope(v.Item.Key, i, "edit")),
		)
	case "reject", "respond":
		key := "approval.reason"
		if v.chosen[i] == "respond" {
			key = "approval.response"
		}
		field = app.Label().Class("field").Body(
			app.Span().Text(v.Settings.T(key)),
			app.Input().Type("text").Value(v.message[i]).Disabled(v.sending()).
				OnInput(func(ctx app.Context, e app.Event) {
					v.message[i] = e.Get("target").Get("value").String()
					ctx.PreventUpdate()
					v.changed(ctx)
				}, app.EventScope(v.Item.Key, i, "message")).
				OnKeyDown(v.sendOnEnter, app.EventScope(v.Item.Key, i, "enter")),
		)
	}
	return app.Div().Class("approval-action").Body(
		app.If(len(a.Actions) > 1, func() app.UI {
			return app.Div().Class("action-name").Text(state.ReadableName(act.Name))
		}),
		app.If(!emptyArgs(act.Args), func() app.UI { return app.Pre().Class("action-args").Text(state.IndentJSON(act.Args)) }),
		app.Div().Class("decisions").Body(buttons...),
		field,
	)
}

// emptyArgs reports arguments with nothing to show (none, or {}).
func emptyArgs(args json.RawMessage) bool {
	t := strings.TrimSpace(string(args))
	return t == "" || t == "{}" || t == "null"
}

func (v *ApprovalView) pick(ctx app.Context, i int, d string) {
	if v.sending() {
		return
	}
	v.chosen[i], v.invalid = d, ""
	v.changed(ctx)
	if len(v.chosen) == 1 && d == "approve" {
		v.send(ctx, app.Event{})
	}
}

// sendOnEnter: Enter in a reason or response field sends the decisions,
// as in any one-line field of a form.
func (v *ApprovalView) sendOnEnter(ctx app.Context, e app.Event) {
	if !isEnter(e) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	v.send(ctx, e)
}

func (v *ApprovalView) send(ctx app.Context, e app.Event) {
	if v.sending() {
		return
	}
	a := v.Item.Approval
	decisions := make([]wire.Decision, len(a.Actions))
	for i, act := range a.Actions {
		switch v.chosen[i] {
		case "":
			v.invalid = v.Settings.T("approval.choose")
			return
		case "edit":
			args, err := state.ParseEditedArgs(v.edit[i])
			if err != nil {
				v.invalid = v.Settings.T("approval.invalid_json")
				if json.Valid([]byte(strings.TrimSpace(v.edit[i]))) {
					v.invalid = v.Settings.T("approval.args_not_object")
				}
				return
			}
			decisions[i] = wire.Decision{Type: "edit", EditedAction: &wire.EditedAction{Name: act.Name, Args: args}}
		case "reject", "respond":
			decisions[i] = wire.Decision{Type: v.chosen[i], Message: v.message[i]}
		default:
			decisions[i] = wire.Decision{Type: v.chosen[i]}
		}
	}
	if err := state.CheckDecisions(a, decisions); err != nil {
		v.invalid = err.Error()
		return
	}
	v.invalid = ""
	ctx.NewActionWithValue(ActionDecide, DecideCommand{Key: a.ApprovalKey, Decisions: decisions})
}
