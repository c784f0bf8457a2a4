package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"stepwise/server/sandbox"
	"stepwise/server/site"
)

// The MCP Apps sandbox proxy (server/sandbox, docs/mcp-apps.md) must be on
// another origin than the app. By default it is this server's second
// listener, on the port after -addr's; a deployment that serves it from a
// domain of its own (recommended: another site, so that the browser runs
// apps in another process) sets -sandbox-origin to that URL and routes it
// to -sandbox-addr.

// sandboxPlan is where the proxy listens and where pages find it.
type sandboxPlan struct {
	Addr string // "" for no listener of this server's
	// Origin is the proxy's URL for pages: a full URL, or ":PORT" for the
	// page's own host name on that port (the client's EnvSandbox).
	Origin string
	// FrameSrc are the page's CSP sources for it.
	FrameSrc []string
}

// planSandbox reads -sandbox-addr and -sandbox-origin ("off" in either
// turns apps' frames off).
func planSandbox(addr, sandboxAddr, sandboxOrigin string) (sandboxPlan, error) {
	if sandboxAddr == "off" || sandboxOrigin == "off" {
		return sandboxPlan{}, nil
	}
	p := sandboxPlan{Addr: sandboxAddr}
	if p.Addr == "" {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return p, fmt.Errorf("-addr %q: %v", addr, err)
		}
		n, err := strconv.Atoi(port)
		if err != nil {
			return p, fmt.Errorf("-addr %q: the port is not a number", addr)
		}
		if n != 0 {
			n++
		}
		p.Addr = net.JoinHostPort(host, strconv.Itoa(n))
	}
	if sandboxOrigin != "" {
		u, err := url.Parse(sandboxOrigin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return p, fmt.Errorf("-sandbox-origin %q is not an http(s) URL", sandboxOrigin)
		}
		if !strings.HasSuffix(sandboxOrigin, "/") {
			sandboxOrigin += "/"
		}
		p.Origin = sandboxOrigin
		p.FrameSrc = []string{u.Scheme + "://" + u.Host}
	}
	return p, nil
}

// listen opens the proxy's listener; the plan's Origin and FrameSrc then
// name its port when the deployment gave no origin.
func (p *sandboxPlan) listen() (net.Listener, error) {
	if p.Addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		return nil, fmt.Errorf("the MCP Apps sandbox (-sandbox-addr %s): %v", p.Addr, err)
	}
	if p.Origin == "" {
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		p.Origin = ":" + port
		p.FrameSrc = []string{"http://*:" + port, "https://*:" + port}
	}
	return ln, nil
}

// sandboxHandler serves the proxy to pages of the hosts the site answers to.
func sandboxHandler(allowedHosts, frameAncestors []string) http.Handler {
	return sandbox.New(sandbox.Config{
		HostAllowed:    func(host string) bool { return site.HostAllowed(host, allowedHosts) },
		FrameAncestors: frameAncestors,
	})
}
