package components

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// FormView is the form an AG-UI interrupt asks for (BACKENDS.md section 2):
// its message, then one input per field of its response schema (a
// checkbox, a choice, a text or number input), required ones enforced
// before it is sent, and the time left when the agent stops waiting. It
// raises one FormCommand; answered or expired, it is read-only. The form
// keeps only what the user is typing.
type FormView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Form     FormState

	key     string
	inputs  map[string]string
	invalid string
}

// formErrorKeys explain each state.FormError reason.
var formErrorKeys = map[string]string{
	"required":       "form.err.required",
	"not_a_number":   "form.err.not_a_number",
	"not_an_integer": "form.err.not_an_integer",
	"bad_option":     "form.err.bad_option",
}

func (v *FormView) sync() {
	f := v.Item.Form
	if v.key == f.ApprovalKey && v.inputs != nil {
		return
	}
	v.key, v.invalid = f.ApprovalKey, ""
	v.inputs = map[string]string{}
	for _, fl := range f.Fields {
		if fl.Default == nil {
			continue
		}
		switch fl.Type {
		case state.FieldBoolean:
			v.inputs[fl.Name] = string(fl.Default)
		case state.FieldEnum:
			for i, o := range fl.Options {
				if string(o) == string(fl.Default) {
					v.inputs[fl.Name] = strconv.Itoa(i)
				}
			}
		default:
			var s string
			if json.Unmarshal(fl.Default, &s) == nil {
				v.inputs[fl.Name] = s
			} else {
				v.inputs[fl.Name] = string(fl.Default)
			}
		}
	}
}

// OnMount never focuses a field: see cards.go.
func (v *FormView) OnMount(ctx app.Context) {
	v.sync()
	if v.Item.Form.State == state.QuestionPending {
		focusCardIfIdle(ctx, domID("form", v.Item))
	}
}

func (v *FormView) OnUpdate(ctx app.Context) { v.sync() }

func (v *FormView) inputID(i int) string { return domID("form", v.Item) + "-" + strconv.Itoa(i) }

func (v *FormView) set(name, value string) {
	v.inputs[name] = value
	v.invalid = ""
}

func (v *FormView) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if v.Form.Sending || v.Item.Form.State != state.QuestionPending {
		return
	}
	values, err := state.BuildFormValues(v.Item.Form, v.inputs)
	if err != nil {
		var fe *state.FormError
		if errors.As(err, &fe) {
			v.invalid = v.Settings.T(formErrorKeys[fe.Reason], v.label(fe.Field))
		} else {
			v.invalid = err.Error()
		}
		return
	}
	ctx.NewActionWithValue(ActionSubmitForm, FormCommand{Key: v.key, Values: values})
}

func (v *FormView) label(name string) string {
	for _, fl := range v.Item.Form.Fields {
		if fl.Name == name {
			return fl.Label
		}
	}
	return name
}

func (v *FormView) Render() app.UI {
	v.sync()
	f := v.Item.Form
	root := app.Form().ID(domID("form", v.Item)).Class("item form state-"+string(f.State)).
		DataSet("kind", "form").DataSet("card", true).DataSet("state", string(f.State)).
		Aria("labelledby", domID("formh", v.Item)).OnSubmit(v.submit)
	text := f.Text
	if text == "" {
		text = v.Settings.T("form.title")
	}
	title := app.P().ID(domID("formh", v.Item)).Class("form-title").Text(text)
	if f.State != state.QuestionPending {
		if f.State == state.QuestionExpired {
			return root.Body(title, app.Div().Class("form-status").Text(v.Settings.T("form.expired")))
		}
		return root.Body(append([]app.UI{title}, v.answers()...)...)
	}
	root = root.Attr("tabindex", "-1").Aria("keyshortcuts", CardShortcut)
	body := []app.UI{app.Div().Class("card-head").Body(title, cardKeys(v.Settings))}
	sending := v.Form.Sending
	for i, fl := range f.Fields {
		body = append(body, v.field(i, fl, sending))
	}
	if until, err := time.Parse(time.RFC3339, f.ExpiresAt); err == nil {
		body = append(body, app.P().Class("form-countdown").Body(&Countdown{Until: until, Settings: v.Settings, ExpireKey: f.ApprovalKey}))
	}
	msg := v.invalid
	if msg == "" {
		msg = v.Form.Error
	}
	if msg != "" {
		body = append(body, app.P().Class("form-error").Attr("role", "alert").DataSet("testid", "form-error").Text(msg))
	}
	label := v.Settings.T("form.submit")
	if sending {
		label = v.Settings.T("question.sending")
	}
	body = append(body, app.Div().Class("form-actions").Body(
		app.Button().Type("submit").Class("primary").DataSet("testid", "form-submit").Disabled(sending).Text(label),
	))
	return root.Body(body...)
}

// field draws one input with its label.
func (v *FormView) field(i int, fl state.FormField, disabled bool) app.UI {
	id := v.inputID(i)
	name := fl.Name
	text := fl.Label
	if text == "" {
		// The one answer of a plain question (its text is the title).
		text = v.Settings.T("form.answer")
	}
	label := app.Label().For(id).Text(text)
	if fl.Required {
		label = app.Label().For(id).Body(app.Text(text), app.Span().Class("form-required").Aria("hidden", true).Text(" *"))
	}
	var input app.UI
	switch fl.Type {
	case state.FieldBoolean:
		return app.Div().Class("form-field form-check").Body(
			app.Input().ID(id).Type("checkbox").Name(name).Checked(v.inputs[name] == "true").Disabled(disabled).
				OnChange(func(ctx app.Context, e app.Event) {
					v.set(name, strconv.FormatBool(ctx.JSSrc().Get("checked").Bool()))
				}),
			app.Label().For(id).Text(text),
		)
	case state.FieldEnum:
		opts := []app.UI{app.Option().Value("").Text(v.Settings.T("form.choose"))}
		for j, o := range fl.Options {
			opts = append(opts, app.Option().Value(strconv.Itoa(j)).Selected(v.inputs[name] == strconv.Itoa(j)).Text(optionText(o)))
		}
		input = app.Select().ID(id).Name(name).Required(fl.Required).Disabled(disabled).
			OnChange(func(ctx app.Context, e app.Event) { v.set(name, ctx.JSSrc().Get("value").String()) }).Body(opts...)
	default:
		typ, mode := "text", ""
		if fl.Type == state.FieldNumber || fl.Type == state.FieldInteger {
			mode = "decimal"
			if fl.Type == state.FieldInteger {
				mode = "numeric"
			}
		}
		in := app.Input().ID(id).Type(typ).Name(name).Value(v.inputs[name]).Required(fl.Required).Disabled(disabled).
			OnInput(func(ctx app.Context, e app.Event) { v.set(name, ctx.JSSrc().Get("value").String()) })
		if mode != "" {
			in = in.Attr("inputmode", mode)
		}
		input = in
	}
	out := []app.UI{label, input}
	if fl.Description != "" {
		out = append(out, app.Small().Class("form-hint").Text(fl.Description))
	}
	return app.Div().Class("form-field").Body(out...)
}

// optionText shows an enum value: a string as it is, anything else as JSON.
func optionText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// answers shows what was sent: each field with its value, or the one
// answer of a free form.
func (v *FormView) answers() []app.UI {
	f := v.Item.Form
	var values map[string]json.RawMessage
	if json.Unmarshal(f.Values, &values) != nil || f.Free {
		return []app.UI{app.Div().Class("qa").Body(app.Div().Class("qa-answer").Text(optionText(f.Values)))}
	}
	var out []app.UI
	for _, fl := range f.Fields {
		raw, ok := values[fl.Name]
		text := v.Settings.T("question.no_answer")
		switch {
		case ok && fl.Type == state.FieldBoolean:
			text = v.Settings.T("form.no")
			if string(raw) == "true" {
				text = v.Settings.T("form.yes")
			}
		case ok:
			text = optionText(raw)
		}
		out = append(out, app.Div().Class("qa").Body(
			app.Div().Class("qa-question").Text(fl.Label),
			app.Div().Class("qa-answer").Text(text),
		))
	}
	if len(out) == 0 {
		out = append(out, app.Div().Class("form-status").Text(v.Settings.T("form.answered")))
	}
	return out
}
