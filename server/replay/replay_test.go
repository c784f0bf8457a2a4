package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// conformanceCase is a case of ../shared/conformance (copied to testdata).
type conformanceCase struct {
	Name    string            `json:"name"`
	History json.RawMessage   `json:"history"`
	Events  []json.RawMessage `json:"events"`
	Expect  any               `json:"expect"`
}

// TestConformance runs every case as ../shared/conformance/check does:
// expect is matched as a subset of replay's output.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/conformance/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			var c conformanceCase
			require.NoError(t, json.Unmarshal(data, &c))
			got := runCase(t, c)
			var errs []string
			matchSubset(c.Expect, got, "$", &errs)
			require.Empty(t, errs, "view model:\n%s", mustJSON(got))
		})
	}
}

func runCase(t *testing.T, c conformanceCase) any {
	dir := t.TempDir()
	var args []string
	if len(c.History) > 0 {
		p := filepath.Join(dir, "history.json")
		require.NoError(t, os.WriteFile(p, c.History, 0o644))
		args = append(args, "--history", p)
	}
	if c.Events != nil {
		var b bytes.Buffer
		for _, ev := range c.Events {
			var raw string
			if json.Unmarshal(ev, &raw) == nil {
				b.WriteString(raw) // a string is a raw line, to test bad input
			} else {
				require.NoError(t, json.Compact(&b, ev))
			}
			b.WriteByte('\n')
		}
		p := filepath.Join(dir, "events.jsonl")
		require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
		args = append(args, "--events", p)
	}
	var stdout, stderr bytes.Buffer
	code := Run(args, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var got any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got))
	return got
}

func matchSubset(exp, got any, path string, errs *[]string) {
	switch e := exp.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*errs = append(*errs, fmt.Sprintf("%s: expected an object, got %v", path, got))
			return
		}
		for k, v := range e {
			gv, ok := g[k]
			if !ok {
				*errs = append(*errs, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			matchSubset(v, gv, path+"."+k, errs)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(e) {
			*errs = append(*errs, fmt.Sprintf("%s: expected %d entries, got %v", path, len(e), got))
			return
		}
		for i := range e {
			matchSubset(e[i], g[i], fmt.Sprintf("%s[%d]", path, i), errs)
		}
	default:
		if !reflect.DeepEqual(exp, got) {
			*errs = append(*errs, fmt.Sprintf("%s: expected %v, got %v", path, exp, got))
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

func TestUnreadableInputsExitTwo(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "h.json")
	require.NoError(t, os.WriteFile(notJSON, []byte("[1,2]"), 0o644))
	for name, args := range map[string][]string{
		"missing history":       {"--history", filepath.Join(dir, "nope.json")},
		"missing events":        {"--events", filepath.Join(dir, "nope.jsonl")},
		"history not an object": {"--history", notJSON},
	} {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 2, Run(args, nil, &stdout, &stderr))
			require.Empty(t, stdout.String())
			msg := strings.TrimSpace(stderr.String())
			require.NotEmpty(t, msg)
			require.NotContains(t, msg, "\n", "the error is one line")
		})
	}
}

func TestStandardInputAndNoInput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	in := strings.NewReader(`{"type":"message_start","message":{"id":"m","role":"assistant"},"event_id":7}` + "\nnot json\n")
	require.Equal(t, 0, Run([]string{"--events", "-"}, in, &stdout, &stderr))
	var v map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &v))
	require.Equal(t, "running", v["agent_status"])
	require.Equal(t, "7", v["last_event_id"])
	require.Equal(t, float64(1), v["skipped"])

	stdout.Reset()
	require.Equal(t, 0, Run(nil, nil, &stdout, &stderr))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &v))
	require.Equal(t, "idle", v["agent_status"])
	require.Nil(t, v["last_event_id"])
	require.Equal(t, []any{}, v["items"])
}

// An SSE event whose data spans several `data:` lines is one frame, its
// lines joined with "\n", as the browser's parser reads it (the
// specification's rule); its event and id fields and comments are not
// frames.
func TestMultiLineSSEData(t *testing.T) {
	capture := "event: message\nid: 1\ndata: {\"type\":\"start\",\ndata:  \"messageId\":\"m1\"}\n\n" +
		": comment\ndata: {\"type\":\"text-start\",\"id\":\"t\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\ndata: \"delta\":\"two\\nlines\"}\n\n" +
		"data: {\"type\":\"text-end\",\"id\":\"t\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n"
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Run([]string{"--events", "-"}, strings.NewReader(capture), &stdout, &stderr), stderr.String())
	var v struct {
		AgentStatus string           `json:"agent_status"`
		Skipped     int              `json:"skipped"`
		Items       []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &v))
	require.Equal(t, 0, v.Skipped)
	require.Equal(t, "idle", v.AgentStatus)
	require.Len(t, v.Items, 1)
	require.Equal(t, "two\nlines", v.Items[0]["text"])
}
