package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnthropicDemoScenario replays the events of the demo's anthropic
// scenario (DEMO.md format) and checks that it shows what it is there to
// show: a native web search feeding the sources panel, one cited answer
// with several markers, and the turn's usage.
func TestAnthropicDemoScenario(t *testing.T) {
	data, err := os.ReadFile("../demo/scenarios/anthropic.jsonl")
	require.NoError(t, err)
	var events bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var step struct {
			Event json.RawMessage `json:"event"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &step), sc.Text())
		if len(step.Event) > 0 {
			events.Write(step.Event)
			events.WriteByte('\n')
		}
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Run([]string{"--events", "-"}, &events, &stdout, &stderr), stderr.String())

	var v struct {
		AgentStatus string `json:"agent_status"`
		Skipped     int    `json:"skipped"`
		Sources     []struct {
			Query   string `json:"query"`
			Sources []struct {
				PageAge string `json:"page_age"`
			} `json:"sources"`
		} `json:"sources"`
		Usage *struct {
			InputTokens       int `json:"input_tokens"`
			OutputTokens      int `json:"output_tokens"`
			WebSearchRequests int `json:"web_search_requests"`
		} `json:"usage"`
		Items []struct {
			Kind      string `json:"kind"`
			Name      string `json:"name"`
			Status    string `json:"status"`
			Text      string `json:"text"`
			Citations []struct {
				N  int `json:"n"`
				At int `json:"at"`
			} `json:"citations"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &v))
	assert.Equal(t, "idle", v.AgentStatus)
	assert.Zero(t, v.Skipped)
	require.Len(t, v.Sources, 1)
	assert.Len(t, v.Sources[0].Sources, 4)
	assert.Equal(t, "2 days ago", v.Sources[0].Sources[0].PageAge)
	require.NotNil(t, v.Usage)
	assert.Equal(t, 1, v.Usage.WebSearchRequests)

	var kinds []string
	for _, it := range v.Items {
		kinds = append(kinds, it.Kind)
	}
	assert.Equal(t, []string{"thinking", "text", "tool", "text"}, kinds)
	assert.Equal(t, "web_search", v.Items[2].Name)
	assert.Equal(t, "done", v.Items[2].Status)
	answer := v.Items[3]
	require.GreaterOrEqual(t, len(answer.Citations), 4, "several cited passages")
	numbers := map[int]bool{}
	for _, c := range answer.Citations {
		numbers[c.N] = true
		assert.LessOrEqual(t, c.At, len(answer.Text))
	}
	assert.Len(t, numbers, 4)
	assert.True(t, strings.HasPrefix(answer.Text, "Theo các nguồn tin mới nhất, "), "the cited passages read as one answer")
}
