package demo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// serveSSE is the Server-Sent Events transport: id: carries the event id,
// and a reconnecting EventSource resumes with Last-Event-ID (or
// ?last_event_id=); a reset frame has no id.
func (h *Handler) serveSSE(w http.ResponseWriter, r *http.Request, s *Session) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		apiError(w, http.StatusInternalServerError, "internal", "streaming unsupported")
		return
	}
	rc := http.NewResponseController(w)
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("last_event_id")
	}
	sub, err := s.Subscribe(last)
	if err != nil {
		apiError(w, http.StatusInternalServerError, "internal", "the session could not be read")
		return
	}
	defer sub.Cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	write := func(chunk string) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, err := fmt.Fprint(w, chunk)
		flusher.Flush()
		return err == nil
	}
	send := func(ev []byte) bool {
		var head struct {
			Type        string  `json:"type"`
			EventID     string  `json:"event_id"`
			LastEventID *string `json:"last_event_id"`
		}
		json.Unmarshal(ev, &head)
		chunk := ""
		switch {
		case head.EventID != "":
			chunk = "id: " + head.EventID + "\n"
		case head.Type == "reset":
			// The EventSource resumes from the server's newest id from now
			// on (an empty id: clears its Last-Event-ID).
			id := ""
			if head.LastEventID != nil {
				id = *head.LastEventID
			}
			chunk = "id: " + id + "\n"
		}
		// Events hold no line break: they are marshalled, or repaired
		// as read back (storedEvent).
		return write(chunk + "data: " + string(validText(ev)) + "\n\n")
	}
	// The client's EventSource opens on the headers.
	if !write("retry: 1000\n\n") {
		return
	}
	pump(r.Context(), sub, send, func() bool { return write(": ping\n\n") })
}
