package demo

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"stepwise/state/wire"
)

// MaxFrameBytes bounds a client frame (WebSocket message or command body).
const MaxFrameBytes = 64 << 10

// keepAlive is how often an idle stream carries a ping.
const keepAlive = 20 * time.Second

// writeTimeout bounds one write to a stream: a client that stops reading
// is dropped (it resumes from its last id when it comes back). It stands
// in for the server's WriteTimeout, which a stream cannot live with.
const writeTimeout = 10 * time.Second

// Handler serves PROTOCOL.md's endpoints for the demo agent under /api/.
type Handler struct {
	Agent *Agent
	// OriginPatterns are the other origins allowed to open the WebSocket
	// and POST commands (the page's own origin always is), as
	// websocket.AcceptOptions.OriginPatterns: host patterns of path.Match.
	OriginPatterns []string
	// DropRate, when above zero, closes a stream at random after an event
	// with this probability, at most MaxDrops times: the fault test uses it.
	DropRate float64
	MaxDrops int64
	drops    atomic.Int64

	// MaxStreamsPerSession and MaxStreamsPerClient bound the streams
	// (WebSockets and SSE) open on one session and from one client
	// (ClientOf); one more is refused with 429 and the page retries with
	// backoff. 0: no limit.
	MaxStreamsPerSession int
	MaxStreamsPerClient  int
	streams              streamCounts
}

// Drops returns how many connections DropRate closed.
func (h *Handler) Drops() int64 { return h.drops.Load() }

// ServeHTTP routes /api/sessions/{id}/{history|ws|events|commands}, the
// files people attach (POST /api/sessions/{id}/files, GET
// /api/sessions/{id}/files/{file_id}: files_http.go), and the optional
// /api/sessions (the caller's sessions) and DELETE /api/sessions/{id} (off
// the caller's list): list.go.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/sessions" {
		h.serveList(w, r)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/sessions/")
	id, endpoint, ok2 := strings.Cut(rest, "/")
	if ok && !ok2 && wire.ValidSessionID(id) {
		h.serveUnlist(w, r, id)
		return
	}
	if !ok || !ok2 || !wire.ValidSessionID(id) {
		apiError(w, http.StatusNotFound, "not_found", "no such endpoint")
		return
	}
	switch {
	case endpoint == "history" && r.Method == http.MethodGet:
		h.serveHistory(w, id)
	case endpoint == "ws" && r.Method == http.MethodGet:
		if !h.openStream(w, id, ClientOf(r)) {
			return
		}
		defer h.closeStream(id, ClientOf(r))
		// The upgrade's response carries the owner cookie: what this
		// connection's messages create is the browser's (owner.go).
		owner := claimOwner(w, r)
		h.withSession(w, id, func(s *Session) { h.serveWS(w, r, s, owner) })
	case endpoint == "events" && r.Method == http.MethodGet:
		if !h.openStream(w, id, ClientOf(r)) {
			return
		}
		defer h.closeStream(id, ClientOf(r))
		h.withSession(w, id, func(s *Session) { h.serveSSE(w, r, s) })
	case endpoint == "commands" && r.Method == http.MethodPost:
		h.serveCommand(w, r, id)
	case endpoint == "ui-resource" && r.Method == http.MethodGet:
		h.serveUIResource(w, r) // mcpapp.go
	case endpoint == "tool-calls" && r.Method == http.MethodPost:
		h.serveToolCall(w, r)
	case endpoint == "files" && r.Method == http.MethodPost:
		h.serveUpload(w, r, id)
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		fileID, ok := isFileEndpoint(endpoint)
		if !ok {
			apiError(w, http.StatusNotFound, "not_found", "no such endpoint")
			return
		}
		h.serveFile(w, r, id, fileID)
	default:
		apiError(w, http.StatusNotFound, "not_found", "no such endpoint")
	}
}

// withSession runs serve with the session attached.
func (h *Handler) withSession(w http.ResponseWriter, id string, serve func(*Session)) {
	s, err := h.Agent.Attach(id)
	if err != nil {
		apiError(w, http.StatusServiceUnavailable, "unavailable", err.Error())
		return
	}
	defer s.Detach()
	serve(s)
}

func apiError(w http.ResponseWriter, code int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"type": kind, "message": msg}})
}

// errorEvent is a stream error for the client: shown, never logged.
func errorEvent(kind, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}})
	return b
}

// errorKind names a refusal for the client (command_result's error.type).
func errorKind(err error) string {
	var refusal *Refusal
	switch {
	case errors.As(err, &refusal):
		return refusal.Kind
	case errors.Is(err, ErrBusy):
		return "busy"
	case errors.Is(err, ErrFull):
		return "session_full"
	case errors.Is(err, ErrClosed), errors.Is(err, ErrStorage):
		return "unavailable"
	case errors.Is(err, ErrTooManySessions):
		return "too_many_sessions"
	case errors.Is(err, errTooLarge):
		return "too_large"
	}
	return "invalid_request"
}

func (h *Handler) serveHistory(w http.ResponseWriter, id string) {
	hist, err := h.Agent.History(id)
	if err != nil {
		apiError(w, http.StatusInternalServerError, "internal", "the session could not be read")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(hist)
}

// readJSONPost reads the body of a POST from the page: refused (and
// answered) when it comes from another origin, is not JSON or is over
// MaxFrameBytes. what names the request in the refusals ("command").
func (h *Handler) readJSONPost(w http.ResponseWriter, r *http.Request, what string) ([]byte, bool) {
	if !originAllowed(r, h.OriginPatterns) {
		apiError(w, http.StatusForbidden, "forbidden", what+"s from another origin are refused")
		return nil, false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		apiError(w, http.StatusUnsupportedMediaType, "invalid_request", "a "+what+" must be sent as application/json")
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxFrameBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		apiError(w, http.StatusRequestEntityTooLarge, "too_large", errTooLarge.Error())
		return nil, false
	case err != nil:
		apiError(w, http.StatusBadRequest, "invalid_request", "the "+what+" could not be read")
		return nil, false
	}
	return body, true
}

// serveCommand takes a client frame by POST (the SSE transport). Like the
// WebSocket, it refuses pages of other origins; and it takes only JSON, so
// a cross-origin form or text/plain fetch cannot even try.
func (h *Handler) serveCommand(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := h.readJSONPost(w, r, "command")
	if !ok {
		return
	}
	if !utf8.Valid(body) {
		apiError(w, http.StatusBadRequest, "invalid_request", errNotUTF8.Error())
		return
	}
	f, err := wire.DecodeClientFrame(body)
	if err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request", "the command is not valid JSON: "+err.Error())
		return
	}
	owner := claimOwner(w, r)
	s, err := h.Agent.Attach(id)
	if err != nil {
		apiError(w, http.StatusServiceUnavailable, "unavailable", err.Error())
		return
	}
	defer s.Detach()
	if err := h.Agent.HandleFrom(s, Caller{Owner: owner, Client: ClientOf(r)}, f); err != nil {
		code := http.StatusBadRequest
		var refusal *Refusal
		switch {
		case errors.As(err, &refusal):
			code = refusal.Status
		case errors.Is(err, ErrBusy):
			code = http.StatusConflict
		case errors.Is(err, ErrFull):
			code = http.StatusRequestEntityTooLarge
		case errors.Is(err, ErrClosed), errors.Is(err, ErrStorage):
			code = http.StatusServiceUnavailable
		case errors.Is(err, ErrTooManySessions):
			code = http.StatusTooManyRequests
		}
		apiError(w, code, errorKind(err), err.Error())
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// originAllowed is the WebSocket's origin rule (coder/websocket's
// authenticateOrigin): no Origin (not a browser), the same host, or a host
// that matches one of patterns.
func originAllowed(r *http.Request, patterns []string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(r.Host, u.Host) {
		return true
	}
	for _, p := range patterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(target)); ok {
			return true
		}
	}
	return false
}
