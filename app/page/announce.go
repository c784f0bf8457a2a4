package page

import "stepwise/state"

// announcer decides what the page's polite status region says: what a
// screen-reader user needs to know and cannot see, once, when it happens (a
// run started, a question or an approval waits, a run finished, stopped or
// failed, something was copied). The conversation itself is not a live
// region: reading out every text delta would drown all of that.
type announcer struct {
	status  state.AgentStatus
	pending string // the approval key of the waiting form last announced
	text    string
	seq     int
}

// say replaces the announcement. The same words twice in a row still
// change the region (a no-break space comes and goes), so that a second
// "Copied" is read out too. Not inlined, as it is called in many places.
//
//go:noinline
func (a *announcer) say(text string) {
	a.seq++
	a.text = text
	if a.seq%2 == 0 {
		a.text += "\u00a0"
	}
}

// observe follows the store after a change of status or of the waiting
// forms. A page that opens on an idle conversation says nothing.
func (a *announcer) observe(s *state.Store, t func(key string, args ...any) string) {
	status := s.Status()
	prev := a.status
	a.status = status
	if p := s.Pending(); p != nil {
		if key := approvalKey(p); key != a.pending {
			a.pending = key
			// Each names the shortcut to the card: a card never takes
			// the focus from what the user is doing (components/cards.go).
			switch {
			case p.Question != nil:
				a.say(t("announce.question"))
			case p.Form != nil:
				a.say(t("announce.form"))
			default:
				a.say(t("announce.approval"))
			}
			return
		}
	} else {
		a.pending = ""
	}
	if status == prev {
		return
	}
	switch status {
	case state.StatusRunning:
		a.say(t("announce.running"))
	case state.StatusIdle:
		if prev == state.StatusRunning {
			a.say(t("announce.done"))
		}
	case state.StatusStopped:
		a.say(t("announce.stopped"))
	case state.StatusError:
		if items := s.Items(); len(items) > 0 && items[len(items)-1].Kind == state.KindError && items[len(items)-1].Text != "" {
			a.say(t("announce.failed") + " " + items[len(items)-1].Text)
		} else {
			a.say(t("announce.failed"))
		}
	}
}
