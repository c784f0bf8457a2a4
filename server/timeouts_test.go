package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"

	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/server/demo"
	"stepwise/server/site"
	"stepwise/state"
)

// waitClosed reads from conn until the server closes it. It fails the test
// if the connection is still open after a minute (the server's timeouts
// here are well under a second).
func waitClosed(t *testing.T, conn net.Conn, what string) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	_, err := io.Copy(io.Discard, conn)
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		t.Fatalf("%s: the server never closed the connection", what)
	}
}

// TestTimeoutsCutSlowClientsNotStreams: a client that dribbles a request
// body and one that idles on a keep-alive connection are cut off (they
// would hold a file descriptor each, forever), while a WebSocket and an
// SSE stream opened before them outlive every timeout: served by the demo
// agent, or through the proxy to a backend (-backend).
func TestTimeoutsCutSlowClientsNotStreams(t *testing.T) {
	sc, err := demo.LoadScenarios("")
	require.NoError(t, err)
	agent, err := demo.Open(filepath.Join(t.TempDir(), "stepwise.db"), sc, demo.Options{})
	require.NoError(t, err)
	defer agent.Close()
	agent.Speed = 100
	t.Run("demo", func(t *testing.T) { checkTimeouts(t, sc, &demo.Handler{Agent: agent}, "td") })
	backend := httptest.NewServer(&demo.Handler{Agent: agent})
	defer backend.Close()
	proxy, err := site.BackendProxy(backend.URL)
	require.NoError(t, err)
	t.Run("proxy", func(t *testing.T) { checkTimeouts(t, sc, proxy, "tp") })
}

func checkTimeouts(t *testing.T, sc demo.Scenarios, api http.Handler, session string) {
	handler, err := site.New(site.Config{WebDir: fakeWeb(t), Scenarios: sc, API: api})
	require.NoError(t, err)
	const limit = 300 * time.Millisecond
	srv := newHTTPServer(handler, timeouts{ReadHeader: limit, Read: limit, Write: limit, Idle: limit})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The streams, first.
	ws, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String()+"/api/sessions/"+session+"/ws", nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(`{"type":"subscribe","session_id":"`+session+`"}`)))
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/sessions/"+session+"/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	sse, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer sse.Body.Close()

	// A body dribbled a byte at a time.
	dribbler, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer dribbler.Close()
	fmt.Fprintf(dribbler, "POST /api/sessions/%s/commands HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{", session, ln.Addr())
	go func() {
		for {
			if _, err := dribbler.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	// A keep-alive connection left idle after one request.
	idler, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer idler.Close()
	fmt.Fprintf(idler, "GET /api/sessions/%s/history HTTP/1.1\r\nHost: %s\r\n\r\n", session, ln.Addr())
	resp, err := http.ReadResponse(bufio.NewReader(idler), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotEqual(t, "close", resp.Header.Get("Connection"))

	waitClosed(t, dribbler, "a dribbled body")
	waitClosed(t, idler, "an idle keep-alive connection")

	// Every timeout has passed for the streams too: both still work.
	require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(`{"type":"user_message","content":"/parallel"}`)))
	st := state.New(state.DefaultOptions())
	for st.Status() != state.StatusIdle || len(st.Items()) < 2 {
		_, msg, err := ws.Read(ctx)
		require.NoError(t, err, "the WebSocket outlives the server's timeouts")
		st.ApplyJSON(msg)
	}
	sseStore := state.New(state.DefaultOptions())
	lines := bufio.NewScanner(sse.Body)
	lines.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for sseStore.LastEventID() != st.LastEventID() {
		require.True(t, lines.Scan(), "the SSE stream outlives the server's timeouts: %v", lines.Err())
		if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
			sseStore.ApplyJSON([]byte(data))
		}
	}
	assert.Equal(t, state.StatusIdle, sseStore.Status())
}
