//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/dom"
	"stepwise/app/internal/browser"
	"stepwise/components"
	"stepwise/state"
)

// startApps wires the page's MCP Apps host (mcphost.go) to the page: the
// views' actions, the store, the backend, and web/mcp-host.js, loaded when
// the first app appears.
func (c *Controller) startApps(ctx app.Context) {
	h := newAppHost()
	h.dispatch = func(f func(ctx app.Context)) { dom.Dispatch(ctx, f) }
	h.publish = func(ctx app.Context, id string, st components.AppFrameState) { components.ShowAppState(id, st) }
	h.tool = func(id string) *state.Item { return c.page.Store().Tool(id) }
	h.send = func(ctx app.Context, text string) { ctx.NewActionWithValue(components.ActionSendMessage, text) }
	h.tr = func(key string, args ...any) string { return c.settings.T(key, args...) }
	h.locale = c.settings.Locale.Lang()
	h.sandbox = sandboxURL(app.Getenv(EnvSandbox), js.Global().Get("location"))
	h.backend = c.appBackend(fetchJSON)
	h.frames = &jsFrames{ctx: ctx, host: h, script: ctx.ResolveStaticResource("/web/mcp-host.js")}
	c.apps = h
	for _, action := range []string{components.ActionAppMount, components.ActionAppDismount, components.ActionAppSync, components.ActionAppAnswer, components.ActionAppMode} {
		ctx.Handle(action, h.onAction)
	}
}

// sandboxURL is the proxy page's URL: the deployment's, or ":PORT" on the
// page's own host name (the server's second listener); "" for none.
func sandboxURL(setting string, location js.Value) string {
	switch {
	case setting == "" || setting == "off":
		return ""
	case strings.HasPrefix(setting, ":"):
		setting = location.Get("protocol").String() + "//" + location.Get("hostname").String() + setting
	}
	if !strings.HasSuffix(setting, "/") {
		setting += "/"
	}
	return setting
}

// jsFrames is appFrames in the browser: web/mcp-host.js.
type jsFrames struct {
	ctx     app.Context
	host    *appHost
	script  string
	api     js.Value
	loading bool
	waiting []func()
	onMsg   js.Func
	onTheme js.Func
}

func (f *jsFrames) whenReady(fn func()) {
	if f.api.Truthy() {
		fn()
		return
	}
	f.waiting = append(f.waiting, fn)
	if f.loading {
		return
	}
	f.loading = true
	doc := js.Global().Get("document")
	s := doc.Call("createElement", "script")
	var onload, onerror js.Func
	onload = js.FuncOf(func(js.Value, []js.Value) any {
		onload.Release()
		onerror.Release()
		dom.Dispatch(f.ctx, func(ctx app.Context) { f.started() })
		return nil
	})
	onerror = js.FuncOf(func(js.Value, []js.Value) any {
		onload.Release()
		onerror.Release()
		dom.Dispatch(f.ctx, func(ctx app.Context) { f.loading = false })
		return nil
	})
	s.Set("onload", onload)
	s.Set("onerror", onerror)
	s.Set("src", f.script)
	doc.Get("head").Call("appendChild", s)
}

func (f *jsFrames) started() {
	api := js.Global().Get("stepwiseAppFrames")
	if !api.Truthy() {
		return
	}
	f.api = api
	h := f.host
	f.onMsg = js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 2 {
			frame, data := args[0].Int(), args[1].String()
			dom.Dispatch(f.ctx, func(ctx app.Context) { h.receive(ctx, frame, data) })
		}
		return nil
	})
	f.onTheme = js.FuncOf(func(js.Value, []js.Value) any {
		dom.Dispatch(f.ctx, func(ctx app.Context) { h.themeChanged() })
		return nil
	})
	api.Call("start", f.onMsg, f.onTheme)
	waiting := f.waiting
	f.waiting = nil
	for _, fn := range waiting {
		fn()
	}
}

func (f *jsFrames) create(frameID, src, allow, title string) (int, error) {
	id := f.api.Call("add", frameID, src, allow, title).Int()
	if id == 0 {
		return 0, errors.New("the app's place left the page")
	}
	return id, nil
}

func (f *jsFrames) send(frame int, msg []byte) { f.api.Call("send", frame, string(msg)) }

func (f *jsFrames) remove(frame int) {
	if f.api.Truthy() {
		f.api.Call("remove", frame)
	}
}

func (f *jsFrames) popover(sectionID string, shown bool) {
	if f.api.Truthy() {
		f.api.Call("popover", sectionID, shown)
	}
}

func (f *jsFrames) openLink(u string) { f.api.Call("open", u) }

func (f *jsFrames) hostContext(frameID string, facts appFacts) json.RawMessage {
	raw, _ := json.Marshal(facts)
	if !f.api.Truthy() {
		return raw
	}
	return json.RawMessage(f.api.Call("context", frameID, string(raw)).String())
}

func (f *jsFrames) pageOrigin() string { return js.Global().Get("location").Get("origin").String() }

func (f *jsFrames) popovers() bool {
	return f.api.Truthy() && f.api.Call("popovers").Bool()
}

// fetchJSON is one JSON request with the browser's fetch. It blocks: call
// it on a goroutine of its own.
func fetchJSON(method, url string, body []byte) (int, []byte, error) {
	headers := map[string]any{"Accept": "application/json, text/event-stream"}
	init := map[string]any{"method": method, "headers": headers, "credentials": "same-origin", "cache": "no-store"}
	if body != nil {
		headers["Content-Type"] = "application/json"
		init["body"] = string(body)
	}
	resp, err := browser.Await(js.Global().Call("fetch", url, init))
	if err != nil {
		return 0, nil, err
	}
	buf, err := browser.Await(resp.Call("arrayBuffer"))
	if err != nil {
		return 0, nil, err
	}
	bytes := js.Global().Get("Uint8Array").New(buf)
	out := make([]byte, bytes.Length())
	js.CopyBytesToGo(out, bytes)
	return resp.Get("status").Int(), out, nil
}
