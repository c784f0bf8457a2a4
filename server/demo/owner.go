package demo

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// Owners. A session id is a bearer capability: whoever holds it can read
// the session. A list of sessions must therefore show a visitor only the
// sessions they created, never another's. The demo agent tells browsers
// apart by an owner cookie: 128 random bits, HttpOnly (no script reads
// it), SameSite=Strict (no other site's page sends it), Path=/ (the
// pages must see it to know the browser has one, below). A
// session records the hash of the cookie of the request that created it
// (a leaked data file holds no cookie); GET /api/sessions lists the
// sessions whose owner is the hash of the caller's cookie, and a request
// without one gets an empty list.
//
// The cookie is set by the responses of the requests that can create a
// session: the WebSocket upgrade and the commands POST. A request that
// comes without one gets a new one, which owns what that same request
// creates (the first message of a new browser is listed too). A browser
// gets it earlier still, with its first page (Handler.PageHeader): two tabs
// opened at once on a first visit would otherwise each upgrade their
// WebSocket without a cookie, each get one of its own, and the browser
// keep only the last, leaving the other tab's conversations listed for
// nobody. Their pages' requests can race the same way, but they come
// long before either app connects, and both connect with the cookie the
// browser kept. A page on
// another site that frames the app (the embed) sends no SameSite=Strict
// cookie, and its browser drops the one set: what it creates is listed for
// nobody, and the embed keeps its list in the browser alone.

// OwnerCookie is the name of the owner cookie.
const OwnerCookie = "stepwise_owner"

// ownerCookieMaxAge is how long a browser keeps the cookie after its last
// use: the longest Chromium allows (400 days); each use renews it.
const ownerCookieMaxAge = 400 * 24 * time.Hour

// OwnerOf returns the owner of the request (the hash of its owner cookie),
// or "" when it has no valid one.
func OwnerOf(r *http.Request) string {
	c, err := r.Cookie(OwnerCookie)
	if err != nil || !validOwnerToken(c.Value) {
		return ""
	}
	return ownerHash(c.Value)
}

// claimOwner returns the request's owner, making a new one when it has
// none, and (re)sets the cookie on w: call it before the response's
// header is written.
func claimOwner(w http.ResponseWriter, r *http.Request) string {
	token := ""
	if c, err := r.Cookie(OwnerCookie); err == nil && validOwnerToken(c.Value) {
		token = c.Value
	} else {
		token = newOwnerToken()
	}
	http.SetCookie(w, ownerCookie(r, token))
	return ownerHash(token)
}

// PageHeader gives a browser that has no owner cookie one with a page (the
// site calls it for each page it serves). That response is one browser's:
// no shared cache may keep it.
func (h *Handler) PageHeader(header http.Header, r *http.Request) {
	if OwnerOf(r) != "" {
		return
	}
	header.Add("Set-Cookie", ownerCookie(r, newOwnerToken()).String())
	header.Set("Cache-Control", "private, no-cache")
}

// ownerCookie is the Set-Cookie of token.
func ownerCookie(r *http.Request, token string) *http.Cookie {
	return &http.Cookie{
		Name:     OwnerCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   int(ownerCookieMaxAge / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		// Secure over HTTPS (here, or at a proxy in front); a browser
		// drops a Secure cookie set over plain HTTP.
		Secure: r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"),
	}
}

func newOwnerToken() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go 1.24)
	return hex.EncodeToString(b[:])
}

// validOwnerToken: 32 lowercase hex digits, as newOwnerToken makes.
func validOwnerToken(v string) bool {
	if len(v) != 32 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func ownerHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
