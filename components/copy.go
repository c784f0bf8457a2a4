package components

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Copy buttons: one under every assistant answer (its Markdown source) and
// one on every code block (its code). A button raises ActionCopy; the
// controller writes the clipboard and says "Copied" in the status region,
// and for a moment the button itself shows it (PageProps.Copied).

// answerCopyID and codeCopyID name copy buttons: the item's key, then the
// code block's number in the answer.
func answerCopyID(it *state.Item) string { return strconv.Itoa(it.Key) }
func codeCopyID(item, n int) string      { return strconv.Itoa(item) + "." + strconv.Itoa(n) }

// CopiedIn is copied when it names a button of one of items, else "": only
// the chunk and the item concerned re-render when it changes.
func CopiedIn(copied string, items []*state.Item) string {
	if copied == "" {
		return ""
	}
	key, _, _ := strings.Cut(copied, ".")
	for _, it := range items {
		if strconv.Itoa(it.Key) == key {
			return copied
		}
	}
	return ""
}

// CopyButton copies Text. It is a component so that a click copies the
// text as it is now, while an answer streams (a closure in a plain
// element's handler would keep the text of its first render).
type CopyButton struct {
	app.Compo
	ID     string
	Text   string
	Label  string // the accessible name: "Copy answer", "Copy code"
	Short  string // the visible text: "Copy"
	Done   string // name and text once copied: "Copied"
	Copied bool
}

func (b *CopyButton) onClick(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(ActionCopy, CopyCommand{ID: b.ID, Text: b.Text})
}

func (b *CopyButton) Render() app.UI {
	label, text, class := b.Label, b.Short, "copy"
	if b.Copied {
		label, text, class = b.Done, b.Done, "copy copied"
	}
	return app.Button().Type("button").Class(class).DataSet("testid", "copy").DataSet("copy-id", b.ID).
		Aria("label", label).OnClick(b.onClick).Body(
		app.Span().Class("copy-icon"), // empty: the button's label names it
		app.Span().Class("copy-text").Text(text),
	)
}

func copyButton(id, text, labelKey string, copied string, tr translator) app.UI {
	return &CopyButton{ID: id, Text: text, Label: tr.T(labelKey), Short: tr.T("copy.short"), Done: tr.T("copy.done"), Copied: copied == id}
}

// textItem is an assistant text: its Markdown (with citation markers and
// copyable code blocks), then its copy button. copied names the button
// that just copied, if it is one of this item's. With stream (a top-level
// answer's ItemView keeps one), the Markdown is drawn in segments so that
// a growing answer parses only its last block again (markdown_stream.go);
// an answer with citations is parsed whole, its marks placed by offset.
func textItem(it *state.Item, s Settings, copied string, stream *mdStream, more ...app.UI) app.UI {
	cls := "item text"
	if it.Final {
		cls += " final"
	}
	var marks []Mark
	if len(it.Citations) > 0 {
		marks = citationMarks(it, s)
	}
	var body []app.UI
	if stream != nil && marks == nil {
		for _, seg := range stream.segments(it.Key, it.Text) {
			body = append(body, &MarkdownSegment{Src: seg.src, Heading: seg.heading, Code: seg.code,
				Item: it.Key, Copied: copied, Settings: s})
		}
	} else {
		body = renderMarkdown(it.Text, marks, &mdCopy{item: it.Key, copied: copied, tr: s})
	}
	if it.Cut {
		body = append(body, cutMark(s))
	}
	// One copy button an answer: under the turn's last text once the turn
	// has ended (state marks it), not under what the agent said between
	// its steps, nor while it streams.
	if it.Answer && stream != nil && strings.TrimSpace(it.Text) != "" {
		body = append(body, app.Div().Class("answer-actions").Body(
			append([]app.UI{copyButton(answerCopyID(it), it.Text, "copy.answer", copied, s)}, more...)...,
		))
	}
	return app.Div().Class(cls).DataSet("kind", "text").Attr("dir", "auto").Body(body...)
}

// announcer is the page's polite status region (visually hidden). It is
// always in the page, so that screen readers watch it from the start.
func announcer(text string) app.UI {
	return app.Div().Class("sr-only").Attr("role", "status").Aria("live", "polite").
		DataSet("testid", "announcer").Text(text)
}
