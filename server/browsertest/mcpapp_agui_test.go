//go:build browser

package browsertest

// The official example app (@modelcontextprotocol/server-basic-vanillajs:
// its built app and its real MCP server) in Stepwise's AG-UI mode, behind
// the real @ag-ui/mcp-apps-middleware, as CopilotKit runs MCP Apps.

import (
	"bufio"
	"context"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	client "stepwise/app"
	"stepwise/server/agentproxy"
	"stepwise/server/site"
)

// startNode runs a Node program of testdata/mcpapps with env and waits
// for a line starting with ready.
func startNode(t *testing.T, env []string, ready string, args ...string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		skipWithoutAgents(t, "node is not installed (.ci/run installs it)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = mcpAppsDir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	up := make(chan struct{}, 1)
	go func() {
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), ready) {
				up <- struct{}{}
			}
		}
	}()
	select {
	case <-up:
	case <-time.After(60 * time.Second):
		t.Fatalf("%v did not start", args)
	}
}

// freePort is a port free at the time of asking.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func TestMCPAppExampleOverAGUIMiddleware(t *testing.T) {
	needMCPApps(t)
	mcpPort, agentPort := freePort(t), freePort(t)
	startNode(t, []string{"PORT=" + mcpPort}, "MCP server listening",
		"node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js")
	startNode(t, nil, "listening on", "agui-mcp-agent.mjs", "--port", agentPort, "--mcp", "http://127.0.0.1:"+mcpPort+"/mcp")
	api, err := agentproxy.New(agentproxy.AGUI, "http://127.0.0.1:"+agentPort+"/agent")
	if err != nil {
		t.Fatal(err)
	}
	h, err := site.New(site.Config{WebDir: "../../web", API: api, FrameSrc: []string{strings.TrimSuffix(sandboxURL, "/")},
		Env: map[string]string{client.EnvProtocol: string(agentproxy.AGUI), client.EnvSandbox: sandboxURL}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	p := newPage(t)
	// What the page opens is recorded, not loaded (no network here).
	p.addInitScript(`window.__opened = []; window.open = function (u, target, features) { window.__opened.push([String(u), String(target), String(features)]); return null; };`)
	p.openAt(srv.URL, "/?session=mcp-agui&lang=en")
	p.waitConnected()
	p.send("What time is it on the server?")
	p.waitJS(appSection+`?.dataset.phase === "ready"`, 60*time.Second, appSection+`?.dataset.phase`, appSection+`?.innerText`)
	iso := regexp.MustCompile(`^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$`)
	// The middleware's result reached the example app through the activity.
	p.waitApp(0, `return /^\d{4}-/.test(document.getElementById("server-time").textContent)`, 20*time.Second)
	first := p.inApp(0, `return document.getElementById("server-time").textContent`)
	if !iso.MatchString(first) {
		t.Fatalf("server time shown %s", first)
	}
	// The app's size reached the frame.
	p.waitJS(`parseInt(document.querySelector('.mcp-app-frame').style.height) > 150`, 10*time.Second,
		`document.querySelector('.mcp-app-frame').style.height`)

	// Its "Get Server Time" button calls get-time back through the
	// middleware's proxied request, on the real MCP server.
	time.Sleep(5 * time.Millisecond) // a new millisecond
	p.inApp(0, `document.getElementById("get-time-btn").click(); return true`)
	p.waitApp(0, `return document.getElementById("server-time").textContent !== `+first, 20*time.Second)
	if got := p.inApp(0, `return document.getElementById("server-time").textContent`); !iso.MatchString(got) {
		t.Fatalf("server time after the call back %s", got)
	}
	var requests []map[string]any
	getJSON(t, "http://127.0.0.1:"+agentPort+"/requests", &requests)
	proxied := map[string]int{}
	for _, r := range requests {
		if fp, ok := r["forwardedProps"].(map[string]any); ok {
			if req, ok := fp["__proxiedMCPRequest"].(map[string]any); ok {
				proxied[req["method"].(string)]++
				if req["serverId"] != "time" {
					t.Errorf("proxied request without its server: %v", req)
				}
			}
		}
	}
	if proxied["resources/read"] != 1 || proxied["tools/call"] != 1 {
		t.Fatalf("proxied requests %v", proxied)
	}

	// Its "Open Link": confirmed in Stepwise, then opened.
	p.inApp(0, `document.getElementById("link-url").value = "https://example.com/docs"; document.getElementById("open-link-btn").click(); return true`)
	p.waitJS(`document.querySelector('[data-testid="mcp-app-confirm-text"]')?.textContent === "https://example.com/docs"`, 10*time.Second)
	p.screenshot("mcpapp-agui-example-link")
	p.click(`[data-testid="mcp-app-allow"]`)
	p.waitJS(`window.__opened.length === 1`, 10*time.Second, `window.__opened`)
	if got := eval[string](p, `JSON.stringify(window.__opened[0])`); got != `["https://example.com/docs","_blank","noopener,noreferrer"]` {
		t.Fatalf("opened %s", got)
	}

	// Its "Send Message": confirmed, it is the person's next message.
	p.inApp(0, `document.getElementById("message-text").value = "Thanks, app"; document.getElementById("send-message-btn").click(); return true`)
	p.waitJS(`document.querySelector('[data-testid="mcp-app-confirm-text"]')?.textContent === "Thanks, app"`, 10*time.Second)
	p.click(`[data-testid="mcp-app-allow"]`)
	p.waitJS(`[...document.querySelectorAll('[data-kind="user"]')].some(u => u.textContent.includes("Thanks, app"))`, 20*time.Second)
	p.waitIdle()
	for _, theme := range []string{"light", "dark"} {
		p.screenshotSized("mcpapp-agui-example-"+theme+"-360", theme, 360)
	}
}
