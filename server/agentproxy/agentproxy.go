// Package agentproxy puts an AG-UI agent or an AI SDK chat route behind the
// app's own origin (BACKENDS.md section 5), so the page's CSP stays
// connect-src 'self' and the browser never talks to the backend directly.
//
// The app POSTs to fixed paths and the proxy forwards to the endpoint the
// server was given, streaming the answer as it comes (no buffering):
//
//	ag-ui:  POST /api/agent                  -> POST {endpoint}
//	ai-sdk: POST /api/chat                   -> POST {endpoint}
//	        GET  /api/chat/{id}/stream       -> GET  {endpoint}/{id}/stream
//	        GET  /api/chat/mcp-apps/resource -> GET  {endpoint}/mcp-apps/resource (MCP Apps, docs/mcp-apps.md)
//	        POST /api/chat/mcp-apps/tool-calls -> POST {endpoint}/mcp-apps/tool-calls
//
// A POST must be JSON from the app's own origin (a cross-site form cannot
// start an agent run). Aborting the request (the app's Stop) cancels the
// backend request, which is how both protocols stop a run.
package agentproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// Protocol is what the backend speaks.
type Protocol string

// The protocols of -protocol.
const (
	Stepwise Protocol = "stepwise" // PROTOCOL.md: the /api/ paths as they are
	AGUI     Protocol = "ag-ui"
	AISDK    Protocol = "ai-sdk"
)

// The paths the app uses in each protocol.
const (
	AGUIPath = "/api/agent"
	ChatPath = "/api/chat"
)

// MaxBody bounds a request: the whole conversation travels with each run.
const MaxBody = 32 << 20

// ParseProtocol reads a -protocol value; "" is Stepwise.
func ParseProtocol(s string) (Protocol, error) {
	switch p := Protocol(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return Stepwise, nil
	case Stepwise, AGUI, AISDK:
		return p, nil
	}
	return "", fmt.Errorf("-protocol %q: want stepwise, ag-ui or ai-sdk", s)
}

// New returns the handler of /api/ for an AG-UI or AI SDK endpoint.
func New(p Protocol, endpoint string) (http.Handler, error) {
	target, err := url.Parse(endpoint)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, fmt.Errorf("-backend %q is not an absolute http(s) URL", endpoint)
	}
	if p != AGUI && p != AISDK {
		return nil, fmt.Errorf("agentproxy: protocol %q has no proxy here", p)
	}
	h := &handler{protocol: p, target: target}
	h.proxy = &httputil.ReverseProxy{
		Rewrite:       h.rewrite,
		FlushInterval: -1, // every event goes out as it comes
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the app went away (Stop, reload): nothing to answer
			}
			writeError(w, http.StatusBadGateway, "The agent at "+target.Host+" could not be reached: "+err.Error())
		},
	}
	return h, nil
}

type handler struct {
	protocol Protocol
	target   *url.URL
	proxy    *httputil.ReverseProxy
}

// route tells the method a path takes and, for a chat's stream, the chat
// id; ok is false for a path the app does not use here.
func (h *handler) route(r *http.Request) (method, chatID string, ok bool) {
	switch {
	case h.protocol == AGUI && r.URL.Path == AGUIPath:
		return http.MethodPost, "", true
	case h.protocol == AISDK && r.URL.Path == ChatPath:
		return http.MethodPost, "", true
	case h.protocol == AISDK && r.URL.Path == ChatPath+"/"+appResource:
		return http.MethodGet, "", true
	case h.protocol == AISDK && r.URL.Path == ChatPath+"/"+appToolCalls:
		return http.MethodPost, "", true
	case h.protocol == AISDK && strings.HasPrefix(r.URL.Path, ChatPath+"/") && strings.HasSuffix(r.URL.Path, "/stream"):
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, ChatPath+"/"), "/stream")
		if id == "" || strings.Contains(id, "/") {
			return "", "", false
		}
		return http.MethodGet, id, true
	}
	return "", "", false
}

// ctxChatID carries the chat id of a stream request to the rewrite.
type ctxChatID struct{}

// The MCP Apps routes of an AI SDK application (docs/mcp-apps.md): the
// same contract as the native protocol's, under the chat route.
const (
	appResource  = "mcp-apps/resource"
	appToolCalls = "mcp-apps/tool-calls"
)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method, chatID, ok := h.route(r)
	if !ok {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	if r.Method != method {
		w.Header().Set("Allow", method)
		writeError(w, http.StatusMethodNotAllowed, "use "+method)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		writeError(w, http.StatusForbidden, "cross-origin requests are refused")
		return
	}
	rc := http.NewResponseController(w)
	if method == http.MethodPost {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "send application/json")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			writeError(w, http.StatusRequestEntityTooLarge, "the conversation is too large to send")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	// The body is in: from here the answer is a stream that lasts as long
	// as the run, beyond the server's read and write timeouts.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	h.proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxChatID{}, chatID)))
}

func (h *handler) rewrite(pr *httputil.ProxyRequest) {
	u := *h.target
	if id, _ := pr.In.Context().Value(ctxChatID{}).(string); id != "" {
		u.Path = strings.TrimSuffix(h.target.Path, "/") + "/" + id + "/stream"
		u.RawPath = strings.TrimSuffix(h.target.EscapedPath(), "/") + "/" + url.PathEscape(id) + "/stream"
	}
	if sub, ok := strings.CutPrefix(pr.In.URL.Path, ChatPath+"/"); ok && (sub == appResource || sub == appToolCalls) {
		u.Path = strings.TrimSuffix(h.target.Path, "/") + "/" + sub
		u.RawPath = ""
		u.RawQuery = pr.In.URL.RawQuery
	}
	pr.Out.URL = &u
	pr.Out.Host = ""
	pr.SetXForwarded()
	// The app's origin means nothing to the backend; its own checks see a
	// server-to-server call.
	pr.Out.Header.Del("Origin")
	pr.Out.Header.Del("Referer")
	if pr.Out.Header.Get("Accept") == "" {
		pr.Out.Header.Set("Accept", "text/event-stream")
	}
}

func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}

// writeError answers with the JSON error body the app shows.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": msg}})
}
