package components

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// QuestionView is an ask_user_question form (PROTOCOL.md section 5). It
// stands outside groups, counts down its timeout, raises one answer, and
// turns read-only once answered or expired. Whether its answer is on the
// way or was refused comes from the controller (Form); the form keeps only
// what the user is choosing.
type QuestionView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Form     FormState

	key     string
	choices []state.Choice
	invalid string // why the choices cannot be sent, until they change
	mounted time.Time
}

// answerErrorKeys explain each state.AnswerError reason.
var answerErrorKeys = map[string]string{
	"unanswered":      "question.err.unanswered",
	"empty_free_text": "question.err.empty_free_text",
	"too_many":        "question.err.too_many",
	"bad_option":      "question.err.bad_option",
}

func (v *QuestionView) sync() {
	q := v.Item.Question
	if v.key != q.ApprovalKey || len(v.choices) != len(q.Questions) {
		v.key = q.ApprovalKey
		v.choices = make([]state.Choice, len(q.Questions))
		v.invalid, v.mounted = "", time.Now()
		v.restore()
	}
}

// restore starts from the choices kept before a reload (Form.Restore),
// when they still fit the questions.
func (v *QuestionView) restore() {
	var kept []state.Choice
	if v.Form.Restore == "" || json.Unmarshal([]byte(v.Form.Restore), &kept) != nil || len(kept) != len(v.choices) {
		return
	}
	for qi, c := range kept {
		if slices.ContainsFunc(c.Selected, func(oi int) bool { return oi < 0 || oi >= len(v.Item.Question.Questions[qi].Options) }) {
			return
		}
	}
	v.choices = kept
}

// changed raises the choices so far (ActionFormDraft): a reload keeps them.
func (v *QuestionView) changed(ctx app.Context) {
	raw, _ := json.Marshal(v.choices)
	ctx.NewActionWithValue(ActionFormDraft, FormDraft{Key: v.key, Value: string(raw)})
}

// sending is true while the answer is on its way: the form is read-only.
func (v *QuestionView) sending() bool { return v.Form.Sending }

// OnMount never focuses an option: see cards.go.
func (v *QuestionView) OnMount(ctx app.Context) {
	v.sync()
	if v.Item.Question.State == state.QuestionPending {
		focusCardIfIdle(ctx, domID("question", v.Item))
	}
}

func (v *QuestionView) OnUpdate(ctx app.Context) { v.sync() }

func (v *QuestionView) inputID(qi, oi int) string {
	return fmt.Sprintf("%s-%d-%d", domID("q", v.Item), qi, oi)
}

func (v *QuestionView) Render() app.UI {
	v.sync()
	q := v.Item.Question
	root := app.Div().ID(domID("question", v.Item)).Class("item question state-"+string(q.State)).
		DataSet("kind", "question").DataSet("card", true).DataSet("state", string(q.State)).Attr("role", "group").
		Aria("labelledby", domID("qh", v.Item))
	if q.State != state.QuestionPending {
		return root.Body(v.resolved())
	}
	root = root.Attr("tabindex", "-1").Aria("keyshortcuts", CardShortcut)
	shown := v.Form.Shown
	if shown.IsZero() {
		shown = v.mounted
	}
	until := deadline(q.CreatedAt, shown, q.TimeoutSeconds)
	blocks := make([]app.UI, 0, len(q.Questions)+3)
	blocks = append(blocks, app.Div().Class("question-head").Body(
		app.Span().ID(domID("qh", v.Item)).Class("question-icon").Text("?"),
		&Countdown{Until: until, Settings: v.Settings, Class: "countdown"},
		cardKeys(v.Settings),
	))
	for qi := range q.Questions {
		blocks = append(blocks, v.question(qi))
	}
	if msg := v.errorText(); msg != "" {
		blocks = append(blocks, app.P().Class("form-error").Attr("role", "alert").DataSet("testid", "form-error").Text(msg))
	}
	label := v.Settings.T("question.submit")
	if v.sending() {
		label = v.Settings.T("question.sending")
	}
	blocks = append(blocks, app.Button().Class("primary").DataSet("testid", "question-submit").
		Disabled(v.sending()).OnClick(v.submit).Text(label))
	return root.Body(blocks...)
}

// question draws question qi. Handlers read their indexes from the scope
// they are registered with: go-app keeps a handler whose code and scope are
// unchanged, so nothing per-render may hide in a closure.
func (v *QuestionView) question(qi int) app.UI {
	qu := v.Item.Question.Questions[qi]
	c := v.choices[qi]
	scope := app.EventScope(v.Item.Key, qi)
	legend := app.Legend().Body(
		app.If(qu.Header != "", func() app.UI { return app.Span().Class("chip").Text(qu.Header) }),
		app.Span().Class("question-text").Text(qu.Question),
	)
	sending := v.sending()
	if c.Skipped {
		return app.FieldSet().Class("question-block skipped").Body(
			legend,
			app.P().Class("skipped-note").Text(v.Settings.T("question.skipped")),
			app.Button().Class("link").Disabled(sending).OnClick(func(ctx app.Context, e app.Event) {
				v.choices[qi].Skipped = false
				v.changed(ctx)
			}, scope).Text(v.Settings.T("question.unskip")),
		)
	}
	inputType := "radio"
	if qu.MultiSelect {
		inputType = "checkbox"
	}
	name := domID("q", v.Item) + "-" + strconv.Itoa(qi)
	opts := make([]app.UI, 0, len(qu.Options)+1)
	for oi, o := range qu.Options {
		selected := slices.Contains(c.Selected, oi)
		label := o.Label
		if o.Input && label == "" {
			label = v.Settings.T("question.other")
		}
		opts = append(opts, app.Label().Class("option").For(v.inputID(qi, oi)).Body(
			app.Input().ID(v.inputID(qi, oi)).Type(inputType).Name(name).Checked(selected).Disabled(sending).
				OnChange(func(ctx app.Context, e app.Event) {
					v.choose(qi, oi, e.Get("target").Get("checked").Bool())
					v.changed(ctx)
				}, app.EventScope(v.Item.Key, qi, oi)),
			app.Span().Class("option-text").Body(
				app.Span().Class("option-label").Text(label),
				app.If(o.Description != "", func() app.UI { return app.Span().Class("option-desc").Text(o.Description) }),
			),
		))
		if o.Input && selected {
			opts = append(opts, app.Input().Type("text").Class("free-text").
				Aria("label", label).Placeholder(v.Settings.T("question.other_input")).Value(c.FreeText).Disabled(sending).
				OnInput(func(ctx app.Context, e app.Event) {
					v.choices[qi].FreeText = e.Get("target").Get("value").String()
					ctx.PreventUpdate()
					v.changed(ctx)
				}, scope).
				OnKeyDown(v.submitOnEnter, scope))
		}
	}
	return app.FieldSet().Class("question-block").Body(
		legend,
		app.Div().Class("options").Body(opts...),
		app.Button().Class("link skip").DataSet("testid", "question-skip").Disabled(sending).
			OnClick(func(ctx app.Context, e app.Event) {
				v.choices[qi].Skipped = true
				v.invalid = ""
				v.changed(ctx)
			}, scope).Text(v.Settings.T("question.skip")),
	)
}

func (v *QuestionView) choose(qi, oi int, checked bool) {
	c := &v.choices[qi]
	v.invalid = ""
	if !v.Item.Question.Questions[qi].MultiSelect {
		c.Selected = []int{oi}
		return
	}
	c.Selected = slices.DeleteFunc(c.Selected, func(x int) bool { return x == oi })
	if checked {
		c.Selected = append(c.Selected, oi)
	}
}

// errorText is why the form is not sent: its own check first, then the
// controller's outcome.
func (v *QuestionView) errorText() string {
	if v.invalid != "" {
		return v.invalid
	}
	return v.Form.Error
}

// submitOnEnter: Enter in the "Other" field submits the answers, as in
// any one-line field of a form.
func (v *QuestionView) submitOnEnter(ctx app.Context, e app.Event) {
	if !isEnter(e) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	v.submit(ctx, e)
}

// submit raises the answers; the controller sends them once, however
// often it is clicked.
func (v *QuestionView) submit(ctx app.Context, e app.Event) {
	if v.sending() {
		return
	}
	q := v.Item.Question
	answers, err := state.BuildAnswers(q.Questions, v.choices)
	if err != nil {
		var ae *state.AnswerError
		if errors.As(err, &ae) {
			v.invalid = v.Settings.T(answerErrorKeys[ae.Reason], ae.Question+1)
		} else {
			v.invalid = err.Error()
		}
		return
	}
	v.invalid = ""
	ctx.NewActionWithValue(ActionAnswer, AnswerCommand{Key: q.ApprovalKey, Answers: answers})
}

// resolved shows each question with its answer, read-only.
func (v *QuestionView) resolved() app.UI {
	q := v.Item.Question
	rows := make([]app.UI, 0, len(q.Questions)+1)
	status := v.Settings.T("question.answered")
	if q.State == state.QuestionExpired {
		status = v.Settings.T("question.expired")
	}
	rows = append(rows, app.Div().Class("question-head").Body(
		app.Span().ID(domID("qh", v.Item)).Class("question-icon").Text("?"),
		app.Span().Class("question-status").Text(status),
	))
	for _, qu := range q.Questions {
		answer, ok := q.Answers[qu.Question]
		cls := "qa-answer"
		switch {
		case !ok:
			answer = v.Settings.T("question.no_answer")
		case answer == state.NoPreference: // a skipped question, in protocol words
			answer, cls = v.Settings.T("question.no_preference"), "qa-answer qa-skipped"
		}
		rows = append(rows, app.Div().Class("qa").Body(
			app.Div().Class("qa-question").Text(qu.Question),
			app.Div().Class(cls).Text(answer),
		))
	}
	return app.Div().Class("question-resolved").Body(rows...)
}
