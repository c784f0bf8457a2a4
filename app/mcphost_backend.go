package app

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"stepwise/state"
	"stepwise/state/wire"
)

// appBackend is where an MCP App's resource reads and tool calls go: the
// backend holds the MCP connection (docs/mcp-apps.md, "Where the resource
// comes from"). Both block: call them on a goroutine of their own. Each
// returns the MCP result (ReadResourceResult, CallToolResult) as JSON.
type appBackend interface {
	ReadResource(tool state.ToolApp, uri string) (json.RawMessage, error)
	CallTool(tool state.ToolApp, name string, args json.RawMessage) (json.RawMessage, error)
}

// The deployment's paths for apps (server flags through go-app's Env);
// {session_id} is replaced.
const (
	EnvAppResourcePath  = "STEPWISE_APP_RESOURCE_PATH"
	EnvAppToolCallsPath = "STEPWISE_APP_TOOL_CALLS_PATH"
	EnvSandbox          = "STEPWISE_PAGE_SANDBOX" // the sandbox proxy's URL, or ":PORT" on the page's own host
)

// appPaths are the endpoints of the native protocol's extension, and of
// the AI SDK mode (whose routes are the app's own: docs/mcp-apps.md).
func appPaths(cfg Config, getenv func(string) string) (resource, calls string) {
	// Beside the history endpoint: a base path or other paths the
	// deployment gave it carry over.
	base := "/api/sessions/{session_id}"
	if b, ok := strings.CutSuffix(cfg.HistoryPath, "/history"); ok && b != "" {
		base = b
	}
	resource, calls = base+"/ui-resource", base+"/tool-calls"
	if cfg.Protocol == ProtocolAISDK {
		base := strings.TrimSuffix(cfg.ChatPath, "/")
		resource, calls = base+"/mcp-apps/resource", base+"/mcp-apps/tool-calls"
	}
	if v := getenv(EnvAppResourcePath); v != "" {
		resource = v
	}
	if v := getenv(EnvAppToolCallsPath); v != "" {
		calls = v
	}
	return resource, calls
}

// httpJSON is one JSON request (mcphost_js.go: the browser's fetch).
type httpJSON func(method, url string, body []byte) (status int, answer []byte, err error)

// pathAppBackend speaks the native extension's two endpoints (the AI SDK
// mode uses the same contract at its own paths).
type pathAppBackend struct {
	do    httpJSON
	paths func() (resource, calls, sessionID string)
}

func (b pathAppBackend) ReadResource(tool state.ToolApp, uri string) (json.RawMessage, error) {
	resource, _, session := b.paths()
	u := resource + "?uri=" + url.QueryEscape(uri)
	if session != "" && !strings.Contains(resource, "{session_id}") {
		u += "&session_id=" + url.QueryEscape(session)
	}
	return b.answer(b.do("GET", strings.ReplaceAll(u, "{session_id}", url.PathEscape(session)), nil))
}

// appToolCall is the body of a tool call the page sends for an app.
type appToolCall struct {
	Name        string          `json:"name"`
	Arguments   json.RawMessage `json:"arguments"`
	ToolUseID   string          `json:"tool_use_id,omitempty"`
	ResourceURI string          `json:"resource_uri"`
	SessionID   string          `json:"session_id,omitempty"`
}

func (b pathAppBackend) CallTool(tool state.ToolApp, name string, args json.RawMessage) (json.RawMessage, error) {
	_, calls, session := b.paths()
	body, _ := json.Marshal(appToolCall{Name: name, Arguments: args, ResourceURI: tool.ResourceURI, SessionID: session})
	return b.answer(b.do("POST", strings.ReplaceAll(calls, "{session_id}", url.PathEscape(session)), body))
}

func (pathAppBackend) answer(status int, body []byte, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, &backendError{Status: status, Message: appRefusal(status, body)}
	}
	if !json.Valid(body) {
		return nil, &backendError{Status: status, Message: "the answer is not JSON"}
	}
	return body, nil
}

// appRefusal is a refused request's message: the error object of
// docs/protocol-extensions.md, else the status.
func appRefusal(status int, body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return "HTTP " + itoa(status)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// aguiAppBackend asks an AG-UI agent as CopilotKit's MCP Apps do: a run
// whose forwardedProps carry __proxiedMCPRequest, answered by
// @ag-ui/mcp-apps-middleware with the MCP result in RUN_FINISHED's result.
type aguiAppBackend struct {
	do     httpJSON
	path   func() (agentPath, threadID string)
	nextID func() string
}

func (b aguiAppBackend) ReadResource(tool state.ToolApp, uri string) (json.RawMessage, error) {
	return b.proxied(tool, "resources/read", map[string]string{"uri": uri})
}

func (b aguiAppBackend) CallTool(tool state.ToolApp, name string, args json.RawMessage) (json.RawMessage, error) {
	return b.proxied(tool, "tools/call", map[string]any{"name": name, "arguments": args})
}

func (b aguiAppBackend) proxied(tool state.ToolApp, method string, params any) (json.RawMessage, error) {
	path, thread := b.path()
	if tool.ServerID == "" && tool.ServerHash == "" {
		return nil, errors.New("the agent named no MCP server for this app")
	}
	req := map[string]any{"method": method, "params": params}
	if tool.ServerID != "" {
		req["serverId"] = tool.ServerID
	}
	if tool.ServerHash != "" {
		req["serverHash"] = tool.ServerHash
	}
	props, _ := json.Marshal(map[string]any{"__proxiedMCPRequest": req})
	body, _ := json.Marshal(wire.RunAgentInput{
		ThreadID: thread, RunID: b.nextID(), Messages: []wire.AGUIMessage{}, Tools: []json.RawMessage{},
		Context: []json.RawMessage{}, State: json.RawMessage("{}"), ForwardedProps: props,
	})
	status, answer, err := b.do("POST", path, body)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, &backendError{Status: status, Message: appRefusal(status, answer)}
	}
	return runFinishedResult(answer)
}

// runFinishedResult reads an AG-UI run's SSE answer for its RUN_FINISHED
// result.
func runFinishedResult(stream []byte) (json.RawMessage, error) {
	var parser wire.SSEParser
	var result json.RawMessage
	var failure string
	seen := false
	read := func(e wire.SSEEvent) {
		var ev struct {
			Type    string          `json:"type"`
			Result  json.RawMessage `json:"result"`
			Message string          `json:"message"`
		}
		if e.Done() || json.Unmarshal([]byte(e.Data), &ev) != nil {
			return
		}
		switch ev.Type {
		case "RUN_FINISHED":
			seen, result = true, ev.Result
		case "RUN_ERROR":
			failure = ev.Message
		}
	}
	parser.Feed(stream, read)
	parser.Close(read)
	if failure != "" {
		return nil, &backendError{Status: 200, Message: failure}
	}
	if !seen || len(result) == 0 || result[0] != '{' {
		return nil, &backendError{Status: 200, Message: "the agent sent no result"}
	}
	var e struct {
		Error   *string         `json:"error"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &e) == nil && e.Error != nil && e.Content == nil {
		return nil, &backendError{Status: 200, Message: *e.Error}
	}
	return result, nil
}
