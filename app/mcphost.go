package app

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
)

// The page's MCP Apps host (docs/mcp-apps.md): for each tool whose app is
// on screen, it reads the app's resource from the backend (appBackend),
// frames the sandbox proxy with it (appFrames), answers the app's JSON-RPC
// requests and sends it its tool's input, result and the host's context.
// What the app may do is decided here: every request is checked, links and
// messages wait for the person's yes in Stepwise's own UI, tool calls go
// to the backend only for tools the app may call.

// AppProtocolVersion is the MCP Apps version the host speaks.
const AppProtocolVersion = "2026-01-26"

// Bounds on what an app may make the page hold or do.
const (
	maxAppHTML        = 4 << 20 // a resource's HTML
	maxAppMessage     = 1 << 20 // one message from an app, as JSON
	maxAppCallsAtOnce = 4       // tool calls and reads waiting for the backend
	maxModelContext   = 64 << 10
	minAppHeight      = 32
	maxAppHeight      = 2000
	inlineMaxHeight   = 720
)

// JSON-RPC error codes.
const (
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcServerError    = -32000
)

// appFrames is what the host does in the page (mcphost_js.go); a test
// double elsewhere.
type appFrames interface {
	// create frames the sandbox proxy at src in the element frameID and
	// returns its handle; the proxy's messages come back through
	// appHost.receive with it.
	create(frameID, src, allow, title string) (int, error)
	send(frame int, msg []byte)
	remove(frame int)
	// popover shows the app's section above the page (full screen or
	// picture in picture) or puts it back in the conversation.
	popover(sectionID string, shown bool)
	openLink(u string)
	// hostContext is the app's host context (the spec's HostContext, as
	// JSON): the page's own facts (theme, sizes, safe area, device, time
	// zone, styles) read where they are, with the host's.
	hostContext(frameID string, facts appFacts) json.RawMessage
	// pageOrigin is the page's origin; popovers is true when the browser
	// can show an element above the page (full screen, picture in picture).
	pageOrigin() string
	popovers() bool
	// whenReady runs f once the page can frame apps (its script loaded).
	whenReady(f func())
}

// appFacts are the host's part of an app's host context.
type appFacts struct {
	Mode   string   `json:"displayMode"`
	Modes  []string `json:"availableDisplayModes"`
	Locale string   `json:"locale"`
	Tool   *struct {
		ID   string `json:"id"`
		Tool struct {
			Name        string            `json:"name"`
			Title       string            `json:"title,omitempty"`
			InputSchema map[string]string `json:"inputSchema"`
		} `json:"tool"`
	} `json:"toolInfo,omitempty"`
}

// appHost runs the page's apps.
type appHost struct {
	frames  appFrames
	backend appBackend
	sandbox string // the proxy page's URL (ends in /), "" when none is set up
	locale  string // BCP 47, the page's language
	// tr says a message in the page's language.
	tr func(key string, args ...any) string
	// dispatch runs f in the engine's work (the controller's context).
	dispatch func(f func(ctx app.Context))
	// publish gives an app's view its state.
	publish func(ctx app.Context, toolID string, st components.AppFrameState)
	// tool finds a tool in the conversation shown.
	tool func(id string) *state.Item
	// send sends a message as the person (an app's confirmed ui/message).
	send func(ctx app.Context, text string)

	apps    map[string]*appInstance // by tool id
	byFrame map[int]*appInstance
	// context is the newest ui/update-model-context of each app, by tool
	// id: it goes with the person's next message (modelContext).
	context map[string]json.RawMessage
}

// appInstance is one app on screen.
type appInstance struct {
	toolID, frameID string
	frame           int // 0 until framed
	gen             int // its mount: a late answer for an older mount is dropped
	phase           string
	errText         string
	html            string
	meta            state.AppResourceMeta
	csp             state.AppCSP
	granted         state.AppPermissions
	appModes        []string // the app's availableDisplayModes; nil: not said
	initialized     bool
	mode            string
	height          int
	busy            int // requests waiting for the backend

	sentPartial []byte
	sentInput   bool
	sentResult  bool
	sentCancel  bool
	sentTheme   bool

	confirm   *components.AppConfirm
	confirmID json.RawMessage // the JSON-RPC id it answers
	confirmN  int
	context   bool
}

var appGen int

func newAppHost() *appHost {
	return &appHost{apps: map[string]*appInstance{}, byFrame: map[int]*appInstance{}, context: map[string]json.RawMessage{}}
}

// onAction handles the actions of the apps' views.
func (h *appHost) onAction(ctx app.Context, a app.Action) {
	switch v := a.Value.(type) {
	case components.AppRef:
		switch a.Name {
		case components.ActionAppMount:
			h.mount(ctx, v)
		case components.ActionAppDismount:
			h.dismount(ctx, v)
		case components.ActionAppSync:
			h.syncTool(ctx, v)
		}
	case components.AppAnswer:
		h.answer(ctx, v)
	case components.AppModeRequest:
		h.chooseMode(ctx, v)
	}
}

// mount: the view of a tool's app is in the page; its frame goes in
// frameID.
func (h *appHost) mount(ctx app.Context, ref components.AppRef) {
	if a := h.apps[ref.ToolID]; a != nil {
		if a.frameID == ref.FrameID {
			return
		}
		h.teardown(a, "moved")
	}
	it := h.tool(ref.ToolID)
	if it == nil || it.Tool == nil || it.Tool.App == nil {
		return
	}
	appGen++
	a := &appInstance{toolID: ref.ToolID, frameID: ref.FrameID, gen: appGen, phase: "loading", mode: components.AppInline}
	h.apps[ref.ToolID] = a
	if h.sandbox == "" || h.frames == nil {
		a.phase = "no-sandbox"
		h.show(ctx, a)
		return
	}
	h.show(ctx, a)
	uri, appInfo, gen := it.Tool.App.ResourceURI, *it.Tool.App, a.gen
	go func() {
		raw, err := h.backend.ReadResource(appInfo, uri)
		h.dispatch(func(ctx app.Context) { h.loaded(ctx, ref.ToolID, gen, uri, raw, err) })
	}()
}

// dismount: the view left the page.
func (h *appHost) dismount(ctx app.Context, ref components.AppRef) {
	if a := h.apps[ref.ToolID]; a != nil && a.frameID == ref.FrameID {
		h.teardown(a, "the app left the page")
	}
}

// teardown tells the app it goes, and removes its frame, without waiting
// (docs/mcp-apps.md, "Decisions where the spec is silent").
func (h *appHost) teardown(a *appInstance, reason string) {
	if a.frame != 0 {
		if a.initialized {
			h.request(a, "ui/resource-teardown", map[string]string{"reason": reason})
		}
		h.frames.remove(a.frame)
		delete(h.byFrame, a.frame)
	}
	delete(h.apps, a.toolID)
}

// teardownAll ends every app (the conversation changes).
func (h *appHost) teardownAll(reason string) {
	for _, a := range h.apps {
		h.teardown(a, reason)
	}
}

// loaded frames the app once its resource is read.
func (h *appHost) loaded(ctx app.Context, toolID string, gen int, uri string, raw json.RawMessage, err error) {
	a := h.apps[toolID]
	if a == nil || a.gen != gen {
		return
	}
	if err != nil {
		h.fail(ctx, a, h.tr("mcpapp.err.network", errText(err)))
		return
	}
	html, meta, key := appResource(raw, uri)
	if key != "" {
		h.fail(ctx, a, h.tr(key))
		return
	}
	a.html, a.meta = html, meta
	a.csp = state.SanitizeCSP(meta.CSP)
	a.granted = state.GrantPermissions(meta.Permissions)
	src := h.sandbox + "?host=" + url.QueryEscape(h.frames.pageOrigin())
	if c, _ := json.Marshal(a.csp); string(c) != "{}" {
		src += "&csp=" + url.QueryEscape(string(c))
	}
	it := h.tool(toolID)
	title := "MCP App"
	if it != nil {
		title = it.Tool.Label
	}
	h.frames.whenReady(func() {
		if h.apps[toolID] != a || a.gen != gen {
			return
		}
		frame, ferr := h.frames.create(a.frameID, src, a.granted.AllowAttribute(), title)
		if ferr != nil {
			h.fail(ctx, a, ferr.Error())
			return
		}
		a.frame = frame
		h.byFrame[frame] = a
		a.phase = "framing"
		h.show(ctx, a)
	})
}

func (h *appHost) fail(ctx app.Context, a *appInstance, why string) {
	a.phase, a.errText = "failed", why
	if a.frame != 0 {
		h.frames.remove(a.frame)
		delete(h.byFrame, a.frame)
		a.frame = 0
	}
	h.show(ctx, a)
}

// errText is a backend's failure as the person reads it (its own words,
// shown as text).
func errText(err error) string {
	var be *backendError
	if errors.As(err, &be) {
		return be.Message
	}
	return err.Error()
}

// appResource reads a resources/read result for uri: the HTML and its
// _meta.ui; key, when set, is why it cannot be shown (an i18n key).
func appResource(raw json.RawMessage, uri string) (html string, meta state.AppResourceMeta, key string) {
	var res struct {
		Contents []struct {
			URI      string          `json:"uri"`
			MimeType string          `json:"mimeType"`
			Text     *string         `json:"text"`
			Blob     *string         `json:"blob"`
			Meta     json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if json.Unmarshal(raw, &res) != nil || len(res.Contents) == 0 {
		return "", meta, "mcpapp.err.no_content"
	}
	c := res.Contents[0]
	for _, cc := range res.Contents {
		if cc.URI == uri {
			c = cc
			break
		}
	}
	if !strings.HasPrefix(strings.ReplaceAll(strings.ToLower(c.MimeType), " ", ""), state.AppMimeType) {
		return "", meta, "mcpapp.err.not_html"
	}
	switch {
	case c.Text != nil:
		html = *c.Text
	case c.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			return "", meta, "mcpapp.err.no_content"
		}
		html = string(b)
	default:
		return "", meta, "mcpapp.err.no_content"
	}
	if len(html) > maxAppHTML {
		return "", meta, "mcpapp.err.too_large"
	}
	if !utf8.ValidString(html) {
		html = strings.ToValidUTF8(html, "\uFFFD")
	}
	var m struct {
		UI state.AppResourceMeta `json:"ui"`
	}
	if len(c.Meta) > 0 && json.Unmarshal(c.Meta, &m) == nil {
		meta = m.UI
	}
	return html, meta, ""
}

// rpc is a JSON-RPC 2.0 message.
type rpc struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// validID is a JSON-RPC id: a string or a number.
func validID(id json.RawMessage) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	if id[0] == '"' {
		var s string
		return json.Unmarshal(id, &s) == nil
	}
	_, err := strconv.ParseFloat(string(id), 64)
	return err == nil
}

// receive handles one message a frame sent (JSON, checked by
// web/mcp-host.js to come from that frame's proxy).
func (h *appHost) receive(ctx app.Context, frame int, data string) {
	a := h.byFrame[frame]
	if a == nil || len(data) > maxAppMessage {
		return
	}
	var m rpc
	if json.Unmarshal([]byte(data), &m) != nil || m.JSONRPC != "2.0" {
		return
	}
	if m.Method == "" {
		return // an answer to the host's own request (teardown): nothing waits for it
	}
	hasID := m.ID != nil && string(m.ID) != "null"
	if hasID && !validID(m.ID) {
		return
	}
	if m.Method == "ui/notifications/sandbox-proxy-ready" {
		h.sendResource(a)
		return
	}
	if !hasID {
		h.notification(ctx, a, m)
		return
	}
	h.handle(ctx, a, m)
}

func (h *appHost) sendResource(a *appInstance) {
	if a.html == "" || a.phase != "framing" {
		return
	}
	params := map[string]any{
		"html":    a.html,
		"sandbox": state.AppSandbox,
		"csp":     a.csp,
	}
	if g := a.granted; g.AllowAttribute() != "" {
		params["permissions"] = g
	}
	if it := h.tool(a.toolID); it != nil {
		params["title"] = it.Tool.Label
	}
	h.notify(a, "ui/notifications/sandbox-resource-ready", params)
	a.html = "" // the proxy has it; the page need not keep megabytes
	a.phase = "starting"
}

// notification handles a message without an id.
func (h *appHost) notification(ctx app.Context, a *appInstance, m rpc) {
	switch m.Method {
	case "ui/notifications/initialized":
		if a.initialized {
			return
		}
		a.initialized = true
		a.phase = "ready"
		h.show(ctx, a)
		h.sync(ctx, a)
	case "ui/notifications/size-changed":
		var p struct {
			Height *float64 `json:"height"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.Height == nil {
			return
		}
		height := int(*p.Height + 0.5)
		height = max(minAppHeight, min(height, maxAppHeight))
		if a.mode == components.AppInline {
			height = min(height, inlineMaxHeight)
		}
		if height != a.height {
			a.height = height
			h.show(ctx, a)
		}
	case "notifications/message", "ui/notifications/request-teardown":
		// Logs are the app's own; a teardown it asks for waits for the person
		// leaving: the app stays in the conversation.
	}
}

// handle answers a request.
func (h *appHost) handle(ctx app.Context, a *appInstance, m rpc) {
	switch m.Method {
	case "ui/initialize":
		var p struct {
			AppCapabilities struct {
				AvailableDisplayModes []string `json:"availableDisplayModes"`
			} `json:"appCapabilities"`
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			h.fault(a, m.ID, rpcInvalidParams, "Invalid params")
			return
		}
		a.appModes = p.AppCapabilities.AvailableDisplayModes
		h.result(a, m.ID, h.initializeResult(a))
		h.show(ctx, a) // the modes the bar offers
	case "ping":
		h.result(a, m.ID, struct{}{})
	case "tools/call":
		h.callTool(ctx, a, m)
	case "resources/read":
		h.readResource(ctx, a, m)
	case "ui/open-link":
		var p struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(m.Params, &p) != nil || !webURL(p.URL) {
			h.fault(a, m.ID, rpcInvalidParams, "Invalid URL")
			return
		}
		h.ask(ctx, a, m.ID, "link", p.URL)
	case "ui/message":
		text, ok := messageText(m.Params)
		if !ok {
			h.fault(a, m.ID, rpcInvalidParams, "Invalid message format")
			return
		}
		h.ask(ctx, a, m.ID, "message", text)
	case "ui/request-display-mode":
		var p struct {
			Mode string `json:"mode"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			h.fault(a, m.ID, rpcInvalidParams, "Invalid params")
			return
		}
		if h.modeAllowed(a, p.Mode) {
			h.setMode(ctx, a, p.Mode)
		}
		h.result(a, m.ID, map[string]string{"mode": a.mode})
	case "ui/update-model-context":
		if len(m.Params) > maxModelContext || len(m.Params) == 0 || m.Params[0] != '{' {
			h.fault(a, m.ID, rpcInvalidParams, "Context update denied")
			return
		}
		h.context[a.toolID] = append(json.RawMessage(nil), m.Params...)
		a.context = true
		h.show(ctx, a)
		h.result(a, m.ID, struct{}{})
	default:
		h.fault(a, m.ID, rpcMethodNotFound, "Method not found")
	}
}

// initializeResult is the host's answer to ui/initialize.
func (h *appHost) initializeResult(a *appInstance) any {
	caps := map[string]any{
		"openLinks":          struct{}{},
		"serverTools":        struct{}{},
		"serverResources":    struct{}{},
		"logging":            struct{}{},
		"message":            map[string]any{"text": struct{}{}},
		"updateModelContext": map[string]any{"text": struct{}{}, "structuredContent": struct{}{}},
		"sandbox":            map[string]any{"permissions": a.granted, "csp": a.csp},
	}
	return map[string]any{
		"protocolVersion":  AppProtocolVersion,
		"hostInfo":         map[string]string{"name": "Stepwise", "version": "1"},
		"hostCapabilities": caps,
		"hostContext":      h.hostContext(a),
	}
}

// hostContext is the app's host context: the facts the host decides,
// the rest read from the page (web/mcp-host.js).
func (h *appHost) hostContext(a *appInstance) json.RawMessage {
	f := appFacts{Mode: a.mode, Modes: h.hostModes(), Locale: h.locale}
	if it := h.tool(a.toolID); it != nil {
		f.Tool = &struct {
			ID   string `json:"id"`
			Tool struct {
				Name        string            `json:"name"`
				Title       string            `json:"title,omitempty"`
				InputSchema map[string]string `json:"inputSchema"`
			} `json:"tool"`
		}{ID: it.Tool.ID}
		f.Tool.Tool.Name, f.Tool.Tool.Title = it.Tool.Name, it.Tool.Label
		f.Tool.Tool.InputSchema = map[string]string{"type": "object"}
	}
	return h.frames.hostContext(a.frameID, f)
}

func (h *appHost) hostModes() []string {
	if !h.frames.popovers() {
		return []string{components.AppInline}
	}
	return []string{components.AppInline, components.AppFullscreen, components.AppPip}
}

// modeAllowed: a mode the host offers and the app said it supports (an app
// that said nothing may have any the host offers).
func (h *appHost) modeAllowed(a *appInstance, mode string) bool {
	ok := false
	for _, m := range h.hostModes() {
		ok = ok || m == mode
	}
	if !ok || mode == components.AppInline || a.appModes == nil {
		return ok
	}
	for _, m := range a.appModes {
		if m == mode {
			return true
		}
	}
	return false
}

// setMode shows the app in mode and tells it.
func (h *appHost) setMode(ctx app.Context, a *appInstance, mode string) {
	if a.mode == mode {
		return
	}
	// One app above the page at a time.
	if mode != components.AppInline {
		for _, other := range h.apps {
			if other != a && other.mode != components.AppInline {
				h.setMode(ctx, other, components.AppInline)
			}
		}
	}
	a.mode = mode
	h.frames.popover(sectionID(a.frameID), mode != components.AppInline)
	h.show(ctx, a)
	if a.initialized {
		h.notify(a, "ui/notifications/host-context-changed", h.hostContext(a))
	}
}

// chooseMode: the person used the bar's buttons (or Escape).
func (h *appHost) chooseMode(ctx app.Context, r components.AppModeRequest) {
	a := h.apps[r.ToolID]
	if a == nil || (r.Mode != components.AppInline && !h.modeAllowed(a, r.Mode)) {
		return
	}
	h.setMode(ctx, a, r.Mode)
}

// sectionID is the app's section from its frame's element id.
func sectionID(frameID string) string {
	return "mcp-app-" + strings.TrimPrefix(frameID, "mcp-app-frame-")
}

// themeChanged tells every app the page's theme changed.
func (h *appHost) themeChanged() {
	for _, a := range h.apps {
		if a.initialized {
			h.notify(a, "ui/notifications/host-context-changed", h.hostContext(a))
		}
	}
}

// ask shows the person what the app asks, in Stepwise's UI; one at a time
// per app.
func (h *appHost) ask(ctx app.Context, a *appInstance, id json.RawMessage, kind, text string) {
	if a.confirm != nil {
		h.fault(a, id, rpcServerError, "Another request is waiting for the user")
		return
	}
	a.confirmN++
	a.confirm = &components.AppConfirm{ID: strconv.Itoa(a.confirmN), Kind: kind, Text: text}
	a.confirmID = append(json.RawMessage(nil), id...)
	h.show(ctx, a)
}

// answer: the person said yes or no to what the app asked.
func (h *appHost) answer(ctx app.Context, r components.AppAnswer) {
	a := h.apps[r.ToolID]
	if a == nil || a.confirm == nil || a.confirm.ID != r.ID {
		return
	}
	c, id := a.confirm, a.confirmID
	a.confirm, a.confirmID = nil, nil
	h.show(ctx, a)
	if !r.Allow {
		h.result(a, id, map[string]bool{"isError": true})
		return
	}
	switch c.Kind {
	case "link":
		h.frames.openLink(c.Text)
	case "message":
		h.send(ctx, c.Text)
	}
	h.result(a, id, struct{}{})
}

// callTool sends an app's tools/call to the backend.
func (h *appHost) callTool(ctx app.Context, a *appInstance, m rpc) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Name == "" || len(p.Name) > 128 ||
		(len(p.Arguments) > 0 && string(p.Arguments) != "null" && p.Arguments[0] != '{') {
		h.fault(a, m.ID, rpcInvalidParams, "Invalid params")
		return
	}
	if len(p.Arguments) == 0 || string(p.Arguments) == "null" {
		p.Arguments = json.RawMessage("{}")
	}
	h.forward(a, m.ID, func(t *state.Tool) bool { return p.Name != t.Name || t.App.AppCallable() },
		func(app state.ToolApp) (json.RawMessage, error) { return h.backend.CallTool(app, p.Name, p.Arguments) })
}

// readResource sends an app's resources/read to the backend.
func (h *appHost) readResource(ctx app.Context, a *appInstance, m rpc) {
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.URI == "" || len(p.URI) > 2048 {
		h.fault(a, m.ID, rpcInvalidParams, "Invalid params")
		return
	}
	h.forward(a, m.ID, func(*state.Tool) bool { return true },
		func(app state.ToolApp) (json.RawMessage, error) { return h.backend.ReadResource(app, p.URI) })
}

// forward runs an app's request on the backend, when allowed says so of
// its tool and the app has not too many waiting; the answer goes back to
// the app as the request's result.
func (h *appHost) forward(a *appInstance, id json.RawMessage, allowed func(*state.Tool) bool, do func(state.ToolApp) (json.RawMessage, error)) {
	it := h.tool(a.toolID)
	switch {
	case it == nil || it.Tool.App == nil:
		h.fault(a, id, rpcServerError, "The app's tool is gone")
		return
	case !allowed(it.Tool):
		h.fault(a, id, rpcServerError, "This tool is not callable by the app")
		return
	case a.busy >= maxAppCallsAtOnce:
		h.fault(a, id, rpcServerError, "Too many requests at once")
		return
	}
	a.busy++
	toolApp, gen, id := *it.Tool.App, a.gen, append(json.RawMessage(nil), id...)
	go func() {
		res, err := do(toolApp)
		h.dispatch(func(ctx app.Context) { h.backendAnswer(a, gen, id, res, err) })
	}()
}

func (h *appHost) backendAnswer(a *appInstance, gen int, id, res json.RawMessage, err error) {
	if h.apps[a.toolID] != a || a.gen != gen {
		return // torn down meanwhile
	}
	a.busy--
	if err != nil {
		h.fault(a, id, rpcServerError, errText(err))
		return
	}
	if len(res) == 0 || res[0] != '{' {
		h.fault(a, id, rpcServerError, "The backend's answer is not a result")
		return
	}
	h.send1(a, rpc{JSONRPC: "2.0", ID: id, Result: res})
}

// sync sends the app what it has not yet had of its tool: input (partial
// while it streams), then the result or the cancellation.
func (h *appHost) sync(ctx app.Context, a *appInstance) {
	if !a.initialized {
		if a.phase != "loading" {
			h.show(ctx, a) // a new tool status the view shows (cancelled)
		}
		return
	}
	it := h.tool(a.toolID)
	if it == nil {
		return
	}
	t := it.Tool
	if !a.sentInput {
		args, final := state.AppInput(t)
		switch {
		case final:
			h.notify(a, "ui/notifications/tool-input", map[string]json.RawMessage{"arguments": args})
			a.sentInput = true
		case string(args) != string(a.sentPartial):
			h.notify(a, "ui/notifications/tool-input-partial", map[string]json.RawMessage{"arguments": args})
			a.sentPartial = args
		}
	}
	if !a.sentInput || a.sentResult || a.sentCancel {
		return
	}
	if res, ok := state.MCPResult(t); ok && t.Status != state.ToolInterrupted {
		h.notify(a, "ui/notifications/tool-result", res)
		a.sentResult = true
		return
	}
	if t.Status == state.ToolInterrupted {
		h.notify(a, "ui/notifications/tool-cancelled", map[string]string{"reason": "The run ended before the tool finished."})
		a.sentCancel = true
		h.show(ctx, a)
	}
}

// syncTool: the view of a tool's app drew a new revision.
func (h *appHost) syncTool(ctx app.Context, ref components.AppRef) {
	if a := h.apps[ref.ToolID]; a != nil && a.frameID == ref.FrameID {
		h.sync(ctx, a)
	}
}

// show publishes an app's state to its view.
func (h *appHost) show(ctx app.Context, a *appInstance) {
	st := components.AppFrameState{
		Phase: a.phase, Height: a.height, Mode: a.mode, Confirm: a.confirm, Context: a.context,
		Borderless: a.meta.PrefersBorder != nil && !*a.meta.PrefersBorder,
	}
	switch a.phase {
	case "framing", "starting":
		st.Phase = "loading"
	case "failed":
		st.Error = a.errText
	}
	if a.phase == "ready" && h.frames != nil {
		for _, m := range h.hostModes() {
			if m != components.AppInline && h.modeAllowed(a, m) {
				st.Modes = append(st.Modes, m)
			}
		}
	}
	h.publish(ctx, a.toolID, st)
}

// Sending.

func (h *appHost) result(a *appInstance, id json.RawMessage, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		h.fault(a, id, rpcServerError, "Internal error")
		return
	}
	h.send1(a, rpc{JSONRPC: "2.0", ID: id, Result: raw})
}

func (h *appHost) fault(a *appInstance, id json.RawMessage, code int, msg string) {
	h.send1(a, rpc{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}})
}

func (h *appHost) notify(a *appInstance, method string, params any) {
	raw, err := json.Marshal(params)
	if err != nil {
		return
	}
	h.send1(a, rpc{JSONRPC: "2.0", Method: method, Params: raw})
}

// request sends a request of the host's own (its answer is not awaited).
func (h *appHost) request(a *appInstance, method string, params any) {
	if method == "" {
		return
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return
	}
	h.send1(a, rpc{JSONRPC: "2.0", ID: json.RawMessage(`"stepwise-` + method + `"`), Method: method, Params: raw})
}

func (h *appHost) send1(a *appInstance, m rpc) {
	if a.frame == 0 {
		return
	}
	raw, err := json.Marshal(m)
	if err == nil {
		h.frames.send(a.frame, raw)
	}
}

// modelContext is what the apps told the model (ui/update-model-context),
// for the person's next message; it is taken once.
func (h *appHost) modelContext() []backend.AppContext {
	if len(h.context) == 0 {
		return nil
	}
	var out []backend.AppContext
	for id, c := range h.context {
		uri := ""
		if it := h.tool(id); it != nil && it.Tool.App != nil {
			uri = it.Tool.App.ResourceURI
		}
		out = append(out, backend.AppContext{ToolUseID: id, ResourceURI: uri, Context: c})
	}
	h.context = map[string]json.RawMessage{}
	return out
}

// webURL is an http or https URL with a host.
func webURL(s string) bool {
	if len(s) > 4096 {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// messageText is a ui/message's text: its text content blocks joined (the
// spec's single block or the SDK's list), from the user role only.
func messageText(params json.RawMessage) (string, bool) {
	var p struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(params, &p) != nil || (p.Role != "" && p.Role != "user") {
		return "", false
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var blocks []block
	if len(p.Content) > 0 && p.Content[0] == '{' {
		var b block
		if json.Unmarshal(p.Content, &b) != nil {
			return "", false
		}
		blocks = []block{b}
	} else if json.Unmarshal(p.Content, &blocks) != nil {
		return "", false
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" || len(text) > 32<<10 {
		return "", false
	}
	return text, true
}

// backendError is a backend's refusal, with its message for the person.
type backendError struct {
	Status  int
	Message string
}

func (e *backendError) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Message) }
