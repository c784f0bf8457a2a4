package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"stepwise/server/agentproxy"
	"stepwise/server/site"
)

// deployFlags are the flags of running Stepwise in production
// (docs/deploy.md): under a path, in front of a backend that wants
// credentials, for a static build on another origin, with logs a
// collector reads.
type deployFlags struct {
	basePath           string
	backendHeaders     headerFlag
	forwardCredentials string
	allowedOrigins     string
	logFormat          string
}

func addDeployFlags(fs *flag.FlagSet) *deployFlags {
	d := &deployFlags{}
	fs.StringVar(&d.basePath, "base-path", "", "serve the app under this `path` (/chat/), behind a reverse proxy that keeps the prefix")
	fs.Var(&d.backendHeaders, "backend-header", "`\"Name: value\"` set on every request proxied to -backend (repeatable; never sent to the browser, never logged)")
	fs.StringVar(&d.forwardCredentials, "forward-credentials", "", "the visitor's own `credentials` passed on to -backend: cookie, authorization or both (default none)")
	fs.StringVar(&d.allowedOrigins, "allowed-origins", "", "other `origins` whose pages may call /api/ (CORS), such as a static build's (stepwise export)")
	fs.StringVar(&d.logFormat, "log-format", "text", "log `format`: text or json")
	return d
}

// deployment is what the deploy flags resolve to.
type deployment struct {
	basePath       string
	credentials    site.BackendCredentials
	allowedOrigins []string
	logger         *slog.Logger
}

// resolve checks the flags; backend tells whether -backend is set (the
// credentials need one).
func (d *deployFlags) resolve(backend bool, logOut io.Writer) (deployment, error) {
	var out deployment
	var err error
	if out.basePath, err = site.NormalizeBasePath(d.basePath); err != nil {
		return out, err
	}
	if out.allowedOrigins, err = site.ParseOrigins(d.allowedOrigins); err != nil {
		return out, fmt.Errorf("-allowed-origins: %w", err)
	}
	if out.logger, err = newLogger(d.logFormat, logOut); err != nil {
		return out, err
	}
	if d.backendHeaders.err != nil {
		return out, d.backendHeaders.err
	}
	out.credentials.Header = d.backendHeaders.header
	for _, c := range strings.FieldsFunc(strings.ToLower(d.forwardCredentials), func(r rune) bool { return r == ',' || r == ' ' }) {
		switch c {
		case "cookie":
			out.credentials.ForwardCookie = true
		case "authorization":
			out.credentials.ForwardAuthorization = true
		case "none":
		default:
			return out, fmt.Errorf("-forward-credentials %q: want cookie, authorization, or both separated by a comma", c)
		}
	}
	if err := out.credentials.Check(); err != nil {
		return out, err
	}
	if !backend && (len(out.credentials.Header) > 0 || out.credentials.ForwardCookie || out.credentials.ForwardAuthorization) {
		return out, fmt.Errorf("-backend-header and -forward-credentials are for a -backend: the demo agent takes no credentials")
	}
	return out, nil
}

// front puts the server's own paths and its request log in front of the
// site: /healthz, at the root and below the base path.
func (d deployment) front(health func() error, next http.Handler) http.Handler {
	hz := healthz(d.logger, health)
	mux := http.NewServeMux()
	mux.Handle("/", next)
	mux.Handle("/healthz", hz)
	if d.basePath != "" {
		mux.Handle(d.basePath+"/healthz", hz)
	}
	return logRequests(d.logger, mux)
}

// headerFlag is -backend-header: repeatable, "Name: value" each. A bad
// value is kept as an error for resolve to report, not returned by Set:
// the flag package would quote the value, which may be a secret, in its
// message.
type headerFlag struct {
	header http.Header
	err    error
}

func (*headerFlag) repeatable() {}

// String names the headers, never their values (flag's usage prints it).
func (h *headerFlag) String() string {
	if h == nil || len(h.header) == 0 {
		return ""
	}
	names := make([]string, 0, len(h.header))
	for k := range h.header {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func (h *headerFlag) Set(s string) error {
	name, value, err := site.ParseHeader(s)
	if err != nil {
		if h.err == nil {
			h.err = fmt.Errorf("-backend-header (or %s): %w", envName("backend-header"), err)
		}
		return nil
	}
	if h.header == nil {
		h.header = http.Header{}
	}
	h.header.Add(name, value)
	return nil
}

// newLogger is the server's logger on w: text (slog's key=value lines) or
// JSON, one object a line.
func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("-log-format %q: want text or json", format)
}

// healthz answers a container's or load balancer's probe, without auth:
// 200 "ok" when the server can serve (for the demo agent, when its data
// file takes a write), else 503 with a short reason; the details go to
// the log.
func healthz(logger *slog.Logger, health func() error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "use GET", http.StatusMethodNotAllowed)
			return
		}
		if health != nil {
			if err := health(); err != nil {
				logger.Error("health check failed", "err", err)
				http.Error(w, "unavailable: the demo agent's data file takes no writes", http.StatusServiceUnavailable)
				return
			}
		}
		io.WriteString(w, "ok\n")
	})
}

// logRequests logs one line per request once it is answered (a stream's
// when it ends): method, path, status, bytes and duration. Never a query
// string's values (a token may travel there; its keys are logged), a
// header or a body: no message's text reaches the log. The probes of
// /healthz are not logged.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if strings.HasSuffix(r.URL.Path, "/healthz") && rec.status == http.StatusOK {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
		}
		if keys := queryKeys(r.URL.RawQuery); keys != "" {
			attrs = append(attrs, slog.String("query", keys))
		}
		attrs = append(attrs,
			slog.Int("status", rec.code()),
			slog.Int64("bytes", rec.bytes),
			slog.Duration("duration", time.Since(start)),
		)
		logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// queryKeys lists a query's keys, comma-separated, without their values.
func queryKeys(raw string) string {
	if raw == "" {
		return ""
	}
	var keys []string
	for _, kv := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if k == "" || strings.ContainsAny(k, "%+") { // an escaped key could hold anything: none of the app's are
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// statusRecorder notes a response's status and size for the log. It keeps
// what the handlers behind need of the writer: Flush (SSE), Hijack
// (WebSocket) and Unwrap (http.ResponseController's deadlines).
type statusRecorder struct {
	http.ResponseWriter
	status   int
	bytes    int64
	hijacked bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 || s.status < 200 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

func (s *statusRecorder) Flush() { http.NewResponseController(s.ResponseWriter).Flush() }

func (s *statusRecorder) Hijack() (c net.Conn, rw *bufio.ReadWriter, err error) {
	c, rw, err = http.NewResponseController(s.ResponseWriter).Hijack()
	if err == nil {
		s.hijacked = true
	}
	return c, rw, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// code is the status the client got: a hijacked connection switched
// protocols (a WebSocket), an answer without WriteHeader is 200.
func (s *statusRecorder) code() int {
	switch {
	case s.hijacked && (s.status == 0 || s.status == http.StatusSwitchingProtocols):
		return http.StatusSwitchingProtocols
	case s.status == 0:
		return http.StatusOK
	}
	return s.status
}

// startAttrs describe the deployment in the start-up line: the backend's
// URL without user info or query, the names of the headers set for it
// (never their values), what is forwarded.
func (d deployment) startAttrs(backend string, proto agentproxy.Protocol) []any {
	var attrs []any
	if backend == "" {
		attrs = append(attrs, "agent", "demo")
	} else {
		shown := "(not a URL)"
		if u, err := url.Parse(backend); err == nil {
			u.User, u.RawQuery, u.Fragment = nil, "", ""
			shown = u.String()
		}
		attrs = append(attrs, "backend", shown, "protocol", string(proto))
		if names := (&headerFlag{header: d.credentials.Header}).String(); names != "" {
			attrs = append(attrs, "backend_headers", names)
		}
		var fwd []string
		if d.credentials.ForwardCookie {
			fwd = append(fwd, "cookie")
		}
		if d.credentials.ForwardAuthorization {
			fwd = append(fwd, "authorization")
		}
		if len(fwd) > 0 {
			attrs = append(attrs, "forward_credentials", strings.Join(fwd, ","))
		}
	}
	if len(d.allowedOrigins) > 0 {
		attrs = append(attrs, "allowed_origins", strings.Join(d.allowedOrigins, " "))
	}
	return attrs
}
