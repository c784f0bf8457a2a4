package agent

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

// The user's half where the page keeps the conversation
// (docs/backends.md, "The user's half in the browser-kept modes"): files
// are read in the browser and go inline with the message; edits,
// regenerates and versions change the conversation the page keeps (state's
// Edited, Regenerated, BranchChosen), an edit or a regenerate then runs
// as a message does; a rating goes to the deployment's -feedback-url.

// errBusy: a run is going; the controls say so before they are pressed.
var errBusy = &backend.CommandError{Type: "busy"}

// act applies an action on the conversation's messages, then, when it
// took, starts its run (run) and keeps the conversation; the outcome names
// command id. Not while a run is going.
func (b *Backend) act(id string, ev state.Local, conv *state.Store, run bool, took func(conv *state.Store) bool) error {
	if conv.Status() == state.StatusRunning {
		return errBusy
	}
	if b.deliver == nil {
		return backend.ErrOffline
	}
	b.deliver(backend.Happened{Event: ev})
	b.deliver(backend.Of{Events: func(conv *state.Store) []backend.Event {
		var err error
		if run {
			req, ok := b.cfg.Protocol.Run(conv)
			if ok {
				b.stop()
				b.request(req, false)
			} else {
				err = state.ErrNoSuchMessage
			}
		} else if !took(conv) {
			err = state.ErrNoSuchMessage
		}
		if err == nil {
			b.save(conv)
		}
		return []backend.Event{backend.Outcome{CommandID: id, Err: err}}
	}})
	return nil
}

// shows reports whether the conversation shows message id.
func shows(id string) func(conv *state.Store) bool {
	return func(conv *state.Store) bool {
		for _, it := range conv.Items() {
			if it.Message != nil && it.Message.ID == id {
				return true
			}
		}
		return false
	}
}

// Feedback is what -feedback-url receives
// (docs/protocol-extensions.md#feedback).
type Feedback struct {
	_              [0]func() // not comparable: no equality code
	Protocol       string    `json:"protocol"`
	ConversationID string    `json:"conversation_id"`
	MessageID      string    `json:"message_id"`
	Rating         *string   `json:"rating"` // null: taken back
	Comment        string    `json:"comment,omitempty"`
}

// feedbackBody is the POST of a rating.
func feedbackBody(p Protocol, conv *state.Store, r backend.Rate) []byte {
	f := Feedback{Protocol: p.Name(), MessageID: r.MessageID, Comment: r.Comment}
	if r.Rating != "" {
		f.Rating = &r.Rating
	}
	if p.Kept() == state.KeptAsAGUI {
		f.ConversationID = conv.AGUIConversation().ThreadID
	} else {
		f.ConversationID = conv.UIConversation().ID
	}
	raw, _ := json.Marshal(f)
	return raw
}

// rated is a rating's outcome: kept with the conversation when the
// endpoint took it (any 2xx), else said, the thumbs as they were.
func (b *Backend) rated(r backend.Rate, status int, err error) {
	switch {
	case err != nil:
		err = &backend.CommandError{Type: "feedback_refused", Message: err.Error()}
	case status < 200 || status > 299:
		err = &backend.CommandError{Type: "feedback_refused", Message: "HTTP " + strconv.Itoa(status)}
	}
	if err == nil {
		b.deliver(backend.Happened{Event: state.Rated{MessageID: r.MessageID, Rating: r.Rating, Comment: r.Comment}})
		b.deliver(backend.Of{Events: func(conv *state.Store) []backend.Event { b.save(conv); return nil }})
	}
	b.deliver(backend.Outcome{CommandID: r.ID, Err: err})
}

// fileRead is a file read in the browser (a data: URL, or why it could
// not be read: readErr) as the message sends it: its bytes inline, once
// they are what its name says.
func fileRead(u backend.Upload, size int64, dataURL string, readErr error) backend.Uploaded {
	out := backend.Uploaded{ID: u.ID}
	_, data, ok := strings.Cut(dataURL, ";base64,")
	t, terr := wire.ResolveFileType(u.Name, u.MediaType)
	switch {
	case readErr != nil || !ok:
		out.Err = &backend.CommandError{Type: "incomplete"}
		return out
	case terr != nil:
		out.Err = &backend.CommandError{Type: "unsupported_type"}
		return out
	case data == "":
		out.Err = &backend.CommandError{Type: "empty_file"}
		return out
	}
	head, _ := base64.StdEncoding.DecodeString(data[:min(len(data), (wire.SniffHeadBytes+2)/3*4)])
	if wire.CheckFileHead(t, head) != nil {
		out.Err = &backend.CommandError{Type: "type_mismatch"}
		return out
	}
	out.File = wire.UploadedFile{FileInfo: wire.FileInfo{Name: u.Name, MediaType: t.MediaType, Size: size}}
	block := state.InlineBlock(out.File.FileInfo, data)
	out.Block = &block
	return out
}
