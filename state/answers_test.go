package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

var form = []wire.Question{
	{Question: "Goal?", Options: []wire.Option{{Label: "Dividends"}, {Label: "Growth"}, {Input: true}}},
	{Question: "Sectors?", MultiSelect: true, Options: []wire.Option{{Label: "Banks"}, {Label: "Steel"}, {Label: "Retail"}, {Label: "Other", Input: true}}},
	{Question: "Horizon?", Options: []wire.Option{{Label: "1y"}, {Input: true}}},
}

func TestBuildAnswers(t *testing.T) {
	answers, err := BuildAnswers(form, []Choice{
		{Selected: []int{0}},
		{Selected: []int{3, 0, 1}, FreeText: "  Energy "},
		{Skipped: true, Selected: []int{0}},
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"Goal?":    "Dividends",
		"Sectors?": "Banks, Steel, Energy", // the options' order, free text in its place
		"Horizon?": NoPreference,
	}, answers)

	answers, err = BuildAnswers(form, []Choice{{Selected: []int{2}, FreeText: "Income"}, {Selected: []int{1}}, {Selected: []int{0}}})
	require.NoError(t, err)
	assert.Equal(t, "Income", answers["Goal?"])
}

func TestBuildAnswersRefusesIncompleteForms(t *testing.T) {
	cases := map[string]struct {
		choices []Choice
		reason  string
		q       int
	}{
		"unanswered":      {[]Choice{{Selected: []int{0}}, {}, {Skipped: true}}, "unanswered", 1},
		"empty free text": {[]Choice{{Selected: []int{2}, FreeText: " "}, {Skipped: true}, {Skipped: true}}, "empty_free_text", 0},
		"two for single":  {[]Choice{{Selected: []int{0, 1}}, {Skipped: true}, {Skipped: true}}, "too_many", 0},
		"bad option":      {[]Choice{{Selected: []int{9}}, {Skipped: true}, {Skipped: true}}, "bad_option", 0},
	}
	for name, c := range cases {
		_, err := BuildAnswers(form, c.choices)
		var ae *AnswerError
		require.ErrorAs(t, err, &ae, name)
		assert.Equal(t, c.reason, ae.Reason, name)
		assert.Equal(t, c.q, ae.Question, name)
	}
	_, err := BuildAnswers(form, nil)
	assert.Error(t, err)
}

func TestCheckDecisions(t *testing.T) {
	card := &ApprovalCard{Actions: []ApprovalAction{
		{Name: "a", Allowed: []string{"approve", "edit"}},
		{Name: "b", Allowed: []string{"approve", "reject"}},
	}}
	ok := []wire.Decision{{Type: "edit", EditedAction: &wire.EditedAction{Name: "a", Args: json.RawMessage(`{"x":1}`)}}, {Type: "reject", Message: "no"}}
	assert.NoError(t, CheckDecisions(card, ok))
	assert.Error(t, CheckDecisions(card, ok[:1]), "one decision per action")
	assert.Error(t, CheckDecisions(card, []wire.Decision{{Type: "reject"}, {Type: "approve"}}), "reject not allowed on a")
	assert.Error(t, CheckDecisions(card, []wire.Decision{{Type: "edit", EditedAction: &wire.EditedAction{Args: json.RawMessage(`[1]`)}}, {Type: "approve"}}))
}

func TestParseEditedArgs(t *testing.T) {
	got, err := ParseEditedArgs(" {\n \"q\": \"VNM\" }\n")
	require.NoError(t, err)
	assert.Equal(t, `{"q":"VNM"}`, string(got))
	for _, bad := range []string{"", "{", "[1]", `"s"`, "{'a':1}"} {
		_, err := ParseEditedArgs(bad)
		assert.Error(t, err, bad)
	}
}
