package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// browser is an HTTP client with its own cookie jar: one visitor.
type browser struct {
	t   *testing.T
	srv *httptest.Server
	c   *http.Client
}

func newBrowser(t *testing.T, srv *httptest.Server) *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &browser{t: t, srv: srv, c: &http.Client{Jar: jar}}
}

// send posts a message to session id (the SSE transport's commands) and
// waits for its run to end.
func (b *browser) send(a *Agent, id, text string) *http.Response {
	b.t.Helper()
	body, _ := json.Marshal(wire.NewUserMessage(id, text))
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/api/sessions/"+id+"/commands", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.c.Do(req)
	require.NoError(b.t, err)
	resp.Body.Close()
	require.Equal(b.t, http.StatusAccepted, resp.StatusCode)
	waitIdle(b.t, a, id)
	return resp
}

func (b *browser) list() wire.SessionList {
	b.t.Helper()
	resp, err := b.c.Get(b.srv.URL + "/api/sessions")
	require.NoError(b.t, err)
	defer resp.Body.Close()
	require.Equal(b.t, http.StatusOK, resp.StatusCode)
	assert.Equal(b.t, "no-store", resp.Header.Get("Cache-Control"))
	assert.Equal(b.t, "application/json", resp.Header.Get("Content-Type"))
	var l wire.SessionList
	require.NoError(b.t, json.NewDecoder(resp.Body).Decode(&l))
	require.NotNil(b.t, l.Sessions, `"sessions" is an array, never null`)
	return l
}

func (b *browser) unlist(id string) int {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, b.srv.URL+"/api/sessions/"+id, nil)
	resp, err := b.c.Do(req)
	require.NoError(b.t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func ids(l wire.SessionList) []string {
	out := []string{}
	for _, s := range l.Sessions {
		out = append(out, s.ID)
	}
	return out
}

// waitIdle waits until session id's run has ended and is stored.
func waitIdle(t *testing.T, a *Agent, id string) {
	t.Helper()
	s, err := a.Attach(id)
	require.NoError(t, err)
	defer s.Detach()
	settle(t, s)
}

// Two visitors never see each other's sessions, even one they both wrote
// in (a shared link); a request without the cookie sees none.
func TestListShowsOnlyTheOwnersSessions(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	alice, bob := newBrowser(t, srv), newBrowser(t, srv)
	alice.send(a, "a1", "/error")
	alice.send(a, "a2", "  Plan   my\ttrip\nto Hue ")
	bob.send(a, "b1", "/error")
	bob.send(a, "a1", "/error") // Bob was given a1's link and wrote in it: still Alice's

	assert.ElementsMatch(t, []string{"a1", "a2"}, ids(alice.list()))
	assert.Equal(t, []string{"b1"}, ids(bob.list()))
	for _, s := range alice.list().Sessions {
		if s.ID == "a2" {
			assert.Equal(t, "Plan my trip", s.Title, "the title is the sidebar's: first line, spaces collapsed")
		}
	}

	resp, err := http.Get(srv.URL + "/api/sessions")
	require.NoError(t, err)
	var none wire.SessionList
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&none))
	resp.Body.Close()
	assert.Empty(t, none.Sessions, "no cookie: no sessions")
	assert.Empty(t, resp.Header.Values("Set-Cookie"), "listing creates no owner")

	// A forged cookie (not one the server gave) is nobody's.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/sessions", nil)
	req.AddCookie(&http.Cookie{Name: OwnerCookie, Value: "not-a-token"})
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&none))
	resp.Body.Close()
	assert.Empty(t, none.Sessions)

	// Sessions created without a cookie (Handle, a non-browser client
	// that keeps no cookie) are listed for nobody.
	s := attach(t, a, "anon")
	require.NoError(t, a.Handle(s, message("/error")))
	settle(t, s)
	assert.NotContains(t, ids(alice.list()), "anon")
	assert.NotContains(t, ids(bob.list()), "anon")
}

// The cookie: random, HttpOnly, SameSite=Strict, Path=/, long-lived,
// set by the commands POST and the WebSocket upgrade, kept once given.
func TestOwnerCookieAttributes(t *testing.T) {
	a := newTestAgent(t)
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	b := newBrowser(t, srv)
	resp := b.send(a, "c1", "/error")
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	c := cookies[0]
	assert.Equal(t, OwnerCookie, c.Name)
	assert.Regexp(t, `^[0-9a-f]{32}$`, c.Value, "128 random bits")
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	assert.Equal(t, "/", c.Path)
	assert.Equal(t, int(ownerCookieMaxAge/time.Second), c.MaxAge)
	assert.False(t, c.Secure, "plain HTTP: a Secure cookie would be dropped")
	raw := resp.Header.Get("Set-Cookie")
	assert.Contains(t, raw, "HttpOnly")
	assert.Contains(t, raw, "SameSite=Strict")

	// Kept: the next request renews the same cookie.
	again := b.send(a, "c2", "/error").Cookies()
	require.Len(t, again, 1)
	assert.Equal(t, c.Value, again[0].Value)
	assert.ElementsMatch(t, []string{"c1", "c2"}, ids(b.list()))

	// Another visitor gets another cookie.
	other := newBrowser(t, srv).send(a, "c3", "/error").Cookies()
	require.Len(t, other, 1)
	assert.NotEqual(t, c.Value, other[0].Value)

	// The WebSocket upgrade sets it too, and the connection's first
	// message makes the session the cookie's.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, up, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/sessions/w1/ws", nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	var wsCookie *http.Cookie
	for _, c := range up.Cookies() {
		if c.Name == OwnerCookie {
			wsCookie = c
		}
	}
	require.NotNil(t, wsCookie, "the 101 response sets the cookie")
	assert.True(t, wsCookie.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, wsCookie.SameSite)
	wsSend(t, ctx, ws, `{"type":"user_message","session_id":"w1","command_id":"m1","content":"/error"}`)
	for {
		if m := wsRead(t, ctx, ws); m["type"] == "command_result" {
			assert.Equal(t, true, m["ok"])
			break
		}
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/sessions", nil)
	req.AddCookie(&http.Cookie{Name: OwnerCookie, Value: wsCookie.Value})
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	var l wire.SessionList
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&l))
	resp.Body.Close()
	assert.Equal(t, []string{"w1"}, ids(l))

	// Over HTTPS (here behind a proxy) the cookie is Secure.
	r := httptest.NewRequest(http.MethodPost, "/api/sessions/x/commands", nil)
	r.Header.Set("X-Forwarded-Proto", "https")
	w := httptest.NewRecorder()
	claimOwner(w, r)
	assert.Contains(t, w.Header().Get("Set-Cookie"), "Secure")
}

// A browser gets its cookie with its first page, before its app connects:
// two tabs opened at once then connect with the one the browser kept. A
// browser that has one keeps it.
func TestOwnerCookieComesWithTheFirstPage(t *testing.T) {
	h := &Handler{}
	first := httptest.NewRequest(http.MethodGet, "/", nil)
	header := http.Header{"Cache-Control": {"no-cache"}}
	h.PageHeader(header, first)
	resp := http.Response{Header: header}
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	c := cookies[0]
	assert.Equal(t, OwnerCookie, c.Name)
	assert.True(t, validOwnerToken(c.Value))
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	assert.Equal(t, "/", c.Path)
	assert.Equal(t, int(ownerCookieMaxAge/time.Second), c.MaxAge)
	assert.Equal(t, "private, no-cache", header.Get("Cache-Control"), "one browser's cookie: no shared cache keeps it")

	// Its app's WebSocket upgrade comes with it and keeps it: what it
	// creates is listed for that cookie.
	up := httptest.NewRequest(http.MethodGet, "/api/sessions/s1/ws", nil)
	up.AddCookie(c)
	w := httptest.NewRecorder()
	assert.Equal(t, ownerHash(c.Value), claimOwner(w, up))
	assert.Contains(t, w.Header().Get("Set-Cookie"), OwnerCookie+"="+c.Value+";")

	// The next page of a browser with a cookie sets nothing.
	next := httptest.NewRequest(http.MethodGet, "/", nil)
	next.AddCookie(c)
	header = http.Header{"Cache-Control": {"no-cache"}}
	h.PageHeader(header, next)
	assert.Empty(t, header.Values("Set-Cookie"))
	assert.Equal(t, "no-cache", header.Get("Cache-Control"))

	// A browser from before the cookie's path was / has one for /api: its
	// first page gets a new one for /, and the browser sends both to the
	// API, the longer path first. Its upgrade keeps the old one, so its
	// conversations stay listed, and sets it for / as well.
	old := newOwnerToken()
	both := httptest.NewRequest(http.MethodGet, "/api/sessions/s1/ws", nil)
	both.Header.Set("Cookie", OwnerCookie+"="+old+"; "+OwnerCookie+"="+newOwnerToken())
	w = httptest.NewRecorder()
	assert.Equal(t, ownerHash(old), claimOwner(w, both))
	assert.Contains(t, w.Header().Get("Set-Cookie"), OwnerCookie+"="+old+"; Path=/;")

	// One whose cookie is not a token gets a new one.
	bad := httptest.NewRequest(http.MethodGet, "/", nil)
	bad.AddCookie(&http.Cookie{Name: OwnerCookie, Value: "not-a-token"})
	header = http.Header{}
	h.PageHeader(header, bad)
	resp = http.Response{Header: header}
	require.Len(t, resp.Cookies(), 1)
	assert.True(t, validOwnerToken(resp.Cookies()[0].Value))
}

// Newest first by the last message; a run in progress says so; the
// times and titles survive a restart.
func TestListOrderAndRunning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{})
	start := time.Now().Truncate(time.Millisecond)
	at := func(d time.Duration) { a.now = func() time.Time { return start.Add(d) } }
	owner := ownerHash(newOwnerToken())
	send := func(id, text string) {
		s, err := a.Attach(id)
		require.NoError(t, err)
		require.NoError(t, a.HandleFrom(s, Caller{Owner: owner}, message(text)))
		if text != "/gated" {
			settle(t, s)
		}
		s.Detach()
	}
	at(0)
	send("first", "first message")
	at(time.Hour)
	send("second", "/error")
	at(2 * time.Hour)
	send("third", "/error")
	at(3 * time.Hour)
	send("first", "/error") // written in again: it comes first

	l, err := a.List(owner)
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "third", "second"}, ids(l))
	assert.Equal(t, "first message", l.Sessions[0].Title, "the title is the first message, not the last")
	assert.True(t, l.Sessions[0].CreatedAt.Equal(start))
	assert.True(t, l.Sessions[0].UpdatedAt.Equal(start.Add(3*time.Hour)))
	assert.False(t, l.Sessions[0].Running)

	at(4 * time.Hour)
	send("gated", "/gated")
	require.Eventually(t, func() bool {
		l, _ := a.List(owner)
		return len(l.Sessions) == 4 && l.Sessions[0].ID == "gated" && l.Sessions[0].Running
	}, 10*time.Second, 5*time.Millisecond, "a run at its gate is running")
	a.Release("gated")
	waitIdle(t, a, "gated")
	require.NoError(t, a.Close())

	b := openAgent(t, path, Options{})
	l2, err := b.List(owner)
	require.NoError(t, err)
	assert.Equal(t, []string{"gated", "first", "third", "second"}, ids(l2))
	assert.Equal(t, "first message", l2.Sessions[1].Title)
	assert.False(t, l2.Sessions[0].Running)
}

// Expired sessions leave the list (named gone while their tombstone
// lasts); a DELETE takes a session off its owner's list only.
func TestListDropsExpiredAndUnlisted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a := openAgent(t, path, Options{MaxAge: 24 * time.Hour})
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	alice, bob := newBrowser(t, srv), newBrowser(t, srv)
	for _, id := range []string{"old", "kept", "forgotten"} {
		alice.send(a, id, "/error")
	}
	start := time.Now()
	a.now = func() time.Time { return start.Add(20 * time.Hour) }
	for _, id := range []string{"kept", "forgotten"} {
		s, err := a.Attach(id) // used again: not expired
		require.NoError(t, err)
		s.Detach()
	}
	require.Eventually(t, func() bool {
		m, _, _ := readMeta(a.db, "kept")
		m2, _, _ := readMeta(a.db, "forgotten")
		return m.Used >= start.Add(20*time.Hour).Unix() && m2.Used >= start.Add(20*time.Hour).Unix()
	}, 10*time.Second, 5*time.Millisecond)
	a.now = func() time.Time { return start.Add(30 * time.Hour) }
	n, err := a.sweep()
	require.NoError(t, err)
	require.Equal(t, 1, n)
	l := alice.list()
	assert.ElementsMatch(t, []string{"kept", "forgotten"}, ids(l))
	assert.Equal(t, []string{"old"}, l.Gone)

	// Bob cannot take Alice's sessions off her list; she can.
	assert.Equal(t, http.StatusNoContent, bob.unlist("forgotten"))
	assert.ElementsMatch(t, []string{"kept", "forgotten"}, ids(alice.list()))
	assert.Equal(t, http.StatusNoContent, alice.unlist("forgotten"))
	assert.Equal(t, []string{"kept"}, ids(alice.list()))
	assert.NotEmpty(t, mustEvents(t, a, "forgotten"), "the session stays for whoever holds its id")
	// Writing in it again does not put it back (it is nobody's now).
	alice.send(a, "forgotten", "/error")
	assert.Equal(t, []string{"kept"}, ids(alice.list()))
	// A gone one leaves the gone list when she forgets it.
	assert.Equal(t, http.StatusNoContent, alice.unlist("old"))
	assert.Empty(t, alice.list().Gone)

	// The id of the expired session starts over, for whoever writes first.
	bob.send(a, "kept2", "/error")
	a.now = func() time.Time { return start.Add(31 * time.Hour) }
	bob.send(a, "old", "/error")
	assert.ElementsMatch(t, []string{"old", "kept2"}, ids(bob.list()))
	assert.Equal(t, []string{"kept"}, ids(alice.list()))

	// The list's tombstones go with the data file's.
	a.now = func() time.Time { return start.Add(60 * time.Hour) }
	s, err := a.Attach("kept2") // keep one of Bob's
	require.NoError(t, err)
	s.Detach()
	require.Eventually(t, func() bool {
		m, _, _ := readMeta(a.db, "kept2")
		return m.Used >= start.Add(60*time.Hour).Unix()
	}, 10*time.Second, 5*time.Millisecond)
	n, err = a.sweep() // kept, forgotten (nobody's) and old expire
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, []string{"kept"}, alice.list().Gone)
	assert.Empty(t, alice.list().Sessions)
	assert.Equal(t, []string{"old"}, bob.list().Gone)
	assert.Equal(t, []string{"kept2"}, ids(bob.list()))
	a.now = func() time.Time { return start.Add(100 * time.Hour) }
	_, err = a.sweep()
	require.NoError(t, err)
	assert.Empty(t, alice.list().Gone)
	assert.Equal(t, []string{"kept2"}, bob.list().Gone)
}

// The endpoint's methods.
func TestListMethods(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	for _, m := range []string{http.MethodPost, http.MethodDelete, http.MethodPut} {
		req, _ := http.NewRequest(m, srv.URL+"/api/sessions", nil)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, m)
		assert.Equal(t, "GET", resp.Header.Get("Allow"))
	}
	resp, err := http.Get(srv.URL + "/api/sessions/s1")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/api/sessions/s1", nil)
	req.Header.Set("Origin", "https://evil.example")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "another site's page cannot unlist")
	req, _ = http.NewRequest(http.MethodDelete, srv.URL+"/api/sessions/s%2F1", nil)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// The list is read from the data file: a history read or a connection
// creates nothing in it.
func TestListIgnoresSessionsWithoutMessages(t *testing.T) {
	a := newTestAgent(t)
	owner := ownerHash(newOwnerToken())
	s := attach(t, a, "empty")
	require.NoError(t, a.HandleFrom(s, Caller{Owner: owner}, frame(`{"type":"stop"}`)))
	l, err := a.List(owner)
	require.NoError(t, err)
	assert.Empty(t, l.Sessions)
}
