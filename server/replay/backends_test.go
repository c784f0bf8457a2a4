package replay

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The public AG-UI and AI SDK transcripts of ../shared/conformance/streams
// (copied to testdata/backends, SSE as the wire carries it or JSONL) replay
// to exactly the view model next to each (NAME.view.json, checked by
// reading it against BACKENDS.md).
func TestBackendTranscriptsExact(t *testing.T) {
	files, err := filepath.Glob("testdata/backends/*")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".view.json") {
			continue
		}
		n++
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			golden, err := os.ReadFile(strings.TrimSuffix(strings.TrimSuffix(f, ".sse"), ".jsonl") + ".view.json")
			require.NoError(t, err)
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, Run([]string{"--events", f}, nil, &stdout, &stderr), stderr.String())
			require.JSONEq(t, string(golden), stdout.String())
		})
	}
	require.Equal(t, 6, n, "every public ag-ui-* and ai-sdk-* transcript is replayed")
}

// Dialects are recognised per event: one file mixing an AG-UI run, an AI
// SDK turn and native events, line by line, shows all three.
func TestMixedDialectsInOneFile(t *testing.T) {
	var b bytes.Buffer
	for _, f := range []string{"testdata/backends/ag-ui-fixture-text.sse", "testdata/backends/ai-sdk-docs-tool.sse"} {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		b.Write(data)
	}
	b.WriteString(`{"type":"user_message","content":[{"type":"text","text":"again"}]}` + "\n")
	b.WriteString(`{"type":"message_start","message":{"id":"m9","role":"assistant"}}` + "\n")
	b.WriteString(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"native"}}` + "\n")
	b.WriteString(`{"type":"content_block_stop","index":0}` + "\n")
	b.WriteString(`{"type":"message_stop"}` + "\n")
	b.WriteString(`{"type":"NOT_AN_AGUI_EVENT"}` + "\n")
	b.WriteString(`{"type":"not-an-ai-sdk-chunk"}` + "\n")
	b.WriteString(`data: {"type":"error","errorText":"rate limited"}` + "\n")

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Run([]string{"--events", "-"}, &b, &stdout, &stderr), stderr.String())
	var v struct {
		AgentStatus string           `json:"agent_status"`
		Skipped     int              `json:"skipped"`
		Items       []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &v))
	var kinds []string
	for _, it := range v.Items {
		kinds = append(kinds, it["kind"].(string))
	}
	require.Equal(t, []string{"text", "group", "user", "text", "error"}, kinds)
	require.Equal(t, "Hello, how can I help you today?", v.Items[0]["text"])
	require.Equal(t, "native", v.Items[3]["text"])
	require.Equal(t, "rate limited", v.Items[4]["text"])
	require.Equal(t, 2, v.Skipped, "the unknown AG-UI event and the unknown AI SDK chunk")
	require.Equal(t, "idle", v.AgentStatus)
}
