package state

import (
	"errors"
	"time"

	"stepwise/state/wire"
)

// Local events: what happens on the page's side of a conversation, applied
// with ApplyLocal as a backend's events are with Apply. The person sent a
// message or answered a card; the page stopped the run; or it learnt of
// the backend's stream what the stream itself cannot say (it ended early,
// went silent, was refused, resumed). Each returns its Changes, so a
// caller never has to guess what an action changed, and what a backend
// needs next is read with a query that changes nothing (NextAGUIRun,
// NextUIChatRequest, AGUIConversation, UIConversation).
//
// Who keeps the conversation (Options.Kept) decides what a local event
// does: a native backend keeps it and answers every action with events
// of its own (its echo of the message, approval_result, message_stop), so
// there the store only checks an answer; the AG-UI and AI SDK modes keep
// it in the page, which applies the action at once.

// Local is an event of the page's side. The types below are the only ones.
type Local interface{ local() }

// UserSent: the person sent a message. Where the page keeps the
// conversation, it shows at once and a run starts with it (the cards still
// waiting are cancelled: the person moved on); a native backend shows it
// with its echo.
type UserSent struct {
	Text string
	// Files are its files, read in the browser (InlineBlock): the page
	// keeps them with the message (kept_files.go).
	Files []wire.ContentBlock
}

// CardAnswered: the person answered a card (a question, an approval, a
// form). Decisions are checked as CheckDecisions does. Where the page
// keeps the conversation, the card shows the answer at once and
// Changes.Ready says when every card the agent waits on has its answer.
type CardAnswered struct {
	Key    string
	Answer CardAnswer
}

// CardsExpired: a card's countdown ended at Now (an AG-UI interrupt's
// expiresAt). Where the page keeps the conversation, the cards that are
// due expire (their interrupts are cancelled with the next run), and
// Changes.Ready says when the answers given to the others can now go; a
// native backend expires its cards with events of its own.
type CardsExpired struct{ Now time.Time }

// AnswersSent: the answers given to the agent's cards go to it, without a
// message: the paused run goes on.
type AnswersSent struct{}

// RunStopped: the person stopped the run, where stopping is aborting the
// request and the backend says nothing more: a stopped item, tools still
// running interrupted, open cards expired. A run already over is left as
// it is. A native backend says it stopped with an event of its own.
type RunStopped struct{}

// StreamEnded: the run's stream stopped before the run's end (the
// connection dropped): a notice says so, with Detail when there is one;
// nothing shown is lost, and the agent is in error.
type StreamEnded struct{ Detail string }

// StreamTimedOut: the run's stream brought nothing for too long and the
// page aborted it; as StreamEnded.
type StreamTimedOut struct{}

// StreamRefused: the run's request got no stream: the backend refused it
// (an HTTP error) or answered with something else (an HTML page). A notice
// says which; as StreamEnded otherwise.
type StreamRefused struct{ Problem *wire.StreamProblem }

// StreamResumed: an AI SDK route answered the request for the chat's
// active stream with it. The stream replays the active response from its
// start, so the part of it the saved conversation holds is taken back
// first; the agent is running again.
type StreamResumed struct{}

// NothingToResume: there was no active stream to resume (204, or the
// request failed): what was saved stays as it is shown.
type NothingToResume struct{}

// Restored: a conversation the page kept is shown again, as a reload shows
// it: every group closed as history (but the one holding a card still
// waiting), the agent idle. Exactly one of AGUI and UI is set; a new
// conversation is one with only its id (ThreadID, ID).
type Restored struct {
	AGUI *AGUIConversation
	UI   *UIConversation
}

func (UserSent) local()        {}
func (CardAnswered) local()    {}
func (CardsExpired) local()    {}
func (AnswersSent) local()     {}
func (RunStopped) local()      {}
func (StreamEnded) local()     {}
func (StreamTimedOut) local()  {}
func (StreamRefused) local()   {}
func (StreamResumed) local()   {}
func (NothingToResume) local() {}
func (Restored) local()        {}

// Kept says who keeps a conversation.
type Kept int

// Who keeps a conversation.
const (
	// KeptByBackend: the backend (the native protocol). It echoes the
	// person's messages and resolves cards with events of its own.
	KeptByBackend Kept = iota
	// KeptAsAGUI: the page, as an AG-UI thread it POSTs with each run.
	KeptAsAGUI
	// KeptAsAISDK: the page, as an AI SDK chat it POSTs with each request.
	KeptAsAISDK
	// KeptNowhere: no backend (the replay page mode): a message shows at
	// once and goes nowhere.
	KeptNowhere
)

// ErrNotKept is returned for a local event that needs the page to keep
// the conversation, where it does not.
var ErrNotKept = errors.New("the page does not keep this conversation")

// ApplyLocal applies a local event. An error means nothing changed (a card
// that waits for no answer, decisions that are not allowed).
func (s *Store) ApplyLocal(ev Local) (Changes, error) {
	kept := s.opts.Kept
	switch ev := ev.(type) {
	case UserSent:
		if ev.Text == "" && len(ev.Files) == 0 {
			return Changes{}, errors.New("an empty message")
		}
		switch kept {
		case KeptAsAGUI, KeptAsAISDK:
			s.startRun(ev.Text, keptFilesOf(ev.Files)...)
		case KeptNowhere:
			text := ev.Text
			return s.Apply(&wire.Event{Type: "user_message", Text: &text}), nil
		default:
			s.begin()
		}
		return s.changes, nil
	case CardAnswered:
		if kept == KeptByBackend || kept == KeptNowhere {
			s.begin()
			return s.changes, s.checkAnswer(ev.Key, ev.Answer)
		}
		ready, err := s.answerCard(ev.Key, ev.Answer)
		if err != nil {
			return Changes{}, err
		}
		s.changes.Ready = ready
		return s.changes, nil
	case CardsExpired:
		if kept != KeptAsAGUI && kept != KeptAsAISDK {
			s.begin()
			return s.changes, nil
		}
		ch, ready := s.expireDue(ev.Now)
		ch.Ready = ready
		return ch, nil
	case AnswersSent:
		if kept != KeptAsAGUI && kept != KeptAsAISDK {
			return Changes{}, ErrNotKept
		}
		s.startRun("")
		return s.changes, nil
	case RunStopped:
		if kept == KeptByBackend {
			s.begin()
			return s.changes, nil
		}
		return s.stopRun(), nil
	case StreamEnded:
		return s.endStreamUnexpectedly(ev.Detail), nil
	case StreamTimedOut:
		return s.endStreamTimedOut(), nil
	case StreamRefused:
		return s.streamFailed(ev.Problem), nil
	case StreamResumed:
		return s.beginUIResume(), nil
	case NothingToResume:
		return s.nothingToResume(), nil
	case Restored:
		switch {
		case ev.AGUI != nil:
			s.restoreAGUI(*ev.AGUI)
		case ev.UI != nil:
			s.restoreUI(*ev.UI)
		default:
			return Changes{}, errors.New("nothing to restore")
		}
		s.settleRestored()
		return s.changes, nil
	case Edited, Regenerated, BranchChosen, Rated:
		return s.applyKept(ev)
	}
	return Changes{}, errors.New("unknown local event")
}

// startRun makes the request of the run the page starts with userText
// ("": the answers to the agent's cards go), where the page keeps the
// conversation (NextAGUIRun, NextUIChatRequest).
func (s *Store) startRun(userText string, files ...keptFile) {
	if s.opts.Kept == KeptAsAGUI {
		in := s.aguiRunInput(userText, files...)
		s.nextRun = &in
		return
	}
	req := s.uiChatRequest(userText, files...)
	s.nextChat = &req
}

// nothingToResume: what was saved stays as it is shown.
func (s *Store) nothingToResume() Changes {
	s.begin()
	s.endUIResume()
	return s.changes
}

// checkAnswer checks an answer a backend will resolve: decisions must be
// allowed for the approval they answer.
func (s *Store) checkAnswer(key string, a CardAnswer) error {
	if a.Decisions == nil {
		return nil
	}
	it := s.approvals[key]
	if it == nil || it.Approval == nil {
		return errors.New("no such approval: " + key)
	}
	return CheckDecisions(it.Approval, a.Decisions)
}

// NextAGUIRun is the RunAgentInput to POST for the run that UserSent or
// AnswersSent started, in a conversation kept as an AG-UI thread; ok is
// false once another event was applied since.
func (s *Store) NextAGUIRun() (wire.RunAgentInput, bool) {
	if s.nextRun == nil {
		return wire.RunAgentInput{}, false
	}
	return *s.nextRun, true
}

// NextUIChatRequest is the request body to POST to the chat route for
// what UserSent or AnswersSent started, in a conversation kept as an AI
// SDK chat; ok is false once another event was applied since.
func (s *Store) NextUIChatRequest() (wire.UIChatRequest, bool) {
	if s.nextChat == nil {
		return wire.UIChatRequest{}, false
	}
	return *s.nextChat, true
}
