//go:build browser

package browsertest

// The user's half in front of the real AG-UI and AI SDK backends
// (testdata/agents): files attached go as the protocol's parts, a
// regenerate and an edit send what each protocol expects, versions switch
// and survive F5, ratings go to -feedback-url; each asserted on the
// library's side (what the route or the agent received, as its own SDK
// parsed it), and bad files refused before anything is sent.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	client "stepwise/app"
	"stepwise/server/agentproxy"
	"stepwise/server/site"
	"stepwise/state/wire"
)

// ratings are what the deployment's feedback endpoint received.
type ratings struct {
	mu   sync.Mutex
	list []map[string]any
}

func (r *ratings) all() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.list...)
}

// agentSiteWithFeedback is agentSite with -feedback-url /ratings (served
// here, recording what it receives) and a small per-file limit.
func agentSiteWithFeedback(t *testing.T, p agentproxy.Protocol, endpoint string) (string, *ratings) {
	t.Helper()
	api, err := agentproxy.New(p, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	h, err := site.New(site.Config{WebDir: "../../web", API: api, Env: map[string]string{
		client.EnvProtocol: string(p), client.EnvFeedbackURL: "/ratings", client.EnvMaxUploadBytes: "4096",
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := &ratings{}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("POST /ratings", func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var v map[string]any
		if json.Unmarshal(raw, &v) != nil {
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		got.mu.Lock()
		got.list = append(got.list, v)
		got.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, got
}

// badFilesRefused attaches a file too large, an empty one and one of a
// refused type after typing: each chip says why, what was typed stays,
// and the chips go when removed.
func badFilesRefused(t *testing.T, p *page, dir string) {
	t.Helper()
	// Typed first: the first chip must not take the text away.
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), "Describe it"))
	p.attach(writeFile(t, dir, "big.txt", []byte(strings.Repeat("a", 5000))), writeFile(t, dir, "empty.txt", nil))
	errs := `[...document.querySelectorAll('[data-testid="draft-file-error"]')].map(e => e.textContent).join("|")`
	p.waitJS(`(t => t.includes("big.txt is larger than") && t.includes("empty.txt is empty"))(`+errs+`)`, 10*time.Second, errs)
	p.attach(writeFile(t, dir, "setup.exe", []byte("MZ")))
	p.waitJS(`(t => t.includes("setup.exe: this type of file cannot be attached"))(`+errs+`)`, 10*time.Second, errs)
	if got := eval[string](p, `document.querySelector('[data-testid="composer"]').value`); got != "Describe it" {
		t.Errorf("the composer holds %q", got)
	}
	removeRefused(p)
}

// removeRefused removes the refused files' chips, one at a time.
func removeRefused(p *page) {
	p.t.Helper()
	for n := eval[int](p, draftFiles+`.length`); n > 0; n-- {
		p.do(chromedp.Click(chromedp.CSS(`[data-testid="draft-file"].is-error [data-testid="remove-file"]`), chromedp.NodeVisible))
		p.waitJS(draftFiles+`.length === `+itoa(n-1), 5*time.Second)
	}
}

// A file whose bytes are not what its name says is refused too, as the
// demo agent's upload refuses it.
func mismatchRefused(t *testing.T, p *page, dir string) {
	t.Helper()
	p.attach(writeFile(t, dir, "fake.png", []byte("not a picture at all")))
	p.waitJS(`document.querySelector('[data-testid="draft-file-error"]')?.textContent.includes("fake.png is not what its name says")`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('[data-testid="composer"]').value`); got != "Describe it" {
		t.Errorf("the composer holds %q", got)
	}
	removeRefused(p)
}

// shownAnswerID is the id of the answer shown, as the page keeps it.
const shownAnswerID = `JSON.parse(window.stepwise.view()).items.filter(i => i.message?.role === "assistant").pop().message.id`

const pictureSent = `(u => u && u.querySelector('[data-testid="picture"] img')?.naturalWidth === 12)(` + userTurn + `.pop())`

// editTo edits the (only) user message to text.
func (p *page) editTo(text string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="edit"]`), chromedp.NodeVisible))
	p.waitJS(`document.activeElement?.dataset.testid === "edit-input"`, 5*time.Second)
	eval[bool](p, `(e => { e.value = ""; return true })(document.querySelector('[data-testid="edit-input"]'))`)
	p.do(chromedp.SendKeys(`[data-testid="edit-input"]`, text, chromedp.NodeReady))
	p.pressEnter()
}

// rateDown rates the answer shown down, with a comment.
func (p *page) rateDown(comment string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="feedback-down"]`), chromedp.NodeVisible))
	p.waitJS(`document.querySelector('[data-testid="feedback"]').dataset.rating === "down" && document.activeElement?.dataset.testid === "feedback-comment"`, 10*time.Second)
	p.do(chromedp.SendKeys(`[data-testid="feedback-comment"]`, comment, chromedp.NodeReady))
	p.pressEnter()
	p.waitJS(`document.querySelector('[data-testid="feedback-note"]')`, 10*time.Second)
}

const versionsAfterReload = userTexts + ` === "Describe it" && ` + userBranch + `?.textContent.includes("1 / 2") && ` + answerBranch + `?.textContent.includes("2 / 2") && ` +
	`document.querySelector('[data-testid="feedback"]')?.dataset.rating === "down"`

func TestAISDKUserHalf(t *testing.T) {
	for _, v := range aiVersions {
		t.Run("ai"+v, func(t *testing.T) { testAISDKUserHalf(t, v) })
	}
}

func testAISDKUserHalf(t *testing.T, major string) {
	route := startAISDKServer(t, major)
	base, rated := agentSiteWithFeedback(t, agentproxy.AISDK, route+"/api/chat")
	p := newPage(t)
	dir := t.TempDir()
	p.openAt(base, "/?session=aisdk-half-"+major+"&lang=en")
	p.waitConnected()

	badFilesRefused(t, p, dir)
	mismatchRefused(t, p, dir)
	p.attach(writePNG(t, dir, "chart.png", 12, 9))
	sendAttachedAndWait(p, 1)

	// The route received the file part as useChat sends it, and the SDK
	// gave it to the model.
	var requests []wire.UIChatRequest
	getJSON(t, route+"/requests", &requests)
	first := requests[len(requests)-1]
	parts := first.Messages[0].Parts
	if len(parts) != 2 || parts[0].Type != "file" || parts[0].MediaType != "image/png" || parts[0].Filename != "chart.png" ||
		!strings.HasPrefix(parts[0].URL, "data:image/png;base64,iVBORw0KGgo") || parts[1].Text == nil || *parts[1].Text != "Describe it" {
		t.Fatalf("the route received %s", mustJSON(t, first.Messages))
	}
	var prompts [][]map[string]any
	getJSON(t, route+"/prompts", &prompts)
	if got := mustJSON(t, prompts[0]); !strings.Contains(got, `"type":"file"`) || !strings.Contains(got, `"mediaType":"image/png"`) {
		t.Errorf("the model's prompt has no file part: %s", got)
	}
	answerID := eval[string](p, shownAnswerID)

	// Regenerate: the SDK's trigger with the answer's id.
	p.click(`[data-testid="regenerate"]`)
	p.waitJS(agentStatus+` === "idle" && `+answerBranch+`?.textContent.includes("2 / 2")`, 60*time.Second)
	getJSON(t, route+"/requests", &requests)
	regen := requests[len(requests)-1]
	if regen.Trigger != "regenerate-message" || regen.MessageID != answerID || len(regen.Messages) != 1 || regen.Messages[0].Role != "user" {
		t.Fatalf("regenerate sent %s", mustJSON(t, regen))
	}

	// Edit: the edited message, with its file, submitted.
	p.editTo("What is the weather in Hue?")
	p.waitJS(agentStatus+` === "idle" && `+userBranch+`?.textContent.includes("2 / 2") && document.querySelector('[data-testid="regenerate"]')`, 60*time.Second)
	getJSON(t, route+"/requests", &requests)
	edit := requests[len(requests)-1]
	if edit.Trigger != "submit-message" || len(edit.Messages) != 1 || len(edit.Messages[0].Parts) != 2 || edit.Messages[0].Parts[0].Type != "file" ||
		*edit.Messages[0].Parts[1].Text != "What is the weather in Hue?" || edit.Messages[0].ID == first.Messages[0].ID {
		t.Fatalf("the edit sent %s", mustJSON(t, edit))
	}
	p.waitJS(pictureSent, 10*time.Second)

	// Back to the first version, whose answer is the regenerated one;
	// rated, with a comment.
	p.click(`.user-turn [data-testid="branch-previous"]`)
	p.waitJS(userTexts+` === "Describe it" && `+answerBranch+`?.textContent.includes("2 / 2")`, 10*time.Second)
	p.rateDown("Too vague.")
	got := rated.all()
	if len(got) != 2 || got[1]["protocol"] != "ai-sdk" || got[1]["conversation_id"] != first.ID || got[1]["rating"] != "down" || got[1]["comment"] != "Too vague." ||
		got[1]["message_id"] != eval[string](p, shownAnswerID) {
		t.Errorf("the feedback endpoint received %v", got)
	}
	p.axe("versions and feedback in the AI SDK mode")

	// F5: the version shown, its rating and the picture.
	p.reload()
	p.waitConnected()
	p.waitJS(versionsAfterReload+` && `+pictureSent, 20*time.Second)
	// Export works from the view model here too: the version shown, its file.
	eval[bool](p, `(() => { window.__downloads = [];
		const make = URL.createObjectURL;
		URL.createObjectURL = b => { const u = make(b); b.text().then(t => window.__downloads.push(t)); return u; };
		HTMLAnchorElement.prototype.click = function () { if (this.download) window.__downloads.push(this.download); };
		return true; })()`)
	p.click(`[data-testid="export"]`)
	p.waitJS(`document.querySelector('[data-testid="export-markdown"]')`, 5*time.Second)
	p.click(`[data-testid="export-markdown"]`)
	p.waitJS(`window.__downloads.length === 2`, 5*time.Second)
	if got := eval[[]string](p, `window.__downloads`); !strings.HasSuffix(got[0], ".md") || !strings.Contains(got[1], "Describe it") || !strings.Contains(got[1], "chart.png") || !strings.Contains(got[1], "31 degrees") {
		t.Errorf("Markdown export: %q", got)
	}

	p.click(`.answer-actions [data-testid="branch-previous"]`)
	p.waitJS(answerBranch+`?.textContent.includes("1 / 2") && document.querySelector('[data-testid="feedback-up"]') && !document.querySelector('[data-testid="feedback"] [aria-pressed="true"]')`, 10*time.Second, `window.stepwise.view()`)
}

func TestAGUIUserHalf(t *testing.T) {
	agent := startAgentServer(t, "agui-server.mjs")
	base, rated := agentSiteWithFeedback(t, agentproxy.AGUI, agent+"/agent")
	p := newPage(t)
	dir := t.TempDir()
	p.openAt(base, "/?session=agui-half&lang=en")
	p.waitConnected()

	badFilesRefused(t, p, dir)
	p.attach(writePNG(t, dir, "chart.png", 12, 9), writeFile(t, dir, "notes.md", []byte("# Notes\nHanoi, 31 degrees\n")))
	sendAttachedAndWait(p, 2)

	// The agent received (and its SDK's schema accepted) the image and the
	// document as content parts.
	var requests []wire.RunAgentInput
	getJSON(t, agent+"/requests", &requests)
	first := requests[len(requests)-1]
	var parts []struct {
		Type, Text string
		Source     struct{ Type, Value, MimeType string }
		Metadata   struct{ Filename string }
	}
	if err := json.Unmarshal(first.Messages[0].Content, &parts); err != nil || len(parts) != 3 ||
		parts[0].Text != "Describe it" || parts[1].Type != "image" || parts[1].Source.Type != "data" || parts[1].Source.MimeType != "image/png" ||
		!strings.HasPrefix(parts[1].Source.Value, "iVBORw0KGgo") || parts[1].Metadata.Filename != "chart.png" ||
		parts[2].Type != "document" || parts[2].Source.MimeType != "text/markdown" || parts[2].Metadata.Filename != "notes.md" {
		t.Fatalf("the agent received %s", first.Messages[0].Content)
	}

	// Regenerate: a new run with the messages up to the user's.
	p.click(`[data-testid="regenerate"]`)
	p.waitJS(agentStatus+` === "idle" && `+answerBranch+`?.textContent.includes("2 / 2")`, 60*time.Second)
	getJSON(t, agent+"/requests", &requests)
	regen := requests[len(requests)-1]
	if len(regen.Messages) != 1 || regen.Messages[0].Role != "user" || regen.RunID == first.RunID || regen.ThreadID != first.ThreadID {
		t.Fatalf("regenerate ran %s", mustJSON(t, regen))
	}

	// Edit: a new run with the edited message and its files.
	p.editTo("And the weather in Hue?")
	p.waitJS(agentStatus+` === "idle" && `+userBranch+`?.textContent.includes("2 / 2") && document.querySelector('[data-testid="regenerate"]')`, 60*time.Second)
	getJSON(t, agent+"/requests", &requests)
	edit := requests[len(requests)-1]
	if len(edit.Messages) != 1 || !strings.Contains(string(edit.Messages[0].Content), `"text":"And the weather in Hue?"`) || !strings.Contains(string(edit.Messages[0].Content), `"filename":"notes.md"`) {
		t.Fatalf("the edit ran %s", mustJSON(t, edit))
	}

	p.click(`.user-turn [data-testid="branch-previous"]`)
	p.waitJS(userTexts+` === "Describe it" && `+answerBranch+`?.textContent.includes("2 / 2")`, 10*time.Second)
	p.rateDown("Too vague.")
	got := rated.all()
	if len(got) != 2 || got[1]["protocol"] != "ag-ui" || got[1]["conversation_id"] != first.ThreadID || got[1]["rating"] != "down" || got[1]["comment"] != "Too vague." {
		t.Errorf("the feedback endpoint received %v", got)
	}
	p.axe("versions and feedback in the AG-UI mode")

	p.reload()
	p.waitConnected()
	p.waitJS(versionsAfterReload+` && `+pictureSent, 20*time.Second)

	// The export is of the version shown, its files named, not inlined.
	md, js := p.exportBoth("conversation-agui-half")
	if !strings.Contains(md, "## You\n\nDescribe it\n\n- 📎 chart.png (image/png, ") || !strings.Contains(md, "- 📎 notes.md (text/markdown, ") ||
		strings.Contains(md, "Hue") || strings.Contains(md, "iVBORw0KGgo") {
		t.Errorf("Markdown export: %q", md)
	}
	if !strings.Contains(js, `"items"`) || !strings.Contains(js, "Describe it") {
		t.Errorf("JSON export: %.300q", js)
	}
}

// sendAttachedAndWait sends the composer once its n files are read, and
// waits for the sent picture and the whole answer (its regenerate button).
func sendAttachedAndWait(p *page, n int) {
	p.t.Helper()
	p.waitJS(draftFiles+`.length === `+strconv.Itoa(n)+` && `+draftFiles+`.every(c => c.dataset.state === "done")`, 10*time.Second)
	p.do(chromedp.Focus(chromedp.CSS(`[data-testid="composer"]`)))
	p.pressEnter()
	p.waitJS(pictureSent, 10*time.Second)
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="regenerate"]')`, 60*time.Second)
}

// An AG-UI run that fails before any message of its answer: regenerate on
// its error is the way out, a new run (new runId, same threadId) with the
// path up to the user's message, and the new answer replaces the error.
func TestAGUIRegenerateFromAnErrorWithoutAnswer(t *testing.T) {
	agent := startAgentServer(t, "agui-server.mjs")
	base, _ := agentSiteWithFeedback(t, agentproxy.AGUI, agent+"/agent")
	p := newPage(t)
	p.openAt(base, "/?session=agui-flaky&lang=en")
	p.waitConnected()

	p.send("flaky weather")
	const errorRegenerate = `document.querySelector('[data-kind="error"]')?.closest('.answer-end')?.querySelector('[data-testid="regenerate"]')`
	p.waitJS(agentStatus+` === "error" && `+errorRegenerate, 30*time.Second, `window.stepwise.view()`)
	if n := eval[int](p, `document.querySelectorAll('[data-testid="feedback"]').length`); n != 0 {
		t.Errorf("%d ratings offered on an error of no message", n)
	}
	var requests []wire.RunAgentInput
	getJSON(t, agent+"/requests", &requests)
	failed := requests[len(requests)-1]

	p.click(`.answer-end:has([data-kind="error"]) [data-testid="regenerate"]`)
	p.waitJS(agentStatus+` === "idle" && document.body.textContent.includes("31 degrees and sunny") && !document.querySelector('[data-kind="error"]')`,
		60*time.Second, `window.stepwise.view()`)
	getJSON(t, agent+"/requests", &requests)
	again := requests[len(requests)-1]
	if len(requests) < 2 || again.RunID == failed.RunID || again.ThreadID != failed.ThreadID ||
		mustJSON(t, again.Messages) != mustJSON(t, failed.Messages) || strings.Contains(mustJSON(t, again.Messages), "overloaded") {
		t.Fatalf("after %s, regenerate ran %s", mustJSON(t, failed), mustJSON(t, again))
	}
	p.axe("an answer regenerated from an error in the AG-UI mode")

	// F5 shows the answer, not the error it replaced.
	p.reload()
	p.waitConnected()
	p.waitJS(`document.body.textContent.includes("31 degrees and sunny") && !document.querySelector('[data-kind="error"]')`, 20*time.Second)
}
