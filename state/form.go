package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// Forms for AG-UI interrupts that are not tool approvals (BACKENDS.md
// section 2): one field per top-level property of the interrupt's response
// schema: a boolean is a checkbox, an enum a choice, a string or number an
// input; required ones are enforced.

// formSchema is the part of a JSON Schema a form reads.
type formSchema struct {
	Type        json.RawMessage   `json:"type"` // a name, or a list of names
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Required    []string          `json:"required"`
	Properties  json.RawMessage   `json:"properties"`
}

// formFieldsOf reads a response schema. An absent schema, or one that
// accepts any object, gives a form with no fields (the user confirms); a
// schema for a single value (a string, a number, an enum ...) gives one
// field whose value is the answer itself (free). ok is false when a
// required property cannot be shown as an input (an object, a list): that
// interrupt cannot become a form. Optional properties that cannot are left
// out.
func formFieldsOf(schema json.RawMessage) (fields []FormField, free, ok bool) {
	if wire.IsNull(schema) {
		return nil, false, true
	}
	t := bytes.TrimSpace(schema)
	if t[0] != '{' {
		// true accepts anything, false nothing: neither has a field to ask.
		return nil, false, string(t) == "true"
	}
	var sc formSchema
	if json.Unmarshal(t, &sc) != nil {
		return nil, false, false
	}
	typ := schemaType(sc.Type)
	if typ != "object" && typ != "" {
		f, ok := fieldOf("value", sc)
		if !ok {
			return nil, false, false
		}
		f.Required = true
		return []FormField{f}, true, true
	}
	if len(sc.Enum) > 0 {
		f, _ := fieldOf("value", sc)
		f.Required = true
		return []FormField{f}, true, true
	}
	names, props, err := orderedProperties(sc.Properties)
	if err != nil {
		return nil, false, false
	}
	required := map[string]bool{}
	for _, r := range sc.Required {
		required[r] = true
	}
	for i, name := range names {
		var ps formSchema
		if json.Unmarshal(props[i], &ps) != nil {
			if required[name] {
				return nil, false, false
			}
			continue
		}
		f, fok := fieldOf(name, ps)
		if !fok {
			if required[name] {
				return nil, false, false
			}
			continue
		}
		f.Required = required[name]
		fields = append(fields, f)
	}
	return fields, false, true
}

// fieldOf makes the input of one property; ok is false for a type no input
// can take.
func fieldOf(name string, sc formSchema) (FormField, bool) {
	f := FormField{Name: name, Label: sc.Title, Description: sc.Description}
	if f.Label == "" {
		f.Label = ReadableName(name)
	}
	if !wire.IsNull(sc.Default) {
		f.Default = sc.Default
	}
	if len(sc.Enum) == 0 && !wire.IsNull(sc.Const) {
		sc.Enum = []json.RawMessage{sc.Const}
	}
	if len(sc.Enum) > 0 {
		f.Type = FieldEnum
		f.Options = sc.Enum
		return f, true
	}
	switch schemaType(sc.Type) {
	case "boolean":
		f.Type = FieldBoolean
	case "string", "":
		f.Type = FieldString
	case "number":
		f.Type = FieldNumber
	case "integer":
		f.Type = FieldInteger
	default:
		return f, false
	}
	return f, true
}

// schemaType is a schema's type; of a list, the first that is not "null".
func schemaType(raw json.RawMessage) string {
	if s, ok := wire.StringValue(raw); ok {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for _, t := range list {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// orderedProperties reads a JSON object's members in the order they were
// written: a form shows its fields as the schema lists them.
func orderedProperties(raw json.RawMessage) (names []string, values []json.RawMessage, err error) {
	if wire.IsNull(raw) {
		return nil, nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	tok, err := d.Token()
	if err != nil {
		return nil, nil, err
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return nil, nil, fmt.Errorf("properties is not an object")
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		values = append(values, v)
	}
	return names, values, nil
}

// FormError says which field cannot be sent as it is.
type FormError struct {
	Field  string // the field's name
	Reason string // "required", "not_a_number", "not_an_integer", "bad_option"
}

func (e *FormError) Error() string { return fmt.Sprintf("field %s: %s", e.Field, e.Reason) }

// BuildFormValues turns what the user entered into the answer a form sends:
// inputs holds each field's text by name ("true"/"false" for a checkbox,
// the index of the chosen option for an enum, the typed text otherwise; an
// absent or empty entry is not answered). Required fields must be answered
// (a checkbox always is). The answer is a JSON object, or for a free form
// the single value itself.
func BuildFormValues(f *FormCard, inputs map[string]string) (json.RawMessage, error) {
	values := make(map[string]json.RawMessage, len(f.Fields))
	for _, fl := range f.Fields {
		text := strings.TrimSpace(inputs[fl.Name])
		var v json.RawMessage
		switch fl.Type {
		case FieldBoolean:
			v = json.RawMessage(strconv.FormatBool(text == "true"))
		case FieldEnum:
			if text == "" {
				break
			}
			i, err := strconv.Atoi(text)
			if err != nil || i < 0 || i >= len(fl.Options) {
				return nil, &FormError{fl.Name, "bad_option"}
			}
			v = fl.Options[i]
		case FieldNumber, FieldInteger:
			if text == "" {
				break
			}
			n, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, &FormError{fl.Name, "not_a_number"}
			}
			if fl.Type == FieldInteger {
				if n != float64(int64(n)) {
					return nil, &FormError{fl.Name, "not_an_integer"}
				}
				v = json.RawMessage(strconv.FormatInt(int64(n), 10))
			} else {
				v = json.RawMessage(strconv.FormatFloat(n, 'f', -1, 64))
			}
		default:
			if text == "" {
				break
			}
			v, _ = json.Marshal(inputs[fl.Name])
		}
		if v == nil {
			if fl.Required {
				return nil, &FormError{fl.Name, "required"}
			}
			continue
		}
		values[fl.Name] = v
	}
	if f.Free && len(f.Fields) == 1 {
		if v, ok := values[f.Fields[0].Name]; ok {
			return v, nil
		}
		return json.RawMessage(`""`), nil
	}
	return json.Marshal(values)
}

// answerForm marks a form answered with values.
func (s *Store) answerForm(it *Item, values json.RawMessage) {
	if it.Form.State != QuestionPending {
		return
	}
	it.Form.State = QuestionAnswered
	if !wire.IsNull(values) {
		it.Form.Values = values
	} else {
		it.Form.Values = json.RawMessage("{}")
	}
	s.resolve(it)
}

// newFormItem makes a pending form.
func (s *Store) newFormItem(key, text string, fields []FormField, free bool, expiresAt string) *Item {
	it := s.newItem(KindForm)
	if fields == nil {
		fields = []FormField{}
	}
	it.Form = &FormCard{ApprovalKey: key, State: QuestionPending, Text: text, Fields: fields, ExpiresAt: expiresAt, Free: free}
	s.approvals[key] = it
	s.pending = append(s.pending, it)
	s.changes.Pending = true
	return it
}
