package components

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// ItemView draws one item. It re-renders only when Rev changes: the store
// bumps an item's Rev whenever it (or a step of its group) changes.
type ItemView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	Forms    Forms  // of the item, or of its group's steps
	Copied   string // its copy button that just copied, if any
	// Busy: a run is going, and the item is a message's (its actions wait).
	Busy bool

	md mdStream // an answer's completed Markdown segments
}

// Render draws the item, with the brand header above the first assistant
// item of a turn.
func (v *ItemView) Render() app.UI {
	var body app.UI
	switch v.Item.Kind {
	case state.KindText:
		body = textItem(v.Item, v.Settings, v.Copied, &v.md, answerActions(v.Item, v.Settings, v.Busy)...)
	case state.KindUser:
		body = &UserView{Item: v.Item, Rev: v.Item.Rev, Settings: v.Settings, Busy: v.Busy, Copied: v.Copied, Editor: v.editorState()}
	default:
		body = itemBody(v.Item, v.Settings, v.Forms)
		// An answer that ended in an error or a stop: regenerate is the way
		// on. Only for these views without state: wrapping a group as its
		// turn ends would make it a new view, closing what the reader opened.
		if k := v.Item.Kind; k == state.KindError || k == state.KindStopped {
			if more := answerActions(v.Item, v.Settings, v.Busy); len(more) > 0 {
				body = app.Div().Class("answer-end").Body(body, app.Div().Class("answer-actions").Body(more...))
			}
		}
	}
	if u := v.Item.Usage; u != nil {
		body = app.Div().Class("turn-end").Body(body, usageLine(u, v.Settings.Locale))
	}
	if !v.Item.Brand {
		return body
	}
	return app.Div().Class("turn-start").Body(brandHeader(v.Settings), body)
}

func brandHeader(s Settings) app.UI {
	return app.Div().Class("brand").Body(
		logo(s, "brand-logo", 24),
		app.Span().Class("brand-name").Text(s.agentName()),
	)
}

// itemBody draws an item by kind; steps of groups use it too. forms holds
// the state of the item's form, or of its steps' for a group.
func itemBody(it *state.Item, s Settings, forms Forms) app.UI {
	switch it.Kind {
	case state.KindUser:
		return &UserView{Item: it, Rev: it.Rev, Settings: s}
	case state.KindText:
		return textItem(it, s, "", nil)
	case state.KindThinking:
		if it.Redacted {
			return redactedThinkingView(s)
		}
		return &ThinkingView{Item: it, Rev: it.Rev, Settings: s}
	case state.KindTool:
		return &ToolView{Item: it, Rev: it.Rev, Settings: s}
	case state.KindGroup:
		return &GroupView{Item: it, Rev: it.Rev, Settings: s, Forms: forms}
	}
	return rareItemBody(it, s, forms)
}

// rareItemBody is itemBody for the kinds that come once in a while: apart,
// so that the function every item's render calls stays small (V8
// optimises a function whole once it turns hot).
func rareItemBody(it *state.Item, s Settings, forms Forms) app.UI {
	switch it.Kind {
	case state.KindQuestion:
		return &QuestionView{Item: it, Rev: it.Rev, Settings: s, Form: forms[it.Question.ApprovalKey]}
	case state.KindApproval:
		return &ApprovalView{Item: it, Rev: it.Rev, Settings: s, Form: forms[it.Approval.ApprovalKey]}
	case state.KindActivity:
		return &ActivityView{Item: it, Rev: it.Rev, Settings: s}
	case state.KindError:
		text := it.Text
		switch {
		case it.ErrorType == "agent_restarted":
			text = s.T("error.agent_restarted")
		case text == "":
			text = s.T("error.generic")
		}
		// No role="alert": the status region says the run failed, once.
		return app.Div().Class("item error").DataSet("kind", "error").Body(
			app.Span().Class("error-icon").Aria("hidden", true).Text("⚠"),
			app.Span().Text(text),
		)
	case state.KindStopped:
		return app.Div().Class("item stopped").DataSet("kind", "stopped").Body(
			app.Span().Class("stopped-icon").Aria("hidden", true).Text("■"),
			app.Span().Text(s.T("stopped")),
		)
	case state.KindNotice:
		return noticeView(it, s)
	case state.KindForm:
		return &FormView{Item: it, Rev: it.Rev, Settings: s, Form: forms[it.Form.ApprovalKey]}
	case state.KindImage:
		return app.Div().Class("item image").DataSet("kind", "image").Body(pictureOf(it.Image, s))
	default:
		return &UnknownView{Item: it, Rev: it.Rev, Settings: s}
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

// editorState is what the page holds of the editor of the item's
// message, if anything.
func (v *ItemView) editorState() FormState {
	if v.Item.Message == nil || len(v.Forms) == 0 {
		return FormState{}
	}
	return v.Forms[EditFormKey(v.Item.Message.ID)]
}

func domID(prefix string, it *state.Item) string {
	return prefix + "-" + strconv.Itoa(it.Key)
}

// ThinkingView is a dimmed, collapsible thinking item.
type ThinkingView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	d        Disclosure
}

func (v *ThinkingView) Render() app.UI {
	v.d.sync(v.Item, false)
	id := domID("thinking", v.Item)
	return app.Div().Class("item thinking").DataSet("kind", "thinking").Body(
		v.d.button("disclosure", id,
			app.Span().Class("chevron").Aria("hidden", true),
			app.Span().Class("thinking-title").Text(v.Settings.T("thinking.title")),
			app.If(!v.d.open, func() app.UI {
				return app.Span().Class("preview").Text(firstLine(v.Item.Text, 90))
			}),
		),
		app.If(v.d.open, func() app.UI {
			return app.Div().ID(id).Class("thinking-body").Attr("dir", "auto").Text(v.Item.Text)
		}),
		app.If(v.Item.Cut, func() app.UI { return cutMark(v.Settings) }),
	)
}

// ActivityView is an activity of the activity dialect: icon, display name,
// time, and its content collapsed underneath.
type ActivityView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
	d        Disclosure
}

func (v *ActivityView) Render() app.UI {
	v.d.sync(v.Item, false)
	a := v.Item.Activity
	if a.Type == "file" {
		return fileView(v.Item, v.Settings)
	}
	id := domID("activity", v.Item)
	hasBody := v.Item.Text != ""
	return app.Div().Class("item activity").DataSet("kind", "activity").DataSet("activity-type", a.Type).Body(
		v.d.button("disclosure", id,
			app.Span().Class("activity-icon").Aria("hidden", true).Text(a.Icon),
			app.Span().Class("activity-name").Text(a.Name),
			// A live AG-UI activity's own account of itself.
			app.If(a.Summary != "", func() app.UI { return app.Span().Class("preview").Text(a.Summary) }),
			app.If(a.Progress != nil, func() app.UI { return activityProgress(*a.Progress, v.Settings) }),
			app.If(v.Item.Timestamp != "", func() app.UI {
				return app.Time().Class("activity-time").DateTime(v.Item.Timestamp).Text(shortTime(v.Item.Timestamp))
			}),
			app.If(hasBody, func() app.UI { return app.Span().Class("chevron").Aria("hidden", true) }),
		).Disabled(!hasBody),
		app.If(v.d.open && hasBody, func() app.UI {
			if a.Type == "diagram_generation" {
				if intro, source, ok := state.DiagramSource(v.Item.Text); ok {
					return app.Div().ID(id).Class("activity-body diagram").Body(
						app.If(intro != "", func() app.UI { return app.P().Text(intro) }),
						&MermaidView{Source: source, CopyID: codeCopyID(v.Item.Key, 0), Settings: v.Settings},
					)
				}
			}
			return app.Div().ID(id).Class("activity-body").Text(v.Item.Text)
		}),
	)
}

// activityProgress is how far along an activity is: a bar (decoration)
// and the percentage in words.
func activityProgress(p float64, s Settings) app.UI {
	pct := int(p*100 + 0.5)
	return app.Span().Class("activity-progress").Body(
		app.Span().Class("activity-bar").Aria("hidden", true).Body(
			app.Span().Style("width", strconv.Itoa(pct)+"%"),
		),
		app.Span().Class("activity-pct").Text(s.T("activity.progress", pct)),
	)
}

// fileView is a file an AI SDK route sent (its Text is the URL, its Name
// the media type): an image the page may show (state.FileImage: its own
// data, or a path of this site) is shown as tool images are, an image
// elsewhere on the web is a link to it, never loaded by the page; any
// other file is a link when its URL is a web one, else just named.
func fileView(it *state.Item, s Settings) app.UI {
	url, mediaType := it.Text, it.Activity.Name
	root := app.Div().Class("item activity file").DataSet("kind", "activity").DataSet("activity-type", "file")
	if img, ok := state.FileImage(url, mediaType); ok {
		return root.Body(imageView(img, s.T("file.image"), s))
	}
	label := s.T("file.open", mediaType)
	if state.IsWebURL(url) {
		return root.Body(app.A().Href(url).Target("_blank").Rel("noopener noreferrer").Text("📎 " + label))
	}
	return root.Body(app.Span().Text("📎 " + label))
}

// UnknownView is a block of a type this client does not know: a generic
// collapsed item, never raw JSON in the answer.
type UnknownView struct {
	app.Compo
	Item     *state.Item
	Rev      uint64
	Settings Settings
}

func (v *UnknownView) Render() app.UI {
	return app.Div().Class("item unknown").DataSet("kind", "unknown").Body(
		app.Span().Class("unknown-icon").Aria("hidden", true).Text("◇"),
		app.Span().Text(v.Settings.T("unknown.title", v.Item.BlockType)),
	)
}

// firstLine is the start of text's first non-empty line, cut to max runes.
func firstLine(text string, max int) string {
	line, _, _ := strings.Cut(strings.TrimLeft(text, "\n "), "\n")
	if utf8.RuneCountInString(line) > max {
		return string([]rune(line)[:max]) + "…"
	}
	return line
}

// shortTime shows the clock time (hh:mm) of an ISO 8601 timestamp, as the
// backend wrote it: no time zone conversion.
func shortTime(ts string) string {
	if _, clock, ok := strings.Cut(ts, "T"); ok && len(clock) >= 5 {
		return clock[:5]
	}
	return ts
}
