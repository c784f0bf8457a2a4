package demo

import (
	"fmt"
	"net/http"
	"sync"
)

// Default stream limits, for the server's flags (Handler's zero values
// lift them): a reader has a tab or a few on a conversation, and a
// handful of conversations open.
const (
	DefaultMaxStreamsPerSession = 32
	DefaultMaxStreamsPerClient  = 64
)

// streamCounts counts the open streams by session and by client.
type streamCounts struct {
	mu        sync.Mutex
	bySession map[string]int
	byClient  map[string]int
}

// openStream counts a stream of session from client, or answers 429 when
// either has as many as it may.
func (h *Handler) openStream(w http.ResponseWriter, session, client string) bool {
	c := &h.streams
	c.mu.Lock()
	defer c.mu.Unlock()
	var refusal string
	switch {
	case h.MaxStreamsPerSession > 0 && c.bySession[session] >= h.MaxStreamsPerSession:
		refusal = fmt.Sprintf("This conversation has as many connections open as it may (%d): close a tab showing it.", h.MaxStreamsPerSession)
	case h.MaxStreamsPerClient > 0 && c.byClient[client] >= h.MaxStreamsPerClient:
		refusal = fmt.Sprintf("You have as many connections open as you may (%d): close some tabs.", h.MaxStreamsPerClient)
	}
	if refusal != "" {
		w.Header().Set("Retry-After", "10")
		apiError(w, http.StatusTooManyRequests, "too_many_streams", refusal)
		return false
	}
	if c.bySession == nil {
		c.bySession, c.byClient = map[string]int{}, map[string]int{}
	}
	c.bySession[session]++
	c.byClient[client]++
	return true
}

// closeStream uncounts a stream openStream counted.
func (h *Handler) closeStream(session, client string) {
	c := &h.streams
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bySession[session]--; c.bySession[session] <= 0 {
		delete(c.bySession, session)
	}
	if c.byClient[client]--; c.byClient[client] <= 0 {
		delete(c.byClient, client)
	}
}
