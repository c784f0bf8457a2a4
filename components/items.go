package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Settings are what the components need to know of the configuration.
type Settings struct {
	AgentName      string
	FaviconService string // "" turns favicon fallbacks off
}

// settings is set once at start-up (SetSettings).
var settings = Settings{AgentName: "Stepwise", FaviconService: state.DefaultFaviconService}

// SetSettings replaces the components' settings.
func SetSettings(s Settings) {
	if s.AgentName == "" {
		s.AgentName = "Stepwise"
	}
	settings = s
}

// ItemView draws one item. It re-renders only when Rev changes: the store
// bumps an item's Rev whenever it (or a step of its group) changes.
type ItemView struct {
	app.Compo
	Item *state.Item
	Rev  uint64
}

// Render draws the item, with the brand header above the first assistant
// item of a turn.
func (v *ItemView) Render() app.UI {
	body := itemBody(v.Item)
	if u := v.Item.Usage; u != nil {
		body = app.Div().Class("turn-end").Body(body, usageLine(u, locale))
	}
	if !v.Item.Brand {
		return body
	}
	return app.Div().Class("turn-start").Body(brandHeader(), body)
}

func brandHeader() app.UI {
	return app.Div().Class("brand").Body(
		app.Img().Src("/web/logo.svg").Alt("").Class("brand-logo").Width(24).Height(24),
		app.Span().Class("brand-name").Text(settings.AgentName),
	)
}

// itemBody draws an item by kind; steps of groups use it too.
func itemBody(it *state.Item) app.UI {
	switch it.Kind {
	case state.KindUser:
		return app.Div().Class("item user").DataSet("kind", "user").Body(
			app.Div().Class("bubble").Text(it.Text),
		)
	case state.KindText:
		cls := "item text"
		if it.Final {
			cls += " final"
		}
		return app.Div().Class(cls).DataSet("kind", "text").Body(textBody(it, locale)...)
	case state.KindThinking:
		if it.Redacted {
			return redactedThinkingView(locale)
		}
		return &ThinkingView{Item: it, Rev: it.Rev}
	case state.KindTool:
		return &ToolView{Item: it, Rev: it.Rev}
	case state.KindGroup:
		return &GroupView{Item: it, Rev: it.Rev}
	case state.KindQuestion:
		return &QuestionView{Item: it, Rev: it.Rev}
	case state.KindApproval:
		return &ApprovalView{Item: it, Rev: it.Rev}
	case state.KindActivity:
		return &ActivityView{Item: it, Rev: it.Rev}
	case state.KindError:
		text := it.Text
		if text == "" {
			text = T("error.generic")
		}
		return app.Div().Class("item error").DataSet("kind", "error").Attr("role", "alert").Body(
			app.Span().Class("error-icon").Aria("hidden", true).Text("⚠"),
			app.Span().Text(text),
		)
	case state.KindStopped:
		return app.Div().Class("item stopped").DataSet("kind", "stopped").Body(
			app.Span().Class("stopped-icon").Aria("hidden", true).Text("■"),
			app.Span().Text(T("stopped")),
		)
	case state.KindNotice:
		return noticeView(it, locale)
	default:
		return &UnknownView{Item: it, Rev: it.Rev}
	}
}

// Disclosure is the state every collapsible item keeps: open or not, reset
// when the component is reused for another item (go-app diffs children by
// position, so after an insertion a component may receive another item).
type Disclosure struct {
	open bool
	key  int
}

// sync resets the disclosure for a new item, to initial.
func (d *Disclosure) sync(it *state.Item, initial bool) {
	if d.key != it.Key {
		d.key, d.open = it.Key, initial
	}
}

func (d *Disclosure) toggle(ctx app.Context, e app.Event) { d.open = !d.open }

// button is the row that opens and closes the region with id controls.
func (d *Disclosure) button(class, controls string, body ...app.UI) app.HTMLButton {
	return app.Button().Class(class).Aria("expanded", d.open).Aria("controls", controls).OnClick(d.toggle).Body(body...)
}

func domID(prefix string, it *state.Item) string {
	return prefix + "-" + strconv.Itoa(it.Key)
}

// ThinkingView is a dimmed, collapsible thinking item.
type ThinkingView struct {
	app.Compo
	Item *state.Item
	Rev  uint64
	d    Disclosure
}

func (v *ThinkingView) Render() app.UI {
	v.d.sync(v.Item, false)
	id := domID("thinking", v.Item)
	return app.Div().Class("item thinking").DataSet("kind", "thinking").Body(
		v.d.button("disclosure", id,
			app.Span().Class("chevron").Aria("hidden", true),
			app.Span().Class("thinking-title").Text(T("thinking.title")),
			app.If(!v.d.open, func() app.UI {
				return app.Span().Class("preview").Text(firstLine(v.Item.Text, 90))
			}),
		),
		app.If(v.d.open, func() app.UI {
			return app.Div().ID(id).Class("thinking-body").Text(v.Item.Text)
		}),
	)
}

// ActivityView is an activity of the activity dialect: icon, display name,
// time, and its content collapsed underneath.
type ActivityView struct {
	app.Compo
	Item *state.Item
	Rev  uint64
	d    Disclosure
}

func (v *ActivityView) Render() app.UI {
	v.d.sync(v.Item, false)
	a := v.Item.Activity
	id := domID("activity", v.Item)
	hasBody := v.Item.Text != ""
	return app.Div().Class("item activity").DataSet("kind", "activity").DataSet("activity-type", a.Type).Body(
		v.d.button("disclosure", id,
			app.Span().Class("activity-icon").Aria("hidden", true).Text(a.Icon),
			app.Span().Class("activity-name").Text(a.Name),
			app.If(v.Item.Timestamp != "", func() app.UI {
				return app.Time().Class("activity-time").DateTime(v.Item.Timestamp).Text(shortTime(v.Item.Timestamp))
			}),
			app.If(hasBody, func() app.UI { return app.Span().Class("chevron").Aria("hidden", true) }),
		).Disabled(!hasBody),
		app.If(v.d.open && hasBody, func() app.UI {
			return app.Div().ID(id).Class("activity-body").Text(v.Item.Text)
		}),
	)
}

// UnknownView is a block of a type this client does not know: a generic
// collapsed item, never raw JSON in the answer.
type UnknownView struct {
	app.Compo
	Item *state.Item
	Rev  uint64
}

func (v *UnknownView) Render() app.UI {
	return app.Div().Class("item unknown").DataSet("kind", "unknown").Body(
		app.Span().Class("unknown-icon").Aria("hidden", true).Text("◇"),
		app.Span().Text(T("unknown.title", v.Item.BlockType)),
	)
}

// firstLine is the start of text's first non-empty line, cut to max runes.
func firstLine(text string, max int) string {
	start := 0
	for start < len(text) && (text[start] == '\n' || text[start] == ' ') {
		start++
	}
	end := start
	for end < len(text) && text[end] != '\n' {
		end++
	}
	line := []rune(text[start:end])
	if len(line) > max {
		return string(line[:max]) + "…"
	}
	return string(line)
}

// shortTime shows the clock time of an ISO 8601 timestamp.
func shortTime(ts string) string {
	if i := indexByte(ts, 'T'); i >= 0 && len(ts) >= i+6 {
		return ts[i+1 : i+6]
	}
	return ts
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
