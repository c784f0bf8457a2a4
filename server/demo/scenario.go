// Package demo is the built-in demo agent of DEMO.md: scenarios of events
// with realistic pacing, played over the real protocol, with its sessions
// kept in a data file.
package demo

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"stepwise/state"
	"stepwise/state/wire"
)

//go:embed scenarios/*.jsonl
var builtin embed.FS

// DefaultScenario plays for any message that names no scenario.
const DefaultScenario = "timeline"

// The waits a scenario line may ask for.
const (
	// WaitApproval holds the run until the client answers the pending
	// approval or question (or it times out).
	WaitApproval = "approval"
	// WaitGate holds the run until Agent.Release opens the gate: tests use
	// it to stop or reload at a known point of a run.
	WaitGate = "gate"
)

// Step is one line of a scenario file.
type Step struct {
	Event   json.RawMessage `json:"event,omitempty"`
	SleepMs int             `json:"sleep_ms,omitempty"`
	Wait    string          `json:"wait,omitempty"`
	// When plays the line only after the user's answer to the last
	// approval wait was one of these outcomes (Outcomes): a scenario tells
	// what its agent does after an approval, a rejection, a response.
	When []string `json:"when,omitempty"`
}

// Outcomes are the answers to an approval wait a "when" may name: a
// decision's type (its first action's), a question's answers, or no answer
// in time.
var Outcomes = []string{"approve", "edit", "reject", "respond", "answered", "timeout"}

// Scenario is a named script of steps.
type Scenario struct {
	Name  string
	Steps []Step

	lastEvent int  // index in Steps of the last event: the run ends with it
	cost      cost // what playing it may add to a session's log, at most
}

// cost is an upper bound of the log a run adds: its events, the user's
// answers and the cancelled results a stop adds.
type cost struct {
	events int
	bytes  int64
}

// Scenarios holds scenarios by name.
type Scenarios map[string]*Scenario

// LoadScenarios reads the built-in scenarios and, when dir is not empty,
// every dir/*.jsonl (which may replace a built-in one of the same name). A
// scenario that is not valid fails the load with its file and line.
func LoadScenarios(dir string) (Scenarios, error) {
	out := Scenarios{}
	if err := loadFS(out, builtin, "scenarios", "scenarios"); err != nil {
		return nil, err
	}
	if dir != "" {
		if err := loadFS(out, os.DirFS(dir), ".", dir); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadFS loads fsys/dir/*.jsonl; shown is the directory as errors name it.
func loadFS(out Scenarios, fsys fs.FS, dir, shown string) error {
	paths, err := fs.Glob(fsys, path.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(path.Base(p), ".jsonl")
		sc, err := ParseScenario(name, data)
		if err != nil {
			var le *LineError
			if errors.As(err, &le) {
				le.File = filepath.Join(shown, path.Base(p))
			}
			return err
		}
		out[name] = sc
	}
	return nil
}

// LineError is a scenario line that is not valid.
type LineError struct {
	File string // the file, when known
	Line int
	Err  string
}

func (e *LineError) Error() string {
	file := e.File
	if file == "" {
		file = "scenario"
	}
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", file, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s", file, e.Line, e.Err)
}

// ParseScenario reads a scenario file: one JSON object a line. Every event
// must be a stream event the client applies (state.Store is the judge), a
// wait for an approval must follow one, and the last event must end the
// run: a bad file fails here, never in the middle of a run.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	sc := &Scenario{Name: name, lastEvent: -1}
	v := newValidator()
	sr := bufio.NewScanner(bytes.NewReader(data))
	sr.Buffer(make([]byte, 0, 64<<10), 16<<20)
	fail := func(line int, format string, args ...any) error {
		return &LineError{File: name + ".jsonl", Line: line, Err: fmt.Sprintf(format, args...)}
	}
	lastLine := 0
	for n := 1; sr.Scan(); n++ {
		line := bytes.TrimSpace(sr.Bytes())
		if len(line) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			return nil, fail(n, "not valid UTF-8 text")
		}
		var st Step
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil {
			return nil, fail(n, "not a scenario line (want {\"event\": {...}}, {\"sleep_ms\": N} or {\"wait\": \"approval\"|\"gate\"}): %v", err)
		}
		kinds := 0
		for _, set := range []bool{len(st.Event) > 0, st.SleepMs != 0, st.Wait != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			return nil, fail(n, "a line holds exactly one of event, sleep_ms and wait")
		}
		for _, w := range st.When {
			if !slices.Contains(Outcomes, w) {
				return nil, fail(n, "unknown outcome %q in when (want one of %s)", w, strings.Join(Outcomes, ", "))
			}
		}
		if len(st.When) > 0 && !v.waited {
			return nil, fail(n, `"when" before any "wait": "approval"`)
		}
		switch {
		case st.SleepMs < 0:
			return nil, fail(n, "sleep_ms is negative")
		case st.Wait != "":
			if st.Wait != WaitApproval && st.Wait != WaitGate {
				return nil, fail(n, "unknown wait %q (want %q or %q)", st.Wait, WaitApproval, WaitGate)
			}
			if err := v.wait(st.Wait); err != nil {
				return nil, fail(n, "%v", err)
			}
		case len(st.Event) > 0:
			if err := v.event(st.Event); err != nil {
				return nil, fail(n, "%v", err)
			}
			sc.lastEvent = len(sc.Steps)
			lastLine = n
			sc.cost.events += 2 // the event, and a cancelled result if it opens a tool
			sc.cost.bytes += int64(len(st.Event)) + 256
		}
		if st.Wait == WaitApproval {
			sc.cost.events++
			sc.cost.bytes += MaxFrameBytes + 256
		}
		sc.Steps = append(sc.Steps, st)
	}
	if err := sr.Err(); err != nil {
		return nil, fail(0, "%v", err)
	}
	if sc.lastEvent < 0 {
		return nil, fail(0, "no events")
	}
	if len(sc.Steps[sc.lastEvent].When) > 0 {
		return nil, fail(lastLine, `the last event has a "when": the run must end whatever the answer`)
	}
	if v.store.Status() == state.StatusRunning {
		return nil, fail(lastLine, "the run does not end: the last event leaves the agent running (end with message_stop or a terminal event)")
	}
	sc.cost.events += 4 // the user's message and a closing terminal
	sc.cost.bytes += 4 << 10
	return sc, nil
}

// validator plays a scenario's events into a store, as a client would.
type validator struct {
	store  *state.Store
	id     int
	waited bool // an approval wait came
}

func newValidator() *validator {
	v := &validator{store: state.New(state.DefaultOptions())}
	v.apply([]byte(`{"type":"user_message","content":"/scenario"}`))
	return v
}

func (v *validator) apply(ev []byte) state.Changes {
	v.id++
	return v.store.ApplyJSON(withEventID(ev, strconv.Itoa(v.id)))
}

func (v *validator) event(raw json.RawMessage) error {
	if _, err := wire.DecodeEvent(raw); err != nil {
		return fmt.Errorf("not a stream event: %v", err)
	}
	var probe struct {
		Type string `json:"type"`
	}
	json.Unmarshal(raw, &probe)
	if c := v.apply(raw); c.Outcome == state.Skipped {
		return fmt.Errorf("a %q event the client would skip as invalid (see PROTOCOL.md section 2 for its fields)", probe.Type)
	}
	return nil
}

// wait checks a wait line; an approval wait is answered (approve, or the
// first option of each question) so the events after it are checked in
// the state they will meet.
func (v *validator) wait(kind string) error {
	if kind != WaitApproval {
		return nil
	}
	v.waited = true
	p := v.store.Pending()
	if p == nil {
		return errors.New(`"wait": "approval" with no pending approval_request before it`)
	}
	res := map[string]any{"type": "approval_result"}
	switch {
	case p.Question != nil:
		res["approval_key"] = p.Question.ApprovalKey
		answers := map[string]string{}
		for _, q := range p.Question.Questions {
			answers[q.Question] = "[No preference]"
		}
		res["answers"] = answers
	case p.Approval != nil:
		res["approval_key"] = p.Approval.ApprovalKey
		decisions := make([]map[string]string, len(p.Approval.Actions))
		for i := range decisions {
			decisions[i] = map[string]string{"type": "approve"}
		}
		res["decisions"] = decisions
	}
	b, _ := json.Marshal(res)
	v.apply(b)
	return nil
}

// Names lists the scenarios, sorted.
func (s Scenarios) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// EventsJSONL is the scenario as a plain event stream (what replay mode
// plays): its events in order with event ids 1, 2, …; pauses and waits
// are left out, and of the lines that depend on an answer, those after an
// approval or an answered question are kept.
func (sc *Scenario) EventsJSONL() []byte {
	var b bytes.Buffer
	id := 0
	for _, st := range sc.Steps {
		if len(st.Event) == 0 || !st.plays("approve") && !st.plays("answered") {
			continue
		}
		id++
		b.Write(withEventID(st.Event, strconv.Itoa(id)))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// withEventID returns the event object with "event_id" set.
func withEventID(ev json.RawMessage, id string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(ev, &m) != nil {
		return ev
	}
	m["event_id"], _ = json.Marshal(id)
	out, _ := json.Marshal(m)
	return out
}

// plays is true when the step plays after an approval wait's outcome.
func (st Step) plays(outcome string) bool {
	return len(st.When) == 0 || slices.Contains(st.When, outcome)
}
