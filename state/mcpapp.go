package state

import (
	"encoding/json"
	"strings"
	"unicode"
)

// MCP Apps (SEP-1865, extension io.modelcontextprotocol/ui): a tool may
// point at a ui:// resource, an HTML app the page renders in a sandbox
// beside the tool (docs/mcp-apps.md). The store only records which app a
// tool has and the parts of its MCP result the app receives; reading the
// resource and running the app are the client's.

// ToolApp is the MCP App a tool points at.
type ToolApp struct {
	// ResourceURI is the app's ui:// resource.
	ResourceURI string
	// Visibility is the tool's _meta.ui.visibility ("model", "app"); nil
	// when the backend sent none (both).
	Visibility []string
	// ServerID and ServerHash name the MCP server the resource and the
	// app's tool calls go to, where the dialect names one (AG-UI's MCP
	// Apps middleware); empty otherwise.
	ServerID, ServerHash string
	// Result is the tool's MCP CallToolResult as the backend sent it whole
	// (a JSON object), nil when it sent only text and structured content:
	// the client then makes one (MCPResult).
	Result json.RawMessage

	activityID string // the AG-UI activity message that gave it
}

// maxResourceURI bounds a ui:// URI: it goes into URLs and messages.
const maxResourceURI = 2048

// ParseToolApp reads a tool's _meta.ui ({"resourceUri": "ui://...",
// "visibility": [...]}), also the deprecated flat form
// {"ui/resourceUri": "ui://..."} of a whole _meta. It returns nil when raw
// names no valid ui:// resource.
func ParseToolApp(raw json.RawMessage) *ToolApp {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var meta struct {
		ResourceURI string          `json:"resourceUri"`
		Visibility  json.RawMessage `json:"visibility"`
		Flat        string          `json:"ui/resourceUri"`
		UI          *struct {
			ResourceURI string          `json:"resourceUri"`
			Visibility  json.RawMessage `json:"visibility"`
		} `json:"ui"`
	}
	if json.Unmarshal(raw, &meta) != nil {
		return nil
	}
	uri, vis := meta.ResourceURI, meta.Visibility
	if uri == "" && meta.UI != nil {
		uri, vis = meta.UI.ResourceURI, meta.UI.Visibility
	}
	if uri == "" {
		uri = meta.Flat
	}
	if !ValidResourceURI(uri) {
		return nil
	}
	app := &ToolApp{ResourceURI: uri}
	var list []any
	if json.Unmarshal(vis, &list) == nil && list != nil {
		app.Visibility = []string{}
		for _, v := range list {
			if s, ok := v.(string); ok && (s == "model" || s == "app") {
				app.Visibility = append(app.Visibility, s)
			}
		}
	}
	return app
}

// ValidResourceURI is true for a ui:// URI of reasonable length without
// spaces or control characters.
func ValidResourceURI(uri string) bool {
	if !strings.HasPrefix(uri, "ui://") || len(uri) <= len("ui://") || len(uri) > maxResourceURI {
		return false
	}
	for _, r := range uri {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return false
		}
	}
	return true
}

// AppCallable reports whether the app may call this tool back: the spec's
// visibility (absent: both) must include "app".
func (a *ToolApp) AppCallable() bool {
	if a.Visibility == nil {
		return true
	}
	for _, v := range a.Visibility {
		if v == "app" {
			return true
		}
	}
	return false
}

// setToolApp gives a tool the app its _meta.ui names; a later one replaces
// it, an invalid one changes nothing.
func (s *Store) setToolApp(it *Item, raw json.RawMessage) {
	if it == nil || it.Tool == nil {
		return
	}
	app := ParseToolApp(raw)
	if app == nil {
		return
	}
	if old := it.Tool.App; old != nil && old.ResourceURI == app.ResourceURI {
		app.ServerID, app.ServerHash, app.Result = old.ServerID, old.ServerHash, old.Result
	}
	it.Tool.App = app
	s.touch(it)
}

// setStructuredContent records a tool result's MCP structuredContent (a
// JSON object; anything else is ignored).
func (s *Store) setStructuredContent(it *Item, raw json.RawMessage) {
	if it == nil || it.Tool == nil || len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
		return
	}
	it.Tool.StructuredContent = raw
	s.touch(it)
}

// MCPResult is the CallToolResult an app receives for its tool: the one
// the backend sent whole, else one made of the result's text, its
// structured content and its status. ok is false while the tool has no
// result.
func MCPResult(t *Tool) (result json.RawMessage, ok bool) {
	if t.App != nil && len(t.App.Result) > 0 {
		return t.App.Result, true
	}
	if t.Result == nil {
		return nil, false
	}
	r := struct {
		Content           []mcpText       `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
		IsError           bool            `json:"isError,omitempty"`
	}{
		Content:           []mcpText{{Type: "text", Text: *t.Result}},
		StructuredContent: t.StructuredContent,
		IsError:           t.Status == ToolError,
	}
	out, err := json.Marshal(r)
	return out, err == nil
}

type mcpText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// viewToolUI is a tool's app in the view model (docs/protocol-extensions.md).
type viewToolUI struct {
	ResourceURI string   `json:"resourceUri"`
	Visibility  []string `json:"visibility,omitempty"`
}

func viewAppOf(t *Tool) *viewToolUI {
	if t.App == nil {
		return nil
	}
	return &viewToolUI{ResourceURI: t.App.ResourceURI, Visibility: t.App.Visibility}
}

// MCPAppsActivityType is the AG-UI activity type of an MCP App
// (@ag-ui/mcp-apps-middleware): ACTIVITY_SNAPSHOT content {result,
// resourceUri, serverHash, serverId?, toolInput}, sent right after the
// TOOL_CALL_RESULT of the tool it shows.
const MCPAppsActivityType = "mcp-apps"

// aguiMCPApp gives an mcp-apps activity to its tool: the one it updated
// before, else the newest tool with a result and no app yet. It returns
// false when it names no valid resource or no tool takes it (the activity
// is then shown as any other).
func (s *Store) aguiMCPApp(id string, content json.RawMessage) bool {
	var c struct {
		Result      json.RawMessage `json:"result"`
		ResourceURI string          `json:"resourceUri"`
		ServerHash  string          `json:"serverHash"`
		ServerID    string          `json:"serverId"`
	}
	if json.Unmarshal(content, &c) != nil || !ValidResourceURI(c.ResourceURI) {
		return false
	}
	var target *Item
	var visit func(it *Item)
	visit = func(it *Item) {
		switch {
		case it.Group != nil:
			for _, st := range it.Group.Steps {
				visit(st)
			}
		case it.Tool != nil && it.Tool.App != nil && it.Tool.App.activityID == id:
			target = it
		case it.Tool != nil && it.Tool.App == nil && it.Tool.hasResult && (target == nil || target.Tool.App == nil || target.Tool.App.activityID != id):
			target = it
		}
	}
	for _, it := range s.items {
		visit(it)
	}
	if target == nil {
		return false
	}
	app := &ToolApp{ResourceURI: c.ResourceURI, ServerID: c.ServerID, ServerHash: c.ServerHash, activityID: id}
	if len(c.Result) > 0 && c.Result[0] == '{' && json.Valid(c.Result) {
		app.Result = append(json.RawMessage(nil), c.Result...)
	}
	target.Tool.App = app
	s.touch(target)
	return true
}

// uiToolApp reads an AI SDK tool call's providerMetadata for its MCP App:
// {"mcp": {"app": {"resourceUri": "ui://...", "mimeType":
// "text/html;profile=mcp-app", "visibility": [...]}}}, which
// @ai-sdk/react's getMCPAppFromToolPart reads from the part's
// callProviderMetadata.
func (s *Store) uiToolApp(id string, providerMetadata json.RawMessage) {
	if len(providerMetadata) == 0 || providerMetadata[0] != '{' {
		return
	}
	var md struct {
		MCP struct {
			App json.RawMessage `json:"app"`
		} `json:"mcp"`
	}
	if json.Unmarshal(providerMetadata, &md) != nil || len(md.MCP.App) == 0 {
		return
	}
	var mime struct {
		MimeType string `json:"mimeType"`
	}
	if json.Unmarshal(md.MCP.App, &mime) != nil || mime.MimeType != AppMimeType {
		return
	}
	s.setToolApp(s.tools[id], md.MCP.App)
}

// AppMimeType is the media type of an MCP App's HTML resource.
const AppMimeType = "text/html;profile=mcp-app"

// AppInput is what an app receives of its tool's input: the arguments
// (a JSON object; "{}" when there are none yet), and whether they are
// final. While the input streams they are a best-effort reading of the
// JSON so far, unclosed structures closed.
func AppInput(t *Tool) (arguments json.RawMessage, final bool) {
	final = !t.InputStreaming
	in := t.Input
	if len(t.partialJSON) > 0 {
		final = false
		if p := toolInput(t.partialJSON); p != nil {
			in = p
		}
	}
	if len(in) == 0 || in[0] != '{' {
		in = emptyObject
	}
	return in, final
}
