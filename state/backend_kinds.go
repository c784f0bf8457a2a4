package state

import "encoding/json"

// What BACKENDS.md sections 2 and 3 add to REPLAY.md: the schema-driven
// form of an AG-UI interrupt, and the notices of the AG-UI and AI SDK
// modes (the notice item itself is in reset.go, Anthropic's reasons in
// anthropic.go).

// The kind BACKENDS.md section 2 adds.
const (
	// KindForm asks the user for values an agent needs to go on: Item.Form.
	KindForm Kind = "form"
)

// The notice reasons of the AG-UI and AI SDK modes. The UI shows a
// localised sentence for each, and the detail under it.
const (
	// NoticeUnsupportedInterrupt: the agent asked for input Stepwise cannot
	// turn into a form; it is cancelled with the next message. Detail is
	// the agent's own question, when it sent one.
	NoticeUnsupportedInterrupt = "unsupported_interrupt"
	// NoticeStreamEnded: the backend's stream stopped before the run's
	// end (no RUN_FINISHED, no finish); Detail says why, when known.
	NoticeStreamEnded = "stream_ended"
	// NoticeBackendError: the backend refused the request (an HTTP error);
	// Detail is "HTTP 502: what it said".
	NoticeBackendError = "backend_error"
	// NoticeNotAStream: the backend answered, but not with an event stream
	// (an HTML page, say); Detail is what it was.
	NoticeNotAStream = "not_a_stream"
	// NoticeTimedOut: the backend's stream brought nothing for too long
	// and the page ended the run.
	NoticeTimedOut = "timed_out"
)

// FormCard is an interrupt's form (BACKENDS.md section 2): fields built
// from the top-level properties of its response schema.
type FormCard struct {
	ApprovalKey string // the interrupt's id
	State       QuestionState
	Text        string // the interrupt's message
	Fields      []FormField
	// Values is the object sent as the answer, nil until answered.
	Values json.RawMessage
	// ExpiresAt is when the agent stops waiting (RFC 3339), "" for never.
	ExpiresAt string
	// Free marks a form for an interrupt that asked a plain question with
	// no schema (LangGraph's interrupt("...")): its one string field is
	// sent as the answer itself, not inside an object.
	Free bool
}

// The form field types.
const (
	FieldBoolean = "boolean" // a checkbox
	FieldEnum    = "enum"    // one of Options
	FieldString  = "string"  // a text input
	FieldNumber  = "number"  // a number input
	FieldInteger = "integer" // a whole number input
)

// FormField is one input of a form.
type FormField struct {
	Name     string
	Type     string
	Required bool
	// Options are an enum's values, as JSON values in schema order.
	Options []json.RawMessage
	// Label is the property's title, else its name made readable.
	Label       string
	Description string
	// Default is the schema's default value, nil when none.
	Default json.RawMessage
}

type viewForm struct {
	viewBase
	ApprovalKey string          `json:"approval_key"`
	State       QuestionState   `json:"state"`
	Text        string          `json:"text"`
	Fields      []viewFormField `json:"fields"`
	Values      json.RawMessage `json:"values"`
	ExpiresAt   string          `json:"expires_at,omitempty"`
}

type viewFormField struct {
	Name     string            `json:"name"`
	Type     string            `json:"type"`
	Required bool              `json:"required"`
	Options  []json.RawMessage `json:"options"`
}

type viewApprovalText struct {
	viewApproval
	Text      string `json:"text"`
	ExpiresAt string `json:"expires_at,omitempty"`
}

// viewBackendItem is the view of the kinds and fields of this file; ok is
// false for an item the rest of view.go shows.
func viewBackendItem(it *Item, base viewBase) (v any, ok bool) {
	switch it.Kind {
	case KindForm:
		f := it.Form
		fields := make([]viewFormField, len(f.Fields))
		for i, fl := range f.Fields {
			fields[i] = viewFormField{fl.Name, fl.Type, fl.Required, fl.Options}
		}
		values := f.Values
		if values == nil {
			values = json.RawMessage("null")
		}
		return viewForm{base, f.ApprovalKey, f.State, f.Text, fields, values, f.ExpiresAt}, true
	}
	return nil, false
}
