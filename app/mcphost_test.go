package app

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components"
	"stepwise/state"
)

// fakeFrames records what the host does in the page.
type fakeFrames struct {
	created []string // src of each frame
	sent    []rpc
	removed []int
	shown   []bool
	opened  []string
	facts   []appFacts
}

func (f *fakeFrames) create(frameID, src, allow, title string) (int, error) {
	f.created = append(f.created, src)
	return len(f.created), nil
}
func (f *fakeFrames) send(frame int, msg []byte) {
	var m rpc
	if json.Unmarshal(msg, &m) == nil {
		f.sent = append(f.sent, m)
	}
}
func (f *fakeFrames) remove(frame int)              { f.removed = append(f.removed, frame) }
func (f *fakeFrames) popover(id string, shown bool) { f.shown = append(f.shown, shown) }
func (f *fakeFrames) openLink(u string)             { f.opened = append(f.opened, u) }
func (f *fakeFrames) hostContext(_ string, facts appFacts) json.RawMessage {
	f.facts = append(f.facts, facts)
	raw, _ := json.Marshal(facts)
	return raw
}
func (f *fakeFrames) pageOrigin() string  { return "http://127.0.0.1:8080" }
func (f *fakeFrames) popovers() bool      { return true }
func (f *fakeFrames) whenReady(fn func()) { fn() }
func (f *fakeFrames) last() rpc           { return f.sent[len(f.sent)-1] }
func (f *fakeFrames) methods() (out []string) {
	for _, m := range f.sent {
		out = append(out, m.Method)
	}
	return out
}

// fakeAppBackend answers reads and calls.
type fakeAppBackend struct {
	resource json.RawMessage
	calls    []string
	fail     error
}

func (b *fakeAppBackend) ReadResource(tool state.ToolApp, uri string) (json.RawMessage, error) {
	return b.resource, b.fail
}
func (b *fakeAppBackend) CallTool(tool state.ToolApp, name string, args json.RawMessage) (json.RawMessage, error) {
	b.calls = append(b.calls, name+" "+string(args))
	if b.fail != nil {
		return nil, b.fail
	}
	return json.RawMessage(`{"content":[{"type":"text","text":"called"}]}`), nil
}

type hostRig struct {
	t       *testing.T
	h       *appHost
	frames  *fakeFrames
	backend *fakeAppBackend
	store   *state.Store
	views   map[string]components.AppFrameState
	queued  chan func(app.Context)
	sentMsg []string
}

func newHostRig(t *testing.T, events ...string) *hostRig {
	r := &hostRig{t: t, frames: &fakeFrames{},
		backend: &fakeAppBackend{resource: json.RawMessage(`{"contents":[{"uri":"ui://t/app","mimeType":"text/html;profile=mcp-app","text":"<p>app</p>","_meta":{"ui":{"csp":{"connectDomains":["https://api.example.com","bad; value"]}}}}]}`)},
		store:   state.New(state.DefaultOptions()), views: map[string]components.AppFrameState{}, queued: make(chan func(app.Context), 16)}
	for _, e := range events {
		r.store.ApplyJSON([]byte(e))
	}
	h := newAppHost()
	h.frames, h.backend, h.sandbox, h.locale = r.frames, r.backend, "http://127.0.0.1:8081/", "en"
	h.tr = func(key string, args ...any) string { return key }
	h.dispatch = func(f func(app.Context)) { r.queued <- f }
	h.publish = func(_ app.Context, id string, st components.AppFrameState) { r.views[id] = st }
	h.tool = r.store.Tool
	h.send = func(_ app.Context, text string) { r.sentMsg = append(r.sentMsg, text) }
	r.h = h
	return r
}

// settle runs what the backend's goroutines handed back.
func (r *hostRig) settle() {
	r.t.Helper()
	select {
	case f := <-r.queued:
		f(app.Context{})
	case <-time.After(2 * time.Second):
		r.t.Fatal("nothing came back from the backend")
	}
}

func (r *hostRig) from(msg string) { r.h.receive(app.Context{}, 1, msg) }

const toolWithApp = `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"show","input":{"a":1},"ui":{"resourceUri":"ui://t/app","visibility":["model","app"]}}}`

// ready brings the rig's app through the handshake.
func (r *hostRig) ready() {
	r.t.Helper()
	r.h.mount(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
	r.settle()
	r.from(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`)
	r.from(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"a","version":"1"},"appCapabilities":{"availableDisplayModes":["inline","fullscreen"]}}}`)
	r.from(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
}

func TestAppHostHandshakeInputResult(t *testing.T) {
	r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`, toolWithApp)
	r.ready()
	require.Len(t, r.frames.created, 1)
	assert.Equal(t, "http://127.0.0.1:8081/?host=http%3A%2F%2F127.0.0.1%3A8080&csp=%7B%22connectDomains%22%3A%5B%22https%3A%2F%2Fapi.example.com%22%5D%7D", r.frames.created[0],
		"the proxy gets the page's origin and only the valid declared domains")
	sent := r.frames.sent
	require.GreaterOrEqual(t, len(sent), 3)
	assert.Equal(t, "ui/notifications/sandbox-resource-ready", sent[0].Method)
	assert.Contains(t, string(sent[0].Params), `"html":"\u003cp\u003eapp\u003c/p\u003e"`)
	assert.Contains(t, string(sent[0].Params), `"sandbox":"allow-scripts allow-forms"`)
	var init struct {
		ProtocolVersion  string
		HostInfo         struct{ Name string }
		HostCapabilities map[string]json.RawMessage
		HostContext      struct {
			Locale, DisplayMode   string
			AvailableDisplayModes []string
			ToolInfo              struct{ Tool struct{ Name string } }
		}
	}
	require.Equal(t, `1`, string(sent[1].ID))
	require.NoError(t, json.Unmarshal(sent[1].Result, &init))
	assert.Equal(t, "2026-01-26", init.ProtocolVersion)
	assert.Equal(t, "Stepwise", init.HostInfo.Name)
	assert.JSONEq(t, `{"permissions":{},"csp":{"connectDomains":["https://api.example.com"]}}`, string(init.HostCapabilities["sandbox"]))
	assert.Equal(t, "en", init.HostContext.Locale)
	assert.Equal(t, "inline", init.HostContext.DisplayMode)
	assert.Equal(t, []string{"inline", "fullscreen", "pip"}, init.HostContext.AvailableDisplayModes)
	assert.Equal(t, "show", init.HostContext.ToolInfo.Tool.Name)
	assert.Equal(t, "ui/notifications/tool-input", sent[2].Method)
	assert.JSONEq(t, `{"arguments":{"a":1}}`, string(sent[2].Params))
	assert.Equal(t, "ready", r.views["t1"].Phase)
	assert.Equal(t, []string{components.AppFullscreen}, r.views["t1"].Modes, "pip is the host's but not the app's")

	r.store.ApplyJSON([]byte(`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","content":"done","status":"success","structured_content":{"x":2}}}`))
	r.h.syncTool(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
	assert.Equal(t, "ui/notifications/tool-result", r.frames.last().Method)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"done"}],"structuredContent":{"x":2}}`, string(r.frames.last().Params))
	n := len(r.frames.sent)
	r.h.syncTool(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
	assert.Len(t, r.frames.sent, n, "the result goes once")

	r.from(`{"jsonrpc":"2.0","id":"d","method":"ui/request-display-mode","params":{"mode":"fullscreen"}}`)
	changed := r.frames.sent[len(r.frames.sent)-2]
	assert.Equal(t, "ui/notifications/host-context-changed", changed.Method)
	assert.Contains(t, string(changed.Params), `"displayMode":"fullscreen"`)
	assert.JSONEq(t, `{"mode":"fullscreen"}`, string(r.frames.last().Result))
	assert.Equal(t, []bool{true}, r.frames.shown)
	r.h.chooseMode(app.Context{}, components.AppModeRequest{ToolID: "t1", Mode: components.AppInline})
	assert.Equal(t, []bool{true, false}, r.frames.shown)
	assert.Equal(t, components.AppInline, r.views["t1"].Mode)

	r.h.dismount(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
	assert.Equal(t, "ui/resource-teardown", r.frames.last().Method)
	assert.Equal(t, []int{1}, r.frames.removed)
}

func TestAppHostRefusesWhatItMust(t *testing.T) {
	r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`, toolWithApp)
	r.ready()
	n := len(r.frames.sent)
	for _, bad := range []string{`not json`, `{"jsonrpc":"1.0","id":5,"method":"ping"}`, `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5}`, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}`, strings.Repeat("x", maxAppMessage+1)} {
		r.from(bad)
	}
	assert.Len(t, r.frames.sent, n, "malformed messages get no answer; a second proxy-ready no second resource")
	r.h.receive(app.Context{}, 99, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Len(t, r.frames.sent, n, "a frame the host did not make is not heard")

	r.from(`{"jsonrpc":"2.0","id":"u","method":"unknown/thing"}`)
	assert.Equal(t, rpcMethodNotFound, r.frames.last().Error.Code)
	r.from(`{"jsonrpc":"2.0","id":"l1","method":"ui/open-link","params":{"url":"javascript:alert(1)"}}`)
	assert.Equal(t, rpcInvalidParams, r.frames.last().Error.Code)
	r.from(`{"jsonrpc":"2.0","id":"m1","method":"ui/message","params":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}`)
	assert.Equal(t, rpcInvalidParams, r.frames.last().Error.Code, "only the user's role")
	r.from(`{"jsonrpc":"2.0","id":"d1","method":"ui/request-display-mode","params":{"mode":"pip"}}`)
	assert.JSONEq(t, `{"mode":"inline"}`, string(r.frames.last().Result), "the app did not declare pip")
	r.from(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":1e9,"height":1e9}}`)
	assert.Equal(t, inlineMaxHeight, r.views["t1"].Height)
	r.from(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"height":-5}}`)
	assert.Equal(t, minAppHeight, r.views["t1"].Height)

	// One confirmation at a time; it waits for the person.
	r.from(`{"jsonrpc":"2.0","id":"l2","method":"ui/open-link","params":{"url":"https://example.com/a"}}`)
	r.from(`{"jsonrpc":"2.0","id":"l3","method":"ui/open-link","params":{"url":"https://example.com/b"}}`)
	assert.Equal(t, rpcServerError, r.frames.last().Error.Code)
	c := r.views["t1"].Confirm
	require.NotNil(t, c)
	assert.Equal(t, components.AppConfirm{ID: "1", Kind: "link", Text: "https://example.com/a"}, *c)
	assert.Empty(t, r.frames.opened)
	r.h.answer(app.Context{}, components.AppAnswer{ToolID: "t1", ID: "1", Allow: false})
	assert.JSONEq(t, `{"isError":true}`, string(r.frames.last().Result))
	assert.Equal(t, `"l2"`, string(r.frames.last().ID))
	assert.Empty(t, r.frames.opened)
	assert.Nil(t, r.views["t1"].Confirm)

	r.from(`{"jsonrpc":"2.0","id":"m2","method":"ui/message","params":{"role":"user","content":{"type":"text","text":"Send me"}}}`)
	r.h.answer(app.Context{}, components.AppAnswer{ToolID: "t1", ID: "2", Allow: true})
	assert.Equal(t, []string{"Send me"}, r.sentMsg)
	assert.JSONEq(t, `{}`, string(r.frames.last().Result))
}

func TestAppHostToolCalls(t *testing.T) {
	r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"show","input":{},"ui":{"resourceUri":"ui://t/app","visibility":["model"]}}}`)
	r.ready()
	r.from(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"show","arguments":{}}}`)
	assert.Equal(t, rpcServerError, r.frames.last().Error.Code, "a model-only tool is not the app's to call")
	r.from(`{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"other","arguments":[1]}}`)
	assert.Equal(t, rpcInvalidParams, r.frames.last().Error.Code)
	for i := 0; i < maxAppCallsAtOnce; i++ {
		r.from(`{"jsonrpc":"2.0","id":"ok` + itoa(i) + `","method":"tools/call","params":{"name":"other"}}`)
	}
	r.from(`{"jsonrpc":"2.0","id":"over","method":"tools/call","params":{"name":"other"}}`)
	assert.Equal(t, `"over"`, string(r.frames.last().ID))
	assert.Equal(t, rpcServerError, r.frames.last().Error.Code, "too many at once")
	for i := 0; i < maxAppCallsAtOnce; i++ {
		r.settle()
	}
	assert.Contains(t, string(r.frames.last().Result), "called")
	assert.Equal(t, "other {}", r.backend.calls[0])

	r.backend.fail = &backendError{Status: 403, Message: "not callable by apps"}
	r.from(`{"jsonrpc":"2.0","id":"f","method":"tools/call","params":{"name":"other"}}`)
	r.settle()
	assert.Equal(t, "not callable by apps", r.frames.last().Error.Message)
}

func TestAppHostResourceFailures(t *testing.T) {
	for name, tc := range map[string]struct {
		resource string
		err      error
		want     string
	}{
		"network":   {err: errors.New("offline"), want: "mcpapp.err.network"},
		"not html":  {resource: `{"contents":[{"uri":"ui://t/app","mimeType":"text/html","text":"x"}]}`, want: "mcpapp.err.not_html"},
		"empty":     {resource: `{"contents":[]}`, want: "mcpapp.err.no_content"},
		"bad blob":  {resource: `{"contents":[{"uri":"ui://t/app","mimeType":"text/html;profile=mcp-app","blob":"%%%"}]}`, want: "mcpapp.err.no_content"},
		"too large": {resource: `{"contents":[{"uri":"ui://t/app","mimeType":"text/html;profile=mcp-app","text":"` + strings.Repeat("a", maxAppHTML+1) + `"}]}`, want: "mcpapp.err.too_large"},
	} {
		t.Run(name, func(t *testing.T) {
			r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`, toolWithApp)
			r.backend.resource, r.backend.fail = json.RawMessage(tc.resource), tc.err
			r.h.mount(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
			r.settle()
			assert.Equal(t, "failed", r.views["t1"].Phase)
			assert.Equal(t, tc.want, r.views["t1"].Error)
			assert.Empty(t, r.frames.created)
		})
	}
	r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`, toolWithApp)
	r.h.sandbox = ""
	r.h.mount(app.Context{}, components.AppRef{ToolID: "t1", FrameID: "mcp-app-frame-3"})
	assert.Equal(t, "no-sandbox", r.views["t1"].Phase)
}

func TestAppHostModelContext(t *testing.T) {
	r := newHostRig(t, `{"type":"message_start","message":{"id":"m","role":"assistant"}}`, toolWithApp)
	r.ready()
	r.from(`{"jsonrpc":"2.0","id":"x1","method":"ui/update-model-context","params":{"content":[{"type":"text","text":"first"}]}}`)
	r.from(`{"jsonrpc":"2.0","id":"x2","method":"ui/update-model-context","params":{"content":[{"type":"text","text":"newest"}]}}`)
	assert.True(t, r.views["t1"].Context)
	list := r.h.modelContext()
	require.Len(t, list, 1)
	assert.Equal(t, "ui://t/app", list[0].ResourceURI)
	assert.Equal(t, "t1", list[0].ToolUseID)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"newest"}]}`, string(list[0].Context))
	assert.Nil(t, r.h.modelContext(), "taken once")
}

func TestAppPaths(t *testing.T) {
	none := func(string) string { return "" }
	cfg := DefaultConfig()
	r, c := appPaths(cfg, none)
	assert.Equal(t, "/api/sessions/{session_id}/ui-resource", r)
	assert.Equal(t, "/api/sessions/{session_id}/tool-calls", c)
	cfg.HistoryPath = "/stepwise/api/sessions/{session_id}/history"
	r, _ = appPaths(cfg, none)
	assert.Equal(t, "/stepwise/api/sessions/{session_id}/ui-resource", r, "beside the history, under a base path")
	cfg.Protocol, cfg.ChatPath = ProtocolAISDK, "/api/chat"
	r, c = appPaths(cfg, none)
	assert.Equal(t, "/api/chat/mcp-apps/resource", r)
	assert.Equal(t, "/api/chat/mcp-apps/tool-calls", c)
	r, _ = appPaths(cfg, func(k string) string {
		if k == EnvAppResourcePath {
			return "/x/{session_id}/r"
		}
		return ""
	})
	assert.Equal(t, "/x/{session_id}/r", r)
}
