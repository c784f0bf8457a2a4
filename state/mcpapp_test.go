package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func TestParseToolApp(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want *ToolApp
	}{
		{`{"resourceUri":"ui://stock/card","visibility":["model","app"]}`, &ToolApp{ResourceURI: "ui://stock/card", Visibility: []string{"model", "app"}}},
		{`{"resourceUri":"ui://x"}`, &ToolApp{ResourceURI: "ui://x"}},
		{`{"ui":{"resourceUri":"ui://nested","visibility":["app"]}}`, &ToolApp{ResourceURI: "ui://nested", Visibility: []string{"app"}}},
		{`{"ui/resourceUri":"ui://flat"}`, &ToolApp{ResourceURI: "ui://flat"}},
		{`{"resourceUri":"ui://v","visibility":["model",7,"root"]}`, &ToolApp{ResourceURI: "ui://v", Visibility: []string{"model"}}},
		{`{"resourceUri":"https://evil.example/app.html"}`, nil},
		{`{"resourceUri":"ui://"}`, nil},
		{`{"resourceUri":"ui://a b"}`, nil},
		{`{"resourceUri":"ui://a\nb"}`, nil},
		{`{"resourceUri":7}`, nil},
		{`"ui://x"`, nil},
		{`null`, nil},
		{``, nil},
	} {
		assert.Equal(t, tc.want, ParseToolApp(json.RawMessage(tc.raw)), tc.raw)
	}
	long := `{"resourceUri":"ui://` + string(make([]byte, 3000)) + `"}`
	assert.Nil(t, ParseToolApp(json.RawMessage(long)))
}

func TestAppCallable(t *testing.T) {
	assert.True(t, (&ToolApp{}).AppCallable(), "no visibility: model and app")
	assert.True(t, (&ToolApp{Visibility: []string{"app"}}).AppCallable())
	assert.False(t, (&ToolApp{Visibility: []string{"model"}}).AppCallable())
	assert.False(t, (&ToolApp{Visibility: []string{}}).AppCallable())
}

// A native tool_use names its app; its result's structured content reaches
// the app's result, and the view model reports the tool's ui.
func TestNativeToolApp(t *testing.T) {
	s := apply(t, msgStart, groupStart,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"show_stock","input":{"symbol":"ACME"},"ui":{"resourceUri":"ui://demo/stock","visibility":["model","app"]}}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","tool_name":"show_stock","content":"ACME 120.5","status":"success","structured_content":{"symbol":"ACME","prices":[1,2]}}}`,
	)
	it := s.Tool("t1")
	require.NotNil(t, it)
	require.NotNil(t, it.Tool.App)
	assert.Equal(t, "ui://demo/stock", it.Tool.App.ResourceURI)
	res, ok := MCPResult(it.Tool)
	require.True(t, ok)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"ACME 120.5"}],"structuredContent":{"symbol":"ACME","prices":[1,2]}}`, string(res))

	v := viewJSON(t, s)
	steps := v["items"].([]any)[0].(map[string]any)["steps"].([]any)
	assert.Equal(t, map[string]any{"resourceUri": "ui://demo/stock", "visibility": []any{"model", "app"}}, steps[0].(map[string]any)["ui"])
}

func TestNativeToolAppErrorResult(t *testing.T) {
	s := apply(t, msgStart,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"show_stock","input":{},"ui":{"resourceUri":"ui://demo/stock"}}}`,
	)
	_, ok := MCPResult(s.Tool("t1").Tool)
	assert.False(t, ok, "no result yet")
	applyTo(s, `{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","content":"no such symbol","status":"error","structured_content":[1]}}`)
	res, ok := MCPResult(s.Tool("t1").Tool)
	require.True(t, ok)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"no such symbol"}],"isError":true}`, string(res), "a structured content that is not an object is dropped")
}

// A tool without ui keeps the view model as REPLAY.md has it.
func TestToolWithoutAppHasNoUIInTheViewModel(t *testing.T) {
	s := apply(t, msgStart, toolUse(1, "t1", "search", ""),
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t2","name":"x","input":{},"ui":{"resourceUri":"https://not-ui"}}}`)
	raw, err := json.Marshal(s.View())
	require.NoError(t, err)
	assert.NotContains(t, string(raw), `"ui"`)
}

func TestHistoryToolApp(t *testing.T) {
	h, err := wire.DecodeHistory([]byte(`{"session_id":"s","agent_status":"idle","messages":[
		{"role":"user","content":"stock"},
		{"role":"assistant","message_type":"step","tool_calls":[{"id":"t1","name":"show_stock","args":{"symbol":"ACME"},"ui":{"resourceUri":"ui://demo/stock"}}]},
		{"role":"tool","tool_call_id":"t1","name":"show_stock","status":"success","content":"ok","structured_content":{"symbol":"ACME"}}
	]}`))
	require.NoError(t, err)
	s := New(DefaultOptions())
	s.LoadHistory(h)
	it := s.Tool("t1")
	require.NotNil(t, it)
	require.NotNil(t, it.Tool.App)
	assert.Equal(t, "ui://demo/stock", it.Tool.App.ResourceURI)
	assert.JSONEq(t, `{"symbol":"ACME"}`, string(it.Tool.StructuredContent))
}

// @ag-ui/mcp-apps-middleware's sequence: the tool call, its result, then
// an mcp-apps activity with the whole MCP result. The activity becomes the
// tool's app, not an item.
func TestAGUIMCPAppsActivity(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get-time","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"2026-01-01T00:00:00Z"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act1","activityType":"mcp-apps","content":{"result":{"content":[{"type":"text","text":"2026-01-01T00:00:00Z"}],"structuredContent":{"time":"2026-01-01T00:00:00Z"}},"resourceUri":"ui://get-time/mcp-app.html","serverHash":"abc","serverId":"time","toolInput":{}},"replace":true}`,
		`{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
	)
	it := s.Tool("c1")
	require.NotNil(t, it)
	require.NotNil(t, it.Tool.App)
	assert.Equal(t, ToolApp{ResourceURI: "ui://get-time/mcp-app.html", ServerID: "time", ServerHash: "abc", activityID: "act1",
		Result: json.RawMessage(`{"content":[{"type":"text","text":"2026-01-01T00:00:00Z"}],"structuredContent":{"time":"2026-01-01T00:00:00Z"}}`)}, *it.Tool.App)
	res, ok := MCPResult(it.Tool)
	require.True(t, ok)
	assert.Contains(t, string(res), `"structuredContent":{"time"`)
	for _, top := range s.Items() {
		assert.NotEqual(t, KindActivity, top.Kind)
		if top.Group != nil {
			for _, st := range top.Group.Steps {
				assert.NotEqual(t, KindActivity, st.Kind, "the activity is the tool's app, not a step")
			}
		}
	}
}

// An mcp-apps activity with no tool to take it shows as any activity.
func TestAGUIMCPAppsActivityWithoutTool(t *testing.T) {
	s := newDialectStore()
	applyTo(s,
		`{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act1","activityType":"mcp-apps","content":{"resourceUri":"ui://x","toolInput":{}}}`,
	)
	var kinds []Kind
	for _, top := range s.Items() {
		kinds = append(kinds, top.Kind)
		if top.Group != nil {
			kinds = append(kinds, kindsOf(top.Group.Steps)...)
		}
	}
	assert.Contains(t, kinds, KindActivity)
}

// The AI SDK carries the app in the tool call's providerMetadata (the
// part's callProviderMetadata.mcp.app), and keeps it across a reload of
// the conversation's parts.
func TestAISDKToolApp(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("stock?")
	chunks := []string{
		`{"type":"start","messageId":"a1"}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"show_stock","dynamic":true,"providerMetadata":{"mcp":{"app":{"resourceUri":"ui://demo/stock","mimeType":"text/html;profile=mcp-app","visibility":["model","app"]}}}}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"show_stock","dynamic":true,"input":{"symbol":"ACME"},"providerMetadata":{"mcp":{"app":{"resourceUri":"ui://demo/stock","mimeType":"text/html;profile=mcp-app","visibility":["model","app"]}}}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":{"content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"finish"}`,
	}
	applyTo(s, chunks...)
	it := s.Tool("c1")
	require.NotNil(t, it)
	require.NotNil(t, it.Tool.App)
	assert.Equal(t, []string{"model", "app"}, it.Tool.App.Visibility)

	conv := s.UIConversation()
	restored := newDialectStore()
	restored.restoreUI(conv)
	require.NotNil(t, restored.Tool("c1"))
	require.NotNil(t, restored.Tool("c1").Tool.App, "the app survives a reload")

	other := newDialectStore()
	other.uiChatRequest("x")
	applyTo(other, `{"type":"start","messageId":"a1"}`,
		`{"type":"tool-input-available","toolCallId":"c2","toolName":"x","input":{},"providerMetadata":{"mcp":{"app":{"resourceUri":"ui://demo/stock","mimeType":"text/html"}}}}`)
	assert.Nil(t, other.Tool("c2").Tool.App, "another media type is no MCP App")
}

func TestAppInputWhileItStreams(t *testing.T) {
	s := newDialectStore()
	s.uiChatRequest("x")
	applyTo(s, `{"type":"start","messageId":"a1"}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"show_stock"}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"symbol\":\"AC"}`)
	args, final := AppInput(s.Tool("c1").Tool)
	assert.False(t, final)
	assert.JSONEq(t, `{"symbol":"AC"}`, string(args))
	applyTo(s, `{"type":"tool-input-available","toolCallId":"c1","toolName":"show_stock","input":{"symbol":"ACME"}}`)
	args, final = AppInput(s.Tool("c1").Tool)
	assert.True(t, final)
	assert.JSONEq(t, `{"symbol":"ACME"}`, string(args))

	n := apply(t, msgStart,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"x","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"range\":\"1"}}`)
	args, final = AppInput(n.Tool("t1").Tool)
	assert.False(t, final)
	assert.JSONEq(t, `{"range":"1"}`, string(args))
	applyTo(n, `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"M\"}"}}`, `{"type":"content_block_stop","index":1}`)
	args, final = AppInput(n.Tool("t1").Tool)
	assert.True(t, final)
	assert.JSONEq(t, `{"range":"1M"}`, string(args))
}

func TestCSPSource(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com":       "https://api.example.com",
		"https://API.example.com/":      "https://api.example.com",
		"wss://rt.example.com:8443":     "wss://rt.example.com:8443",
		"https://*.cdn.example":         "https://*.cdn.example",
		"http://127.0.0.1:9000":         "http://127.0.0.1:9000",
		"https://a.example/path":        "",
		"https://a.example?q=1":         "",
		"'unsafe-eval'":                 "",
		"*":                             "",
		"https://a.example; script-src": "",
		"javascript:alert(1)":           "",
		"data:":                         "",
		"https://user@a.example":        "",
		"https://a.example https://b":   "",
	} {
		got, ok := CSPSource(in)
		assert.Equal(t, want, got, in)
		assert.Equal(t, want != "", ok, in)
	}
}
