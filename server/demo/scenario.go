// Package demo is the built-in demo agent of DEMO.md: scenarios of events
// with realistic pacing, played over the real protocol.
package demo

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

//go:embed scenarios/*.jsonl
var builtin embed.FS

// DefaultScenario plays for any message that names no scenario.
const DefaultScenario = "timeline"

// Step is one line of a scenario file.
type Step struct {
	Event   json.RawMessage `json:"event"`
	SleepMs int             `json:"sleep_ms"`
	Wait    string          `json:"wait"`
}

// Scenario is a named script of steps.
type Scenario struct {
	Name  string
	Steps []Step
}

// Scenarios holds scenarios by name.
type Scenarios map[string]*Scenario

// LoadScenarios reads the built-in scenarios and, when dir is not empty,
// every dir/*.jsonl (which may replace a built-in one of the same name).
func LoadScenarios(dir string) (Scenarios, error) {
	out := Scenarios{}
	if err := loadFS(out, builtin, "scenarios"); err != nil {
		return nil, err
	}
	if dir != "" {
		if err := loadFS(out, os.DirFS(dir), "."); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func loadFS(out Scenarios, fsys fs.FS, dir string) error {
	paths, err := fs.Glob(fsys, filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		sc, err := ParseScenario(name, data)
		if err != nil {
			return err
		}
		out[name] = sc
	}
	return nil
}

// ParseScenario reads a scenario file: one JSON object a line.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	sc := &Scenario{Name: name}
	sr := bufio.NewScanner(bytes.NewReader(data))
	sr.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sr.Scan(); n++ {
		line := bytes.TrimSpace(sr.Bytes())
		if len(line) == 0 {
			continue
		}
		var st Step
		if err := json.Unmarshal(line, &st); err != nil {
			return nil, fmt.Errorf("scenario %s line %d: %w", name, n, err)
		}
		if len(st.Event) == 0 && st.SleepMs == 0 && st.Wait == "" {
			return nil, fmt.Errorf("scenario %s line %d: no event, sleep_ms or wait", name, n)
		}
		if st.Wait != "" && st.Wait != "approval" {
			return nil, fmt.Errorf("scenario %s line %d: unknown wait %q", name, n, st.Wait)
		}
		sc.Steps = append(sc.Steps, st)
	}
	return sc, sr.Err()
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
// are left out.
func (sc *Scenario) EventsJSONL() []byte {
	var b bytes.Buffer
	id := 0
	for _, st := range sc.Steps {
		if len(st.Event) == 0 {
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
