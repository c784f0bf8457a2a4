package state

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An encrypted code execution result (code execution run on web search
// results: its stdout is encrypted for the model) says so and never shows
// the encrypted value.
func TestAnthropicEncryptedCodeExecutionResult(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude","usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"code_execution","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"code\":\"print(len(results))\"}"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"encrypted_code_execution_result","encrypted_stdout":"EuYBCkYIBxgCKkBsecret","stderr":"","return_code":0,"content":[]}}}`,
		`{"type":"content_block_stop","index":1}`,
	)
	tool := s.Tool("srvtoolu_1")
	require.NotNil(t, tool)
	assert.Equal(t, ToolDone, tool.Tool.Status)
	assert.True(t, tool.Tool.Encrypted)
	assert.Equal(t, EncryptedResult, *tool.Tool.Result)
	raw := mustMarshal(t, s.View())
	assert.False(t, strings.Contains(raw, "EuYBCkYIBxgCKkBsecret"), "the encrypted value is never shown")
}
