package page

import (
	"slices"
	"strings"
	"time"

	"stepwise/components"
	"stepwise/state"
)

// outbox holds the messages the person sent that the conversation does
// not show yet: queued while the agent runs, on their way, or refused.
// The page shows them after the conversation (components.Outgoing) until
// the backend's echo of each (its user_message event) takes its place.
// It decides only: the controller sends, and says what came back.
//
// Matching an echo to its message (docs/interaction.md, "Sending"): the
// native protocol's user_message carries no id of the client's, so a
// message is matched by its text and order: the first of the
// conversation's user messages, among those that came after the ones it
// had when the message went out, whose text is the message's (spaces
// around it aside, as the backend trims them).
type outbox struct {
	next int
	list []outgoing // oldest first
}

// outgoing is one message in the outbox.
type outgoing struct {
	components.Outgoing
	command string      // the command it last went out with; "" while never sent
	files   []draftFile // the files it sends, uploaded
	after   int         // the conversation's user messages when it went out
	// conn is the connection it goes out on (the controller counts the
	// connections opened); accepted is when the backend accepted it.
	conn     int
	accepted time.Time
}

// echoWait is how long a message accepted by the backend holds the next
// ones back while its echo has not come (a backend that does not echo
// must not hold them for good); and how long, after a reconnection, a
// message that went out on the lost connection may wait for the
// backend's word before it is said not to be sent.
const echoWait = 15 * time.Second

// add puts a message at the end.
func (o *outbox) add(text string, st components.OutgoingState) *outgoing {
	o.next++
	o.list = append(o.list, outgoing{Outgoing: components.Outgoing{ID: o.next, Text: text, State: st}})
	return &o.list[len(o.list)-1]
}

// find returns the message with that id, nil when it is gone.
func (o *outbox) find(id int) *outgoing {
	for i := range o.list {
		if o.list[i].ID == id {
			return &o.list[i]
		}
	}
	return nil
}

// byCommand returns the message that went out with that command.
func (o *outbox) byCommand(id string) *outgoing {
	for i := range o.list {
		if o.list[i].command == id && id != "" {
			return &o.list[i]
		}
	}
	return nil
}

// remove takes a message out; ok is false when it was not there.
func (o *outbox) remove(id int) (m outgoing, ok bool) {
	for i := range o.list {
		if o.list[i].ID == id {
			m = o.list[i]
			o.list = append(o.list[:i], o.list[i+1:]...)
			return m, true
		}
	}
	return outgoing{}, false
}

// inFlight is true while a message went out and its echo has not come:
// the next one waits for it (and for the run it starts), so that
// messages reach the agent one at a time, in order. An accepted message
// holds the next ones back for echoWait at most.
func (o *outbox) inFlight(now time.Time) bool {
	for _, m := range o.list {
		if m.State == components.OutgoingSending ||
			(m.State == components.OutgoingSent && now.Sub(m.accepted) < echoWait) {
			return true
		}
	}
	return false
}

// unconfirmed are the messages still waiting for the backend's word that
// went out on a connection before conn: the connection was lost, and
// they may never have arrived.
func (o *outbox) unconfirmed(conn int) []*outgoing {
	var out []*outgoing
	for i := range o.list {
		if m := &o.list[i]; m.State == components.OutgoingSending && m.command != "" && m.conn < conn {
			out = append(out, m)
		}
	}
	return out
}

// hasQueued is true when a message waits for the run to end.
func (o *outbox) hasQueued() bool {
	for _, m := range o.list {
		if m.State == components.OutgoingQueued {
			return true
		}
	}
	return false
}

// takeQueued takes the queued messages out, oldest first, joined by a
// blank line: what was typed during one run goes to the agent as one
// message, its follow-up. A message that would make the whole too large
// (fits says, with the files taken) stays queued for the next run.
func (o *outbox) takeQueued(fits func(text string, files []draftFile) bool) (string, []draftFile) {
	var texts []string
	var files []draftFile
	kept := o.list[:0]
	full := false
	for _, m := range o.list {
		if m.State != components.OutgoingQueued || full {
			kept = append(kept, m)
			continue
		}
		joined := strings.Join(append(texts, m.Text), "\n\n")
		if len(texts) > 0 && !fits(joined, append(slices.Clip(files), m.files...)) {
			full = true
			kept = append(kept, m)
			continue
		}
		if m.Text != "" {
			texts = append(texts, m.Text)
		}
		files = append(files, m.files...)
	}
	o.list = kept
	return strings.Join(texts, "\n\n"), files
}

// matchEchoes takes out the messages whose echo the conversation shows.
// users are the texts of its user messages, oldest first. It reports how
// many it took.
func (o *outbox) matchEchoes(users []string) int {
	taken := 0
	from := 0 // an echo matches one message only
	kept := o.list[:0]
	for _, m := range o.list {
		if m.command == "" { // never sent: no echo to wait for
			kept = append(kept, m)
			continue
		}
		want := strings.TrimSpace(m.Text)
		found := -1
		for k := max(m.after, from); k < len(users); k++ {
			if strings.TrimSpace(users[k]) == want {
				found = k
				break
			}
		}
		if found < 0 {
			kept = append(kept, m)
			continue
		}
		from = found + 1
		taken++
	}
	o.list = kept
	return taken
}

// view is the outbox as the page shows it; offline marks the messages on
// their way as waiting for the connection.
func (o *outbox) view(offline bool) []components.Outgoing {
	if len(o.list) == 0 {
		return nil
	}
	out := make([]components.Outgoing, len(o.list))
	for i, m := range o.list {
		out[i] = m.Outgoing
		out[i].Waiting = offline && m.State == components.OutgoingSending
	}
	return out
}

// userTexts are the texts of a conversation's user messages, oldest first.
func userTexts(s *state.Store) []string {
	var out []string
	for _, it := range s.Items() {
		if it.Kind == state.KindUser {
			out = append(out, it.Text)
		}
	}
	return out
}
