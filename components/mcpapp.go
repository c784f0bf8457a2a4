package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// MCP Apps (docs/mcp-apps.md): a tool that points at a ui:// resource
// shows its app below it, in a frame the page's host (stepwise/app,
// mcphost*.go) fills. The view only draws the frame's place, the bar
// around it and what the host asks the person to confirm; the host gives
// it its state with ShowAppState, and it raises the actions below.

// The actions of an app's view; their values are AppRef, AppAnswer and
// AppModeRequest.
const (
	ActionAppMount    = "stepwise.mcpapp.mount"    // AppRef: the frame's place is in the page
	ActionAppDismount = "stepwise.mcpapp.dismount" // AppRef: it is gone
	ActionAppSync     = "stepwise.mcpapp.sync"     // AppRef: its tool changed
	ActionAppAnswer   = "stepwise.mcpapp.answer"   // AppAnswer: a confirmation answered
	ActionAppMode     = "stepwise.mcpapp.mode"     // AppModeRequest: a display mode chosen
)

// AppRef names an app's view: its tool, and the element its frame goes in.
type AppRef struct {
	ToolID  string
	FrameID string
}

// AppAnswer answers what an app asked the person to confirm.
type AppAnswer struct {
	ToolID string
	ID     string // AppConfirm.ID
	Allow  bool
}

// AppModeRequest is a display mode the person chose with the bar's buttons.
type AppModeRequest struct {
	ToolID string
	Mode   string
}

// The display modes of MCP Apps.
const (
	AppInline     = "inline"
	AppFullscreen = "fullscreen"
	AppPip        = "pip"
)

// AppFrameState is what the host tells an app's view.
type AppFrameState struct {
	// Phase is "" or "loading" until the app runs ("ready"), "failed"
	// (Error says why, in the UI language) or "no-sandbox".
	Phase string
	Error string
	// Height is the frame's height in the conversation (px), 0 before the
	// app says.
	Height int
	// Mode is the display mode; Modes those the person may switch to.
	Mode  string
	Modes []string
	// Confirm is what the app asks the person to confirm, nil for nothing.
	Confirm *AppConfirm
	// Context: the app updated the model context the next message carries.
	Context bool
	// Borderless: the resource asked for no border (prefersBorder false).
	Borderless bool
}

// AppConfirm is an app's request the person must confirm: a link to open
// (Kind "link", Text the URL) or a message to send as them (Kind
// "message", Text the message).
type AppConfirm struct {
	ID   string
	Kind string
	Text string
}

// appViews are the app views on the page, by tool id. (Not go-app's
// states: their persistence brings AES into app.wasm.)
var appViews = map[string]*AppView{}

// ShowAppState gives the view of a tool's app, if it is on the page, its
// state.
func ShowAppState(toolID string, st AppFrameState) {
	if v := appViews[toolID]; v != nil {
		v.ctx.Dispatch(func(app.Context) { v.st = st })
	}
}

// AppView is a tool's MCP App: a bar naming it, the frame, and what it
// asks to confirm.
type AppView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings

	st      AppFrameState
	toolID  string // the tool the view mounted for
	frameID string
	ctx     app.Context // its mount's, to say it left (OnDismount has none)
}

func (v *AppView) ref() AppRef { return AppRef{ToolID: v.toolID, FrameID: v.frameID} }

func (v *AppView) OnMount(ctx app.Context) {
	v.ctx = ctx
	v.bind(ctx)
}

// bind observes the tool's app and tells the host where its frame goes; a
// view reused for another tool lets the old one go first.
func (v *AppView) bind(ctx app.Context) {
	id := v.Item.Tool.ID
	if v.toolID == id {
		return
	}
	if v.toolID != "" {
		v.leave()
	}
	v.toolID, v.frameID = id, "mcp-app-frame-"+strconv.Itoa(v.Item.Key)
	v.st = AppFrameState{}
	appViews[id] = v
	ctx.NewActionWithValue(ActionAppMount, v.ref())
}

func (v *AppView) OnUpdate(ctx app.Context) {
	v.bind(ctx)
	ctx.NewActionWithValue(ActionAppSync, v.ref())
}

func (v *AppView) OnDismount() {
	if v.toolID != "" {
		v.leave()
		v.toolID = ""
	}
}

// leave tells the host the view no longer shows its tool's app.
func (v *AppView) leave() {
	if appViews[v.toolID] == v {
		delete(appViews, v.toolID)
	}
	v.ctx.NewActionWithValue(ActionAppDismount, v.ref())
}

func (v *AppView) Render() app.UI {
	t := v.Item.Tool
	s := v.Settings
	st := v.st
	mode := st.Mode
	if mode == "" {
		mode = AppInline
	}
	label := toolLabel(t, s)
	cls := "mcp-app mode-" + mode
	if st.Borderless {
		cls += " borderless"
	}
	frameStyle := ""
	if mode == AppInline && st.Height > 0 {
		frameStyle = strconv.Itoa(st.Height) + "px"
	}
	frame := app.Div().ID("mcp-app-frame-" + strconv.Itoa(v.Item.Key)).Class("mcp-app-frame")
	if frameStyle != "" {
		frame = frame.Style("height", frameStyle)
	}
	return app.Section().ID("mcp-app-"+strconv.Itoa(v.Item.Key)).Class(cls).Attr("popover", "manual").
		Aria("label", s.T("mcpapp.region", label)).
		DataSet("testid", "mcp-app").DataSet("tool-id", t.ID).DataSet("mode", mode).DataSet("phase", st.Phase).
		OnKeyDown(v.onKey).Body(
		v.bar(label, mode),
		frame,
		v.status(),
		v.confirm(),
	)
}

func (v *AppView) bar(label, mode string) app.UI {
	s := v.Settings
	var buttons []app.UI
	if mode != AppInline {
		buttons = append(buttons, v.modeButton(AppInline, s.T("mcpapp.inline"), "mcp-app-exit"))
	} else {
		for _, m := range v.st.Modes {
			switch m {
			case AppFullscreen:
				buttons = append(buttons, v.modeButton(m, s.T("mcpapp.fullscreen"), "mcp-app-fullscreen"))
			case AppPip:
				buttons = append(buttons, v.modeButton(m, s.T("mcpapp.pip"), "mcp-app-pip"))
			}
		}
	}
	return app.Div().Class("mcp-app-bar").Body(
		app.Span().Class("chip mcp-app-badge").Text(s.T("mcpapp.badge")),
		app.Span().Class("mcp-app-name").Text(label),
		app.Div().Class("mcp-app-modes").Body(buttons...),
	)
}

// modeButton switches to mode. Each mode has a handler of its own: go-app
// keeps an element's handler when the new one is the same function, and
// closures of one literal are, whatever they capture.
func (v *AppView) modeButton(mode, text, testid string) app.UI {
	h := v.toInline
	switch mode {
	case AppFullscreen:
		h = v.toFullscreen
	case AppPip:
		h = v.toPip
	}
	return app.Button().Type("button").Class("mcp-app-mode").DataSet("testid", testid).Text(text).OnClick(h)
}

func (v *AppView) toInline(ctx app.Context, e app.Event)     { v.mode(ctx, AppInline) }
func (v *AppView) toFullscreen(ctx app.Context, e app.Event) { v.mode(ctx, AppFullscreen) }
func (v *AppView) toPip(ctx app.Context, e app.Event)        { v.mode(ctx, AppPip) }

func (v *AppView) mode(ctx app.Context, mode string) {
	ctx.NewActionWithValue(ActionAppMode, AppModeRequest{ToolID: v.toolID, Mode: mode})
}

// onKey: Escape brings a full screen or floating app back into the
// conversation.
func (v *AppView) onKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" && v.st.Mode != "" && v.st.Mode != AppInline {
		v.mode(ctx, AppInline)
	}
}

// status says what the frame cannot: loading, or why the app is not shown.
func (v *AppView) status() app.UI {
	s := v.Settings
	text, role := "", ""
	switch v.st.Phase {
	case "", "loading":
		text = s.T("mcpapp.loading")
	case "failed":
		text, role = s.T("mcpapp.failed", v.st.Error), "alert"
	case "no-sandbox":
		text = s.T("mcpapp.no_sandbox")
	default:
		if v.Item.Tool.Status == state.ToolInterrupted {
			text = s.T("mcpapp.cancelled")
		} else if v.st.Context {
			text = s.T("mcpapp.context")
		}
	}
	div := app.Div().Class("mcp-app-status").DataSet("testid", "mcp-app-status").Text(text)
	if role != "" {
		div = div.Attr("role", role)
	}
	return div
}

// confirm is the app's request waiting for the person, in Stepwise's own
// UI (never the app's): the link or the message in full, and two buttons.
func (v *AppView) confirm() app.UI {
	c := v.st.Confirm
	// A polite live region: what the app asks is said when it appears,
	// and focus stays where the person is.
	slot := app.Div().Class("mcp-app-confirm-slot").Aria("live", "polite")
	if c == nil {
		return slot
	}
	s := v.Settings
	title, allow := s.T("mcpapp.link.title"), s.T("mcpapp.link.open")
	if c.Kind == "message" {
		title, allow = s.T("mcpapp.message.title"), s.T("mcpapp.message.send")
	}
	titleID := "mcp-app-confirm-" + strconv.Itoa(v.Item.Key)
	return slot.Body(
		app.Div().Class("mcp-app-confirm").Attr("role", "group").Aria("labelledby", titleID).
			DataSet("testid", "mcp-app-confirm").DataSet("kind", c.Kind).Body(
			app.P().ID(titleID).Class("mcp-app-confirm-title").Text(title),
			app.P().Class("mcp-app-confirm-text").DataSet("testid", "mcp-app-confirm-text").Text(c.Text),
			app.Div().Class("approval-actions").Body(
				app.Button().Type("button").Class("primary").DataSet("testid", "mcp-app-allow").Text(allow).OnClick(v.allow),
				app.Button().Type("button").Class("secondary").DataSet("testid", "mcp-app-deny").Text(s.T("mcpapp.cancel")).OnClick(v.deny),
			),
		),
	)
}

// allow and deny answer the confirmation shown when clicked (a handler
// of its own each, reading it then: see modeButton).
func (v *AppView) allow(ctx app.Context, e app.Event) { v.answer(ctx, true) }
func (v *AppView) deny(ctx app.Context, e app.Event)  { v.answer(ctx, false) }

func (v *AppView) answer(ctx app.Context, yes bool) {
	if c := v.st.Confirm; c != nil {
		ctx.NewActionWithValue(ActionAppAnswer, AppAnswer{ToolID: v.toolID, ID: c.ID, Allow: yes})
	}
}

// appsOf are the views of the apps of a group's steps, shown below the
// group so that they stay in view when it collapses.
func appsOf(steps []*state.Item, s Settings) []app.UI {
	var out []app.UI
	for _, st := range steps {
		if st.Kind == state.KindTool && st.Tool.App != nil {
			out = append(out, &AppView{Item: st, Rev: st.Rev, Settings: s})
		}
	}
	return out
}
