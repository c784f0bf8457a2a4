//go:build browser

package browsertest

// Stepwise in front of the real AG-UI and AI SDK backends
// (testdata/agents), driven from headless Chromium: a whole turn, an
// approval answered (asserted on the library's side), a reload in the
// middle of a run, a stop, a second turn carrying the first one's
// messages; and bad backends, each ending with a clear message.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	client "stepwise/app"
	"stepwise/server/agentproxy"
	"stepwise/server/site"
	"stepwise/state/wire"
)

// agentSite serves the app in front of an AG-UI or AI SDK endpoint, as
// `stepwise -protocol P -backend ENDPOINT` does.
func agentSite(t *testing.T, p agentproxy.Protocol, endpoint string) string {
	t.Helper()
	api, err := agentproxy.New(p, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	h, err := site.New(site.Config{WebDir: "../../web", API: api, Env: map[string]string{client.EnvProtocol: string(p)}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// lastText is the text of the conversation's last text item.
// lastText is the newest text item's words, without its copy buttons.
const lastText = `(a => { if (!a.length) return ""; const e = a[a.length-1].cloneNode(true); e.querySelectorAll('.answer-actions, .md-code-head').forEach(x => x.remove()); return e.textContent })(document.querySelectorAll('[data-kind="text"]'))`

func (p *page) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

func (p *page) waitIdle() {
	p.t.Helper()
	p.waitJS(agentStatus+` !== "running"`, 60*time.Second)
}

func countKind(kind string) string {
	return `document.querySelectorAll('[data-kind="` + kind + `"]').length`
}

func TestAISDKRouteInTheBrowser(t *testing.T) {
	for _, v := range aiVersions {
		t.Run("ai"+v, func(t *testing.T) { testAISDKRouteInTheBrowser(t, v) })
	}
}

func testAISDKRouteInTheBrowser(t *testing.T, major string) {
	backend := startAISDKServer(t, major)
	base := agentSite(t, agentproxy.AISDK, backend+"/api/chat")
	p := newPage(t)
	p.openAt(base, "/?session=aisdk-browser-"+major+"&lang=en")
	p.waitConnected()

	// A whole turn: reasoning and a tool in a group, a source, the answer.
	p.send("What is the weather in Hanoi?")
	p.waitJS(lastText+`.includes("31 degrees")`, 60*time.Second)
	p.waitIdle()
	p.waitJS(`document.querySelector('[data-kind="group"] [data-kind="tool"][data-status="done"]') !== null`, 10*time.Second)
	v := p.view()
	kinds := itemKinds(v)
	if strings.Join(kinds, ",") != "user,group,text" {
		t.Fatalf("items %v", kinds)
	}
	if n := len(v["sources"].([]any)); n != 1 {
		t.Fatalf("%d source groups", n)
	}
	// The conversation is in the sidebar's list, titled by its first
	// message, as the demo agent's are.
	p.waitJS(`[...document.querySelectorAll('[data-testid="conversation-link"]')].some(a => a.textContent.includes("What is the weather in Hanoi?") && a.getAttribute('aria-current') === "page")`, 10*time.Second)

	// An approval, answered in the page: the route receives the SDK's own
	// approval response and runs the tool.
	p.send("Please delete the report")
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"] [data-decision="approve"]') !== null`, 60*time.Second)
	p.click(`[data-kind="approval"][data-state="pending"] [data-decision="approve"]`)
	p.waitJS(lastText+` === "The file was deleted."`, 60*time.Second)
	var requests []wire.UIChatRequest
	getJSON(t, backend+"/requests", &requests)
	last := requests[len(requests)-1]
	msg := last.Messages[len(last.Messages)-1]
	found := false
	for _, part := range msg.Parts {
		if part.Type == "tool-deleteFile" && part.State == "approval-responded" && part.Approval != nil && part.Approval.Approved != nil && *part.Approval.Approved {
			found = true
		}
	}
	if !found || last.MessageID != msg.ID || last.Trigger != "submit-message" {
		t.Fatalf("the route did not get the approval as the SDK sends it: %s", mustJSON(t, last))
	}
	// The second turn carried the first one's messages.
	if len(requests[1].Messages) != 3 || requests[1].Messages[0].Parts[0].Text == nil || *requests[1].Messages[0].Parts[0].Text != "What is the weather in Hanoi?" {
		t.Fatalf("second turn: %s", mustJSON(t, requests[1].Messages))
	}

	// A reload in the middle of a run: the conversation is back at once,
	// and the route's stream resumes it; nothing shows twice.
	p.send("A slow answer please")
	p.waitJS(lastText+` === "Working on it"`, 60*time.Second)
	p.reload()
	p.waitJS(lastText+`.startsWith("Working on it")`, 20*time.Second)
	p.waitJS(agentStatus+` === "running"`, 20*time.Second)
	post(t, backend+"/release")
	p.waitJS(lastText+` === "Working on it, done."`, 60*time.Second)
	p.waitIdle()
	if n := eval[int](p, `[...document.querySelectorAll('[data-kind="text"]')].filter(e => e.textContent.startsWith("Working on it")).length`); n != 1 {
		t.Fatalf("%d slow answers shown", n)
	}
	if n := eval[int](p, countKind("user")); n != 3 {
		t.Fatalf("%d user messages after the reload", n)
	}

	// Stop aborts the run.
	p.send("Another slow answer")
	p.waitJS(lastText+` === "Working on it"`, 60*time.Second)
	p.click(`[data-testid="stop"]`)
	p.waitJS(countKind("stopped")+` === 1`, 20*time.Second)
	p.waitJS(agentStatus+` === "stopped"`, 10*time.Second)
	post(t, backend+"/release")
	p.screenshot("agent-aisdk-ai" + major)
}

func TestAGUIAgentInTheBrowser(t *testing.T) {
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p := newPage(t)
	p.openAt(base, "/?session=agui-browser&lang=en")
	p.waitConnected()

	p.send("What is the weather in Hanoi?")
	p.waitJS(lastText+` === "It is 31 degrees and sunny in Hanoi."`, 60*time.Second)
	p.waitIdle()
	if kinds := itemKinds(p.view()); strings.Join(kinds, ",") != "user,group,text" {
		t.Fatalf("items %v", kinds)
	}

	// A tool approval (RUN_FINISHED interrupt), approved in the page: the
	// agent gets it as its resume.
	p.send("Email the report")
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"] [data-decision="approve"]') !== null`, 60*time.Second)
	p.waitJS(`document.querySelector('[data-kind="approval"]').textContent.includes("Send the report to team@example.com?")`, 5*time.Second)
	p.click(`[data-kind="approval"][data-state="pending"] [data-decision="approve"]`)
	p.waitJS(lastText+` === "The email was sent to team@example.com."`, 60*time.Second)
	var requests []wire.RunAgentInput
	getJSON(t, backend+"/requests", &requests)
	resume := requests[len(requests)-1].Resume
	if len(resume) != 1 || resume[0].Status != "resolved" || string(resume[0].Payload) != `{"approved":true}` {
		t.Fatalf("resume %s", mustJSON(t, resume))
	}
	if len(requests[1].Messages) != 6 {
		t.Fatalf("the second run carried %d messages", len(requests[1].Messages))
	}

	// A form from the interrupt's response schema.
	p.send("Which account?")
	p.waitJS(`document.querySelector('[data-kind="form"][data-state="pending"] select') !== null`, 60*time.Second)
	eval[bool](p, `(s => { s.value = "1"; return s.dispatchEvent(new Event("change", {bubbles: true})) })(document.querySelector('[data-kind="form"] select'))`)
	p.click(`[data-kind="form"] [data-testid="form-submit"]`)
	p.waitJS(lastText+`.startsWith("Noted: {\"account\":\"home\"")`, 60*time.Second)

	// A reload: the conversation is restored at once from the browser.
	before := itemKinds(p.view())
	p.reload()
	p.waitJS(countKind("user")+` === 3`, 20*time.Second)
	if after := itemKinds(p.view()); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("after the reload %v, before %v", after, before)
	}

	// Stop aborts the run.
	p.send("A slow answer please")
	p.waitJS(lastText+` === "Working on it"`, 60*time.Second)
	p.click(`[data-testid="stop"]`)
	p.waitJS(countKind("stopped")+` === 1`, 20*time.Second)
	post(t, backend+"/release")

	// And the thread goes on.
	p.send("And tomorrow?")
	p.waitJS(lastText+` === "It is 31 degrees and sunny in Hanoi."`+` && `+countKind("user")+` === 5`, 60*time.Second)
	p.screenshot("agent-agui")
}

// Bad backends end with a clear message in the conversation, the thread
// kept, never a silent spinner.
func TestBadAgentBackends(t *testing.T) {
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in wire.RunAgentInput
		json.NewDecoder(r.Body).Decode(&in)
		text := ""
		if n := len(in.Messages); n > 0 {
			text = string(in.Messages[n-1].Content)
		}
		switch {
		case strings.Contains(text, "html page"):
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><script>alert(1)</script></body></html>")
		case strings.Contains(text, "login page"):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><title>Please sign in</title></html>")
		case strings.Contains(text, "cut short"):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
			io.WriteString(w, "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"search\"}\n\n")
		case strings.Contains(text, "odd events"):
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range []string{
				`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
				`{"type":"BRAND_NEW_EVENT"}`,
				`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"ghost","content":"orphan result"}`,
				`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"upload","message":"Upload the files","responseSchema":{"type":"object","properties":{"files":{"type":"array"}},"required":["files"]}}]}}`,
			} {
				io.WriteString(w, "data: "+ev+"\n\n")
			}
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			io.WriteString(w, `{"error":{"message":"messages: invalid"}}`)
		}
	}))
	defer bad.Close()
	base := agentSite(t, agentproxy.AGUI, bad.URL)
	p := newPage(t)
	p.openAt(base, "/?session=agui-bad&lang=en")
	p.waitConnected()
	notice := func(n int, reason string) {
		p.t.Helper()
		p.waitJS(`document.querySelectorAll('[data-kind="notice"]').length === `+strconv.Itoa(n)+` && `+
			`[...document.querySelectorAll('[data-kind="notice"]')].pop().dataset.reason === "`+reason+`"`, 30*time.Second)
		p.waitJS(agentStatus+` !== "running"`, 10*time.Second)
	}
	p.send("an html page please")
	notice(1, "backend_error")
	p.waitJS(`[...document.querySelectorAll('[data-kind="notice"]')].pop().textContent.includes("HTTP 502: 502 Bad Gateway")`, 5*time.Second)
	p.send("a login page please")
	notice(2, "not_a_stream")
	p.send("a stream cut short please")
	notice(3, "stream_ended")
	p.waitJS(toolStatus("c1")+` === "interrupted"`, 5*time.Second)
	p.send("a bad request")
	notice(4, "backend_error")
	p.send("odd events please")
	notice(5, "unsupported_interrupt")
	p.waitJS(toolStatus("ghost")+` === "done"`, 5*time.Second)
	if n := eval[int](p, countKind("user")); n != 5 {
		t.Fatalf("%d user messages kept", n)
	}
	if got := eval[bool](p, `window.__alerted === true`); got {
		t.Fatal("backend markup ran")
	}
	v := p.view()
	if v["skipped"].(float64) != 1 {
		t.Fatalf("skipped %v", v["skipped"])
	}
	raw, _ := json.Marshal(v)
	if strings.Contains(string(raw), "<script>") {
		t.Fatal("markup in the view")
	}
	p.screenshot("agent-bad-backends")
}

// toolStatus reads a tool's status from the view model (a finished group
// is collapsed: its steps are not in the page).
func toolStatus(id string) string {
	return `(JSON.parse(window.stepwise.view()).items.flatMap(i => i.steps || [i]).find(i => i.id === "` + id + `") || {}).status`
}

func itemKinds(v map[string]any) []string {
	var out []string
	for _, it := range v["items"].([]any) {
		out = append(out, it.(map[string]any)["kind"].(string))
	}
	return out
}

// A browser that refuses storage (private mode, no IndexedDB) says so and
// keeps the conversation in memory: the agent still answers.
func TestAgentWithoutStorage(t *testing.T) {
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p := newPage(t)
	p.addInitScript(`Object.defineProperty(window, "indexedDB", {value: undefined, configurable: true})`)
	p.openAt(base, "/?session=agui-nostorage&lang=en")
	p.waitConnected()
	p.waitJS(`document.body.innerText.includes("does not let the page save conversations")`, 10*time.Second)
	p.send("What is the weather in Hanoi?")
	p.waitJS(lastText+` === "It is 31 degrees and sunny in Hanoi."`, 60*time.Second)
	p.send("And tomorrow?")
	p.waitJS(countKind("user")+` === 2 && `+countKind("text")+` === 2`, 60*time.Second)
	var requests []wire.RunAgentInput
	getJSON(t, backend+"/requests", &requests)
	if n := len(requests[1].Messages); n != 6 {
		t.Fatalf("the second run carried %d messages, want the first run's 5 and the new one", n)
	}
}
