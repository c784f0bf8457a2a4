package demo

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// Limits on new sessions. A session comes to exist with its first message;
// one anonymous client could otherwise fill the data file with thousands.
// A client is its network address (an IPv6 address by its /64, which one
// machine commonly holds whole): behind a reverse proxy every visitor is
// the proxy, and the per-client limit is to be raised there or lifted.

// Default limits, for the server's flags (Options' zero values lift them).
const (
	DefaultMaxSessions           = 10_000
	DefaultClientSessionsPerHour = 60
)

// ErrTooManySessions refuses a new session over a limit.
var ErrTooManySessions = errors.New("too many sessions")

// limitError says which limit refused a new session, for the reader.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return ErrTooManySessions }

// Caller is who sends a frame: Owner is whom a session it creates is
// listed for (OwnerOf), Client what the limits count (ClientOf).
type Caller struct {
	Owner  string
	Client string
}

// ClientOf returns the client a request comes from: its address, an IPv6
// one cut to its /64.
func ClientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// maxTrackedClients bounds the table of clients' new sessions; a client
// whose allowance is whole again needs no entry.
const maxTrackedClients = 100_000

// sessionLimits counts sessions overall and new sessions per client: each
// client has an allowance of perHour sessions that refills evenly over an
// hour (a token bucket). Guarded by Agent.lmu, a lock taken last.
type sessionLimits struct {
	max     int // sessions the data file may hold; 0: no limit
	perHour int // new sessions per client per hour; 0: no limit
	live    int // sessions in the data file, or started in memory
	clients map[string]*allowance
}

type allowance struct {
	left float64 // sessions the client may start now
	at   time.Time
}

// refill brings a client's allowance to now.
func (l *sessionLimits) refill(al *allowance, now time.Time) {
	if d := now.Sub(al.at); d > 0 {
		al.left = math.Min(float64(l.perHour), al.left+d.Hours()*float64(l.perHour))
	}
	al.at = now
}

// take counts a new session of client, or says which limit refuses it.
func (l *sessionLimits) take(client string, now time.Time) error {
	if l.max > 0 && l.live >= l.max {
		return &limitError{fmt.Sprintf("This server holds as many conversations as it may (%d): continue one you have, or try again later.", l.max)}
	}
	if l.perHour > 0 {
		al := l.clients[client]
		if al == nil {
			if len(l.clients) >= maxTrackedClients {
				l.forgetRefilled(now)
			}
			if len(l.clients) >= maxTrackedClients {
				return &limitError{"This server is starting too many conversations right now: try again in a few minutes."}
			}
			al = &allowance{left: float64(l.perHour), at: now}
			if l.clients == nil {
				l.clients = map[string]*allowance{}
			}
			l.clients[client] = al
		}
		l.refill(al, now)
		if al.left < 1 {
			wait := time.Duration((1 - al.left) / float64(l.perHour) * float64(time.Hour))
			minutes := int(math.Ceil(wait.Minutes()))
			return &limitError{fmt.Sprintf("You have started too many conversations (%d an hour at most): try again in %d minute(s), or continue one you have.", l.perHour, minutes)}
		}
		al.left--
	}
	l.live++
	return nil
}

// forgetRefilled drops the clients whose allowance is whole again.
func (l *sessionLimits) forgetRefilled(now time.Time) {
	for c, al := range l.clients {
		if l.refill(al, now); al.left >= float64(l.perHour) {
			delete(l.clients, c)
		}
	}
}

// takeSession counts a new session of client. The caller may hold s.mu.
func (a *Agent) takeSession(client string) error {
	a.lmu.Lock()
	defer a.lmu.Unlock()
	return a.limits.take(client, a.now())
}

// sessionsGone uncounts n sessions (expired, or never stored).
func (a *Agent) sessionsGone(n int) {
	a.lmu.Lock()
	defer a.lmu.Unlock()
	a.limits.live = max(0, a.limits.live-n)
}
