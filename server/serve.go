package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	client "stepwise/app"
	"stepwise/server/agentproxy"
	"stepwise/server/demo"
	"stepwise/server/site"
)

// serve runs the web server until SIGINT or SIGTERM, then drains it.
func serve(args []string) int {
	fs := flag.NewFlagSet("stepwise", flag.ContinueOnError)
	addr := fs.String("addr", "localhost:8080", "listen `address`")
	webDir := fs.String("web", "web", "`directory` of app.wasm and the static assets")
	frameAncestors := fs.String("frame-ancestors", "", "space-separated `origins` allowed to embed the app (CSP frame-ancestors); '*' allows any")
	scenarioDir := fs.String("scenarios", "", "`directory` of extra scenario files (*.jsonl) for the demo agent")
	backend := fs.String("backend", "", "forward /api/ (history, WebSocket, SSE, commands) to this backend `URL` instead of the demo agent; with -protocol ag-ui or ai-sdk, the agent's or chat route's endpoint")
	protocol := fs.String("protocol", "stepwise", "what -backend speaks: stepwise (PROTOCOL.md), ag-ui (an AG-UI agent) or ai-sdk (an AI SDK chat route)")
	dataFile := fs.String("data", "stepwise.db", "the demo agent's data `file` (bbolt): its sessions survive restarts")
	maxAge := fs.Duration("max-age", demo.DefaultMaxAge, "delete a demo session unused this `long`")
	allowedHosts := fs.String("allowed-hosts", "", "comma-separated host `names` the server answers to besides IP addresses and localhost (*.example.com: its subdomains; *: any); -addr's name is one, and so is this machine's name when -addr is not loopback")
	setAside := fs.Bool("set-aside-damaged-data", false, "when the -data file is damaged, move it to FILE.damaged-TIME and start with an empty one")
	maxSessions := fs.Int("max-sessions", demo.DefaultMaxSessions, "the demo sessions the data file may hold; new ones are refused beyond (0: no limit)")
	sessionStreams := fs.Int("max-streams-per-session", demo.DefaultMaxStreamsPerSession, "open streams (WebSocket, SSE) one demo session may have (0: no limit)")
	clientStreams := fs.Int("max-streams-per-client", demo.DefaultMaxStreamsPerClient, "open demo streams one client (IP address) may have (0: no limit)")
	clientSessions := fs.Int("client-sessions-per-hour", demo.DefaultClientSessionsPerHour, "new demo sessions one client (IP address) may start per hour (0: no limit)")
	sandboxAddr := fs.String("sandbox-addr", "", "listen `address` of the MCP Apps sandbox proxy (default: -addr's port + 1; off: no apps)")
	sandboxOrigin := fs.String("sandbox-origin", "", "`URL` pages load the MCP Apps sandbox proxy from, when served on a domain of its own (routed to -sandbox-addr)")
	env := map[string]string{}
	clientSetting := func(name, key, usage string) {
		fs.Func(name, usage, func(v string) error { env[key] = v; return nil })
	}
	clientSetting("history-path", client.EnvHistoryPath, "history `path`; {session_id} is replaced (default /api/sessions/{session_id}/history)")
	clientSetting("ws-path", client.EnvWSPath, "WebSocket `path` (default /api/sessions/{session_id}/ws)")
	clientSetting("events-path", client.EnvEventsPath, "SSE `path` (default /api/sessions/{session_id}/events)")
	clientSetting("commands-path", client.EnvCommandsPath, "commands `path` for SSE (default /api/sessions/{session_id}/commands)")
	clientSetting("sessions-path", client.EnvSessionsPath, "`path` of the optional list of the caller's sessions, off for none (default /api/sessions)")
	clientSetting("transport", client.EnvTransport, "the pages' transport: ws or sse (default ws)")
	clientSetting("agent-name", client.EnvAgentName, "the agent `name` in the brand header (default Stepwise)")
	clientSetting("favicon-service", client.EnvFaviconService, "favicon `URL` for sources without one, {domain} replaced; off for none")
	deployFlags := addDeployFlags(fs)
	uploads := addUploadFlags(fs)
	feedback := addFeedbackFlag(fs)
	brand := addBrandFlags(fs)
	fs.Usage = usageWithEnv(fs, "Usage: stepwise [flags]\n       stepwise export [flags] DIR\n       stepwise healthcheck")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	unknownEnv, err := applyEnv(fs, os.Environ())
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 2
	}
	deploy, err := deployFlags.resolve(*backend != "", os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 2
	}
	slog.SetDefault(deploy.logger) // the log package's lines too
	for _, name := range unknownEnv {
		slog.Warn("ignored: the environment variable names no flag", "variable", name)
	}
	scenarios, err := demo.LoadScenarios(*scenarioDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 1
	}
	proto, err := agentproxy.ParseProtocol(*protocol)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 2
	}
	if proto != agentproxy.Stepwise && *backend == "" {
		fmt.Fprintln(os.Stderr, "stepwise: -protocol", proto, "needs -backend URL (the agent's endpoint)")
		return 2
	}
	if err := brand.apply(env); err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 2
	}
	env[client.EnvProtocol] = string(proto)
	uploads.pageEnv(env)
	feedback.pageEnv(env)
	var api http.Handler
	var health func() error
	if proto != agentproxy.Stepwise {
		if api, err = agentproxy.New(proto, *backend); err != nil {
			fmt.Fprintln(os.Stderr, "stepwise:", err)
			return 2
		}
	} else if *backend != "" {
		if api, err = site.BackendProxy(*backend); err != nil {
			fmt.Fprintln(os.Stderr, "stepwise:", err)
			return 2
		}
	} else {
		agent, err := demo.Open(*dataFile, scenarios, demo.Options{MaxAge: *maxAge, MaxSessions: *maxSessions,
			ClientSessionsPerHour: *clientSessions, SetAsideDamaged: *setAside, Uploads: uploads.limits()})
		var damaged *demo.DamagedError
		if errors.As(err, &damaged) {
			fmt.Fprintf(os.Stderr, "stepwise: %v\nIts conversations cannot be read. To start anew, keeping it aside as %s.damaged-TIME, run again with -set-aside-damaged-data.\n", err, damaged.Path)
			return 1
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "stepwise:", err)
			return 1
		}
		defer agent.Close()
		api = &demo.Handler{Agent: agent, MaxStreamsPerSession: *sessionStreams, MaxStreamsPerClient: *clientStreams, OriginPatterns: deploy.allowedOrigins}
		health = agent.Health
	}
	if *backend != "" {
		api = deploy.credentials.Wrap(api)
	}
	sandboxPlan, err := planSandbox(*addr, *sandboxAddr, *sandboxOrigin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 2
	}
	sandboxLn, err := sandboxPlan.listen()
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 1
	}
	if sandboxPlan.Origin != "" {
		env[client.EnvSandbox] = sandboxPlan.Origin
	}
	handler, err := site.New(site.Config{
		WebDir:         *webDir,
		FrameAncestors: strings.Fields(*frameAncestors),
		Scenarios:      scenarios,
		API:            api,
		Env:            env,
		AllowedHosts:   hostNames(*addr, *allowedHosts, os.Hostname),
		FrameSrc:       sandboxPlan.FrameSrc,
		BasePath:       deploy.basePath,
		AllowedOrigins: deploy.allowedOrigins,
		ConnectSrc:     feedback.connectSrc(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stepwise:", err)
		return 1
	}
	srv := newHTTPServer(deploy.front(health, handler), defaultTimeouts)
	// Shutdown does not wait for streams: they end with the base context.
	baseCtx, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	srv.BaseContext = func(net.Listener) context.Context { return baseCtx }
	srv.RegisterOnShutdown(endStreams)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if sandboxLn != nil {
		sandboxSrv := newHTTPServer(sandboxHandler(hostNames(*addr, *allowedHosts, os.Hostname), strings.Fields(*frameAncestors)), defaultTimeouts)
		defer sandboxSrv.Close()
		go func() { errc <- sandboxSrv.Serve(sandboxLn) }()
		slog.Info("stepwise: MCP Apps sandbox on http://" + sandboxLn.Addr().String())
	}
	slog.Info("stepwise: serving on http://"+ln.Addr().String()+deploy.basePath, deploy.startAttrs(*backend, proto)...)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "stepwise:", err)
			return 1
		}
	case <-ctx.Done():
		slog.Info("stepwise: shutting down")
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			fmt.Fprintln(os.Stderr, "stepwise: shutdown:", err)
			return 1
		}
	}
	return 0
}

// hostNames are the names the server answers to (site.Config.AllowedHosts)
// besides IP addresses and localhost: those of -allowed-hosts, -addr's
// name, and, when -addr listens beyond loopback (":8080", "0.0.0.0:8080", a
// LAN address), this machine's name, as a LAN visitor would type it
// (a page on a rebinding name never has this machine's name).
func hostNames(addr, flag string, hostname func() (string, error)) []string {
	var names []string
	for _, n := range strings.Split(flag, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip, ipErr := netip.ParseAddr(strings.Trim(host, "[]"))
	switch {
	case host == "localhost" || (ipErr == nil && ip.IsLoopback()):
		return names
	case host != "" && ipErr != nil:
		names = append(names, host)
	}
	if name, err := hostname(); err == nil && name != "" {
		names = append(names, name, name+".local")
	}
	return names
}

// timeouts are the server's connection timeouts.
type timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

// defaultTimeouts bound what a slow or idle client holds: a request must
// arrive within Read (its body included; commands are small), its answer
// leave within Write (app.wasm included, on a slow link), and a keep-alive
// connection goes after Idle. The streams (WebSocket, SSE) lift the read
// and write deadlines from their connection and bound each write instead.
var defaultTimeouts = timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 2 * time.Minute, Idle: 2 * time.Minute}

func newHTTPServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}
