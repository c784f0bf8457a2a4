package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool's preliminary outputs are its progress, shown while it runs; the
// final output replaces them.
func TestAISDKPreliminaryOutputsAreProgress(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"start"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"searchFlights","input":{"from":"HAN"}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":{"status":"searching","text":"Searching  flights\nfrom HAN…"},"preliminary":true}`,
	)
	tool := s.Tool("c1").Tool
	require.Equal(t, ToolActive, tool.Status)
	assert.Equal(t, "Searching flights from HAN…", tool.Progress, "one line, from the output's text")
	v := viewJSON(t, s)
	step := v["items"].([]any)[0].(map[string]any)["steps"].([]any)[0].(map[string]any)
	assert.Equal(t, "Searching flights from HAN…", step["progress"])

	applyTo(s, `{"type":"tool-output-available","toolCallId":"c1","output":"3 of 9 airlines","preliminary":true}`)
	assert.Equal(t, "3 of 9 airlines", tool.Progress)
	applyTo(s, `{"type":"tool-output-available","toolCallId":"c1","output":{"cheapest":"VN 123"},"preliminary":true}`)
	assert.Equal(t, "", tool.Progress, "nothing readable: no progress line (the JSON is the response)")
	applyTo(s, `{"type":"tool-output-available","toolCallId":"c1","output":{"cheapest":"VN 123","status":"done"}}`)
	assert.Equal(t, ToolDone, tool.Status)
	assert.Equal(t, "", tool.Progress)
	assert.JSONEq(t, `{"cheapest":"VN 123","status":"done"}`, *tool.Result)
}

// A v7 reasoning file is a step with its reasoning, shown as a file; the
// part is kept and shows again after a reload.
func TestAISDKReasoningFileIsAStep(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"start","messageId":"m1"}`,
		`{"type":"reasoning-start","id":"r"}`,
		`{"type":"reasoning-delta","id":"r","delta":"Sketching it."}`,
		`{"type":"reasoning-end","id":"r"}`,
		`{"type":"reasoning-file","url":"https://files.example/sketch.png","mediaType":"image/png"}`,
		`{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"Here it is."}`,
		`{"type":"text-end","id":"t"}`,
		`{"type":"finish"}`,
	)
	items := s.Items()
	require.Equal(t, []Kind{KindGroup, KindText}, kindsOf(items))
	steps := items[0].Group.Steps
	require.Equal(t, []Kind{KindThinking, KindActivity}, kindsOf(steps))
	assert.Equal(t, "file", steps[1].Activity.Type)
	assert.Equal(t, "https://files.example/sketch.png", steps[1].Text)

	r := newDialectStore()
	r.restoreUI(s.UIConversation())
	require.Equal(t, kindsOf(items), kindsOf(r.Items()))
	assert.Equal(t, kindsOf(steps), kindsOf(r.Items()[0].Group.Steps))
}
