package native

import (
	"encoding/json"
	"errors"
	"strconv"

	"stepwise/app/backend"
	"stepwise/state/wire"
)

// encodeCommand marshals a client frame with its command_id first (the
// frames are wire's structs, which have no such field: the id is the
// transport's business, not the frame's).
func encodeCommand(frame any, id string) ([]byte, error) {
	b, err := json.Marshal(frame)
	if err != nil || id == "" {
		return b, err
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, errors.New("a client frame must be a JSON object")
	}
	idJSON, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+len(idJSON)+16)
	out = append(out, `{"command_id":`...)
	out = append(out, idJSON...)
	if b[1] != '}' {
		out = append(out, ',')
	}
	return append(out, b[1:]...), nil
}

// serverFrame is what a transport reads of a frame before passing it on:
// its event id, and the replies that are the transport's, not stream events
// for the store (docs/protocol-extensions.md): reset and command_result.
type serverFrame struct {
	id     wire.EventID
	reset  *resetFrame
	result *backend.Outcome
}

// resetFrame: the server cannot resume after the id the client asked for.
type resetFrame struct {
	last   wire.EventID // the newest id the server has; zero for none
	reason string
}

// readFrame reads a server frame. A frame it cannot read is passed on as
// it is: the store counts it as skipped.
func readFrame(frame []byte) serverFrame {
	typ, eventID, ok := wire.FrameHead(frame)
	if !ok {
		return serverFrame{}
	}
	var f serverFrame
	f.id, _ = wire.ParseEventID(eventID)
	if !f.id.IsZero() {
		return f // a stream event
	}
	switch string(typ) {
	case `"reset"`:
		var r struct {
			LastEventID json.RawMessage `json:"last_event_id"`
			Reason      string          `json:"reason"`
		}
		if json.Unmarshal(frame, &r) == nil {
			f.reset = &resetFrame{reason: r.Reason}
			f.reset.last, _ = wire.ParseEventID(r.LastEventID)
		}
	case `"command_result"`:
		var r struct {
			CommandID string `json:"command_id"`
			OK        bool   `json:"ok"`
			Error     *struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(frame, &r) == nil && r.CommandID != "" {
			f.result = &backend.Outcome{CommandID: r.CommandID}
			if !r.OK {
				ce := &backend.CommandError{}
				if r.Error != nil {
					ce.Type, ce.Message = r.Error.Type, r.Error.Message
				}
				f.result.Err = ce
			}
		}
	}
	return f
}

// refusal reads the error body of a refused POST ({"error":{"message"}}),
// else returns the status text.
func refusal(status int, body []byte) *backend.CommandError {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && (e.Error.Message != "" || e.Error.Type != "") {
		return &backend.CommandError{Type: e.Error.Type, Message: e.Error.Message}
	}
	return &backend.CommandError{Message: "HTTP " + strconv.Itoa(status)}
}

// readCommandID reads the command_id encodeCommand put in a frame.
func readCommandID(frame []byte) string {
	var f struct {
		CommandID string `json:"command_id"`
	}
	json.Unmarshal(frame, &f)
	return f.CommandID
}
