package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The person's messages on their way out, and the page's notices
// (docs/interaction.md, "Sending").

// OutgoingState is where a message the person sent is on its way.
type OutgoingState string

// The outgoing states.
const (
	// OutgoingQueued: typed while the agent runs; it goes out when the run
	// ends, and can be edited or removed until then.
	OutgoingQueued OutgoingState = "queued"
	// OutgoingSending: handed to the connection (which may hold it until
	// it is back); the backend has not confirmed it yet.
	OutgoingSending OutgoingState = "sending"
	// OutgoingSent: the backend accepted it; its echo in the conversation
	// has not come yet.
	OutgoingSent OutgoingState = "sent"
	// OutgoingFailed: it could not be sent; Error says why.
	OutgoingFailed OutgoingState = "failed"
)

// Outgoing is a message the person sent that the conversation does not
// show yet: the page shows it at the end of the conversation until the
// backend's echo takes its place.
type Outgoing struct {
	ID    int // the page's own number for it, for the actions
	Text  string
	State OutgoingState
	Error string // OutgoingFailed: why, in the UI language
	// Waiting: the connection is down; a sending message waits for it.
	Waiting bool
}

// The outgoing messages' actions; each carries the Outgoing's ID.
const (
	ActionRetryMessage  = "stepwise.outgoing.retry"  // send a failed message again
	ActionEditMessage   = "stepwise.outgoing.edit"   // back into the composer
	ActionRemoveMessage = "stepwise.outgoing.remove" // never send it
	ActionDismissNotice = "stepwise.notice.dismiss"  // no value
)

// outbox draws the outgoing messages after the conversation's items. Its
// box is always there, so that the anchor after it keeps its place.
func outbox(s Settings, list []Outgoing) app.UI {
	views := make([]app.UI, len(list))
	for i, m := range list {
		views[i] = outgoingView(s, m)
	}
	return app.Div().Class("outbox").DataSet("testid", "outbox").Body(views...)
}

func outgoingView(s Settings, m Outgoing) app.UI {
	status, actions := outgoingStatus(s, m)
	return app.Div().Class("item user outgoing").DataSet("testid", "outgoing").DataSet("state", string(m.State)).
		DataSet("waiting", m.Waiting).Body(
		app.Div().Class("bubble").Attr("dir", "auto").Text(m.Text),
		app.Div().Class("outgoing-status").Body(
			app.Span().Class("outgoing-text").Body(
				app.Span().Class("outgoing-dot").Aria("hidden", true),
				app.Text(status),
			),
			app.If(len(actions) > 0, func() app.UI { return app.Span().Class("outgoing-actions").Body(actions...) }),
		),
	)
}

// outgoingStatus is what a message's status line says, and the buttons it
// offers.
func outgoingStatus(s Settings, m Outgoing) (string, []app.UI) {
	button := func(action, testid, key string) app.UI {
		id := m.ID
		return app.Button().Type("button").Class("link-button").DataSet("testid", testid).
			Aria("label", s.T(key)+": "+clipLabel(m.Text)).
			OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(action, id) }).
			Text(s.T(key))
	}
	switch m.State {
	case OutgoingQueued:
		return s.T("outbox.queued"), []app.UI{
			button(ActionEditMessage, "outgoing-edit", "outbox.edit"),
			button(ActionRemoveMessage, "outgoing-remove", "outbox.remove"),
		}
	case OutgoingFailed:
		return s.T("outbox.failed", m.Error), []app.UI{
			button(ActionRetryMessage, "outgoing-retry", "outbox.retry"),
			button(ActionEditMessage, "outgoing-edit", "outbox.edit"),
			button(ActionRemoveMessage, "outgoing-remove", "outbox.remove"),
		}
	case OutgoingSent:
		return s.T("outbox.sent"), nil
	}
	if m.Waiting {
		return s.T("outbox.waiting"), nil
	}
	return s.T("outbox.sending"), nil
}

// clipLabel is the start of a message, to tell its buttons from another
// message's in a screen reader's list of controls.
func clipLabel(text string) string {
	r := []rune(text)
	if len(r) <= 40 {
		return text
	}
	return string(r[:39]) + "…"
}

// noticeBanner is the page's notice (Notice): an alert with a real close
// button. The controller also clears it once what it reported is over.
func noticeBanner(s Settings, text string) app.UI {
	return app.Div().Class("notice").Attr("role", "alert").DataSet("testid", "notice").Body(
		app.Span().Class("notice-message").Text(text),
		app.Button().Type("button").Class("notice-close").DataSet("testid", "notice-close").
			Aria("label", s.T("notice.dismiss")).
			OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(ActionDismissNotice) }).
			Body(app.Span().Aria("hidden", true).Text("×")),
	)
}

// offlineBanner says the page lost its backend: the browser has no
// network, or it has and the server does not answer.
func offlineBanner(s Settings, noNetwork bool) app.UI {
	key := "offline.server"
	if noNetwork {
		key = "offline.notice"
	}
	return app.Div().Class("banner offline").Attr("role", "status").DataSet("testid", "offline").
		DataSet("network", !noNetwork).Text(s.T(key))
}

// cutMark ends an item whose text reached state.MaxItemText: what came
// after was dropped.
func cutMark(s Settings) app.UI {
	return app.P().Class("cut-mark").DataSet("testid", "cut-off").Text(s.T("item.cut"))
}

// FormatBytes is a size for people: "64 KB", "1.5 MB" (KB = 1024 bytes).
func FormatBytes(s Settings, n int) string {
	switch {
	case n < 1<<10:
		return s.Locale.Int(int64(n)) + " B"
	case n < 1<<20:
		return s.Locale.Int(int64((n+1<<9)>>10)) + " KB"
	}
	tenths := (int64(n)*10 + 1<<19) >> 20
	if tenths%10 == 0 || tenths >= 1000 {
		return s.Locale.Int((tenths+5)/10) + " MB"
	}
	return s.Locale.Decimal(tenths/10, int(tenths%10)) + " MB"
}
