package site

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// The WebSocket relay. A browser closes a WebSocket on a text frame that
// is not UTF-8 and the page reconnects, forever when the frame is in the
// backend's log; a byte-for-byte proxy would pass such a frame on. The
// relay ends the WebSocket here, opens one to the backend and passes
// messages between them, text made valid UTF-8 on the way to the page.

// Relay limits: a message to the page may be as large as the page reads
// (its transport's read limit); one from the page is a command.
const (
	relayToPageLimit    = 16 << 20
	relayFromPageLimit  = 1 << 20
	relayWriteTimeout   = 10 * time.Second
	relayForwardHeaders = "Cookie Authorization User-Agent Accept-Language"
)

var replacementChar = []byte(string(utf8.RuneError))

// isWebSocketUpgrade reports whether r asks for a WebSocket.
func isWebSocketUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket") &&
		strings.Contains(strings.ToLower(r.Header.Get("Connection")), "upgrade")
}

// relayWebSocket connects the page's WebSocket to the backend's at the same
// path. The backend sees the page's Host, Origin and cookies, as through
// the HTTP proxy, so its own origin check decides; its refusal is the
// page's.
func relayWebSocket(target *url.URL, w http.ResponseWriter, r *http.Request) {
	u := *target
	u.Scheme = map[string]string{"https": "wss"}[target.Scheme]
	if u.Scheme == "" {
		u.Scheme = "ws"
	}
	u.Path = strings.TrimSuffix(target.Path, "/") + r.URL.Path
	u.RawPath = ""
	if target.RawQuery != "" && r.URL.RawQuery != "" { // as httputil's proxy joins them
		u.RawQuery = target.RawQuery + "&" + r.URL.RawQuery
	} else {
		u.RawQuery = target.RawQuery + r.URL.RawQuery
	}
	header := http.Header{}
	for _, k := range strings.Fields(relayForwardHeaders) {
		if v := r.Header.Values(k); len(v) > 0 {
			header[k] = v
		}
	}
	if o := r.Header.Get("Origin"); o != "" {
		header.Set("Origin", o)
	}
	for k, v := range deploymentHeader(r) { // -backend-header (credentials.go)
		header[k] = append([]string(nil), v...)
	}
	var protocols []string
	for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				protocols = append(protocols, p)
			}
		}
	}
	dialCtx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	back, resp, err := websocket.Dial(dialCtx, u.String(), &websocket.DialOptions{
		HTTPHeader:   header,
		Host:         r.Host,
		Subprotocols: protocols,
	})
	cancel()
	if err != nil {
		status := http.StatusBadGateway
		if resp != nil && resp.StatusCode >= 400 {
			status = resp.StatusCode // the backend's refusal (a bad origin: 403)
		}
		http.Error(w, "the backend refused the WebSocket", status)
		return
	}
	defer back.CloseNow()
	for _, c := range resp.Header.Values("Set-Cookie") {
		w.Header().Add("Set-Cookie", c)
	}
	var accepted []string
	if p := back.Subprotocol(); p != "" {
		accepted = []string{p}
	}
	// The backend checked the origin with the page's own headers.
	page, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true, Subprotocols: accepted})
	if err != nil {
		return
	}
	defer page.CloseNow()
	page.SetReadLimit(relayFromPageLimit)
	back.SetReadLimit(relayToPageLimit)
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer stop()
		pass(ctx, page, back, false)
	}()
	pass(ctx, back, page, true)
	stop()
	<-done
}

// pass copies messages from one side to the other until either ends, then
// closes the other with the status the first gave. toPage makes text
// frames valid UTF-8.
func pass(ctx context.Context, from, to *websocket.Conn, toPage bool) {
	for {
		typ, msg, err := from.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			switch {
			case errors.As(err, &ce) && ce.Code >= websocket.StatusNormalClosure && ce.Code != websocket.StatusNoStatusRcvd &&
				ce.Code != websocket.StatusAbnormalClosure && ce.Code != websocket.StatusTLSHandshake:
				to.Close(ce.Code, ce.Reason)
			default:
				to.Close(websocket.StatusGoingAway, "")
			}
			return
		}
		if toPage && typ == websocket.MessageText && !utf8.Valid(msg) {
			msg = bytes.ToValidUTF8(msg, replacementChar)
		}
		wctx, cancel := context.WithTimeout(ctx, relayWriteTimeout)
		err = to.Write(wctx, typ, msg)
		cancel()
		if err != nil {
			from.Close(websocket.StatusGoingAway, "")
			return
		}
	}
}
