package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"stepwise/state/wire"
)

// NoPreference is the answer sent for a skipped question.
const NoPreference = "[No preference]"

// Choice is what the user did with one question of a form.
type Choice struct {
	// Selected holds the indexes of the chosen options; for a single-choice
	// question, at most one.
	Selected []int
	// FreeText is the text typed for the free-text option, used when that
	// option is selected.
	FreeText string
	// Skipped sends NoPreference whatever is selected.
	Skipped bool
}

// AnswerError says which question cannot be sent as it is.
type AnswerError struct {
	Question int    // index of the question
	Reason   string // "unanswered", "empty_free_text", "too_many", "bad_option"
}

func (e *AnswerError) Error() string {
	return fmt.Sprintf("question %d: %s", e.Question+1, e.Reason)
}

// BuildAnswers turns the user's choices into the answers an approval frame
// carries (PROTOCOL.md section 5): the chosen label; for multiSelect the
// labels joined by ", " in the options' order; the typed text for the
// free-text option; NoPreference for a skipped question.
func BuildAnswers(questions []wire.Question, choices []Choice) (map[string]string, error) {
	if len(choices) != len(questions) {
		return nil, fmt.Errorf("%d choices for %d questions", len(choices), len(questions))
	}
	answers := make(map[string]string, len(questions))
	for i, q := range questions {
		c := choices[i]
		if c.Skipped {
			answers[q.Question] = NoPreference
			continue
		}
		if len(c.Selected) == 0 {
			return nil, &AnswerError{i, "unanswered"}
		}
		if !q.MultiSelect && len(c.Selected) > 1 {
			return nil, &AnswerError{i, "too_many"}
		}
		chosen := make([]bool, len(q.Options))
		for _, idx := range c.Selected {
			if idx < 0 || idx >= len(q.Options) {
				return nil, &AnswerError{i, "bad_option"}
			}
			chosen[idx] = true
		}
		var parts []string
		for idx, opt := range q.Options {
			if !chosen[idx] {
				continue
			}
			if opt.Input {
				text := strings.TrimSpace(c.FreeText)
				if text == "" {
					return nil, &AnswerError{i, "empty_free_text"}
				}
				parts = append(parts, text)
			} else {
				parts = append(parts, opt.Label)
			}
		}
		answers[q.Question] = strings.Join(parts, ", ")
	}
	return answers, nil
}

// DecisionError says why decisions cannot be sent.
type DecisionError struct {
	Action int // index of the action, or -1 for the whole list
	Reason string
}

func (e *DecisionError) Error() string {
	if e.Action < 0 {
		return e.Reason
	}
	return fmt.Sprintf("action %d: %s", e.Action+1, e.Reason)
}

// CheckDecisions verifies decisions before they are sent: one per action, in
// order, each allowed for its action, an edit with a JSON object for args
// (PROTOCOL.md sections 1 and 6; the middleware refuses anything else).
func CheckDecisions(card *ApprovalCard, decisions []wire.Decision) error {
	if len(decisions) != len(card.Actions) {
		return &DecisionError{-1, fmt.Sprintf("%d decisions for %d actions", len(decisions), len(card.Actions))}
	}
	for i, d := range decisions {
		if !slices.Contains(card.Actions[i].Allowed, d.Type) {
			return &DecisionError{i, fmt.Sprintf("decision %q is not allowed", d.Type)}
		}
		if d.Type == "edit" {
			if d.EditedAction == nil {
				return &DecisionError{i, "edit without edited_action"}
			}
			if _, err := ParseEditedArgs(string(d.EditedAction.Args)); err != nil {
				return &DecisionError{i, err.Error()}
			}
		}
	}
	return nil
}

// ParseEditedArgs validates the text of the arguments editor: it must be a
// JSON object. It returns the compacted object.
func ParseEditedArgs(text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	if !json.Valid([]byte(t)) {
		return nil, errors.New("not valid JSON")
	}
	if !strings.HasPrefix(t, "{") {
		return nil, errors.New("arguments must be a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(t)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
