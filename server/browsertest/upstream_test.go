//go:build browser

package browsertest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Streams recorded by the upstream projects' own tests (state/testdata/
// upstream; a hand-made one from state/testdata/handmade) in the real page:
// the page's view model is replay's golden, and what issue 42 added shows.

// upstreamPages are the fixtures served under /fixtures/ (copies, checked
// against their originals) and the golden each replays to.
var upstreamPages = []struct {
	fixture, original, golden string
	shows                     []string // in the page's text, in English
}{
	{"upstream-anthropic-fallback.sse", "../../state/testdata/upstream/anthropic-sdk-python/fallback_response.sse",
		"../../state/testdata/upstream/anthropic-sdk-python/fallback_response.view.json",
		[]string{"Another model took over the answer from here", "claude-sonnet-4-5", "Hello there!"}},
	{"upstream-agui-thinking-usage.jsonl", "../../state/testdata/upstream/ag-ui/dotnet-thinking-turn1.jsonl",
		"../../state/testdata/upstream/ag-ui/dotnet-thinking-turn1.view.json",
		[]string{"39 in · 345 out · 128 reasoning · gpt-5-mini"}},
	{"upstream-anthropic-advisor.jsonl", "../../state/testdata/upstream/vercel-ai/anthropic/anthropic-advisor-stop-reasons.chunks.txt",
		"../../state/testdata/upstream/vercel-ai/anthropic/anthropic-advisor-stop-reasons.view.json",
		[]string{"Advisor"}},
	{"handmade-langgraph-both-channels.jsonl", "../../state/testdata/handmade/langgraph-interrupt-both-channels.jsonl",
		"../../state/testdata/handmade/langgraph-interrupt-both-channels.view.json",
		[]string{"I drafted the email."}},
	{"upstream-agui-reasoning-encrypted.jsonl", "../../state/testdata/upstream/ag-ui/dart-reasoning-events.jsonl",
		"../../state/testdata/upstream/ag-ui/dart-reasoning-events.view.json",
		[]string{"Reasoning"}},
	{"upstream-agui-activity.jsonl", "../../state/testdata/upstream/ag-ui/dart-activity-events.jsonl",
		"../../state/testdata/upstream/ag-ui/dart-activity-events.view.json",
		[]string{"Indexing files", "100%"}},
	{"handmade-agui-subagents.jsonl", "../../state/testdata/handmade/agui-subagents.jsonl",
		"../../state/testdata/handmade/agui-subagents.view.json",
		[]string{"The researcher found that sub-agents attribute their events."}},
	// The 2026 events of issue 42 not shown above.
	{"upstream-anthropic-refusal.jsonl", "../../state/testdata/upstream/vercel-ai/anthropic/anthropic-refusal.chunks.txt",
		"../../state/testdata/upstream/vercel-ai/anthropic/anthropic-refusal.view.json",
		[]string{"The model declined to answer", "The request could enable cyber harm, such as malware or exploits.",
			"This request triggered restrictions on violative cyber content"}},
	{"upstream-anthropic-context-management.sse", "../../state/testdata/upstream/vercel-ai/anthropic-inline/context-management.sse",
		"../../state/testdata/upstream/vercel-ai/anthropic-inline/context-management.view.json",
		[]string{"Earlier tool results were cleared here to make room", "Hello"}},
	{"handmade-anthropic-upload.jsonl", "../../state/testdata/handmade/anthropic-context-cleared-and-upload.jsonl",
		"../../state/testdata/handmade/anthropic-context-cleared-and-upload.view.json",
		[]string{"A file was uploaded to the code container", "file_011CNha8iCJcU1wXNR6q4V8w", "The CSV has 3 columns."}},
	{"handmade-anthropic-encrypted-code.jsonl", "../../state/testdata/handmade/anthropic-encrypted-code-execution-result.jsonl",
		"../../state/testdata/handmade/anthropic-encrypted-code-execution-result.view.json",
		[]string{"Run code", "The search found one page"}},
	{"upstream-aisdk-automatically-approved.jsonl", "../../state/testdata/upstream/vercel-ai/ui/to-ui-message-stream-automatically-approved.jsonl",
		"../../state/testdata/upstream/vercel-ai/ui/to-ui-message-stream-automatically-approved.view.json",
		[]string{"Hello, world!"}},
	{"upstream-aisdk-approval-response.jsonl", "../../state/testdata/upstream/vercel-ai/ui/process-tool-approval-response-signature.jsonl",
		"../../state/testdata/upstream/vercel-ai/ui/process-tool-approval-response-signature.view.json",
		nil},
	{"upstream-aisdk-reset-step.jsonl", "../../state/testdata/upstream/vercel-ai/ui/process-reset-step.jsonl",
		"../../state/testdata/upstream/vercel-ai/ui/process-reset-step.view.json",
		[]string{"Completed step"}},
	{"upstream-aisdk-reasoning-files.jsonl", "../../state/testdata/upstream/vercel-ai/ui/ai7-run-reasoning-files.jsonl",
		"../../state/testdata/upstream/vercel-ai/ui/ai7-run-reasoning-files.view.json",
		[]string{"Hello!"}},
}

func TestUpstreamStreamsInThePage(t *testing.T) {
	for _, f := range upstreamPages {
		t.Run(f.fixture, func(t *testing.T) {
			copied, err := os.ReadFile("testdata/" + f.fixture)
			if err != nil {
				t.Fatal(err)
			}
			original, err := os.ReadFile(f.original)
			if err != nil {
				t.Fatal(err)
			}
			if string(copied) != string(original) {
				t.Fatalf("testdata/%s differs from %s", f.fixture, f.original)
			}
			p := newPage(t)
			p.replayURL("/fixtures/"+f.fixture, "max", "en")
			p.waitJS(`window.__result`, 30*time.Second)
			sameAsGolden(t, p, f.golden)
			for _, want := range f.shows {
				if !eval[bool](p, conversation+`.textContent.includes(`+jsString(want)+`)`) {
					t.Errorf("the page does not show %q", want)
				}
			}
		})
	}
}

// The encrypted advisor result says so, in the reader's language, and
// never shows its content; one approval card for a LangGraph interrupt
// sent on both channels.
func TestUpstreamStreamsCards(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/upstream-anthropic-advisor.jsonl", "max", "fr")
	p.waitJS(`window.__result`, 30*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="srvtoolu_advisor_redacted"] .tool-row`)))
	p.waitJS(`document.querySelector('[data-tool-id="srvtoolu_advisor_redacted"] .tool-details')`, 5*time.Second)
	details := eval[string](p, `document.querySelector('[data-tool-id="srvtoolu_advisor_redacted"] .tool-details').textContent`)
	if !strings.Contains(details, "Le résultat est chiffré : seul le modèle peut le lire.") || strings.Contains(details, "opaque-encrypted-advice") {
		t.Errorf("encrypted result reads %q", details)
	}

	// AG-UI reasoning: shown; its encrypted value kept, never shown.
	p.replayURL("/fixtures/upstream-agui-reasoning-encrypted.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	p.waitJS(conversation+`.textContent.includes("Analyzing the request... considering options.")`, 5*time.Second)
	if eval[bool](p, `document.documentElement.outerHTML.includes("ZW5jcnlwdGVkLXBheWxvYWQ=")`) {
		t.Error("the encrypted reasoning value is in the page")
	}

	p.replayURL("/fixtures/handmade-langgraph-both-channels.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="approval"], [data-kind="form"], [data-kind="notice"]').length`); n != 1 {
		t.Errorf("%d cards for one interrupt", n)
	}
}

// The 2026 events' own marks, where they are drawn: an approval the AI
// SDK route's policy decided says so and waits for nobody; a decided
// approval (tool-approval-response) takes no answer; reset-step leaves
// only the retried call; reasoning files show beside the reasoning; an
// encrypted code execution result says so, never its content.
func TestUpstream2026EventsInThePage(t *testing.T) {
	p := newPage(t)
	openGroups := func() {
		eval[int](p, `document.querySelectorAll('[data-kind="group"] .group-header[aria-expanded="false"]').forEach(b => b.click()), 0`)
	}

	p.replayURL("/fixtures/upstream-aisdk-automatically-approved.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	openGroups()
	p.waitJS(`document.querySelector('.approval-status[data-automatic="true"]')`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('.approval-status[data-automatic="true"]').textContent`); got != "Approved by policy" {
		t.Errorf("automatic approval reads %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('[data-kind="approval"] button').length`); n != 0 {
		t.Errorf("an approval the policy decided offers %d buttons", n)
	}

	p.replayURL("/fixtures/upstream-aisdk-approval-response.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	openGroups()
	p.waitJS(`document.querySelector('[data-kind="approval"]')`, 5*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-kind="approval"] button').length`); n != 0 {
		t.Errorf("an approval already answered offers %d buttons", n)
	}

	p.replayURL("/fixtures/upstream-aisdk-reset-step.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	openGroups()
	p.waitJS(`document.querySelector('[data-tool-id="retried-tool"]')`, 5*time.Second)
	if eval[bool](p, `!!document.querySelector('[data-tool-id="stale-tool"]')`) {
		t.Error("the call reset-step removed is still shown")
	}

	p.replayURL("/fixtures/upstream-aisdk-reasoning-files.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	openGroups()
	// The two reasoning files, in order; the fixture's data are a few
	// bytes ai 7's test model wrote, not pictures (not base64), so each is
	// named with its type rather than drawn as a broken image.
	const files = `[...document.querySelectorAll('[data-activity-type="file"]')].map(f => f.textContent.trim()).join("|")`
	p.waitJS(files+` === "📎 A file (image/png)|📎 A file (image/jpeg)"`, 5*time.Second, files)
	if !eval[bool](p, conversation+`.textContent.includes("Some reasoning text.")`) {
		t.Error("the reasoning beside the files is not shown")
	}

	p.replayURL("/fixtures/handmade-anthropic-encrypted-code.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	openGroups()
	p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="srvtoolu_codeexec_01"] .tool-row`)))
	p.waitJS(`document.querySelector('[data-tool-id="srvtoolu_codeexec_01"] .tool-details')`, 5*time.Second)
	details := eval[string](p, `document.querySelector('[data-tool-id="srvtoolu_codeexec_01"] .tool-details').textContent`)
	if !strings.Contains(details, "The result is encrypted: only the model can read it.") {
		t.Errorf("encrypted code execution result reads %q", details)
	}
	if eval[bool](p, `document.documentElement.outerHTML.includes("enc_abc123")`) {
		t.Error("the encrypted stdout is in the page")
	}
}

// TestUpstreamScreens saves screenshots of the fallback notice, an AG-UI
// run's usage line and the LangGraph card, light and dark, at 360 px and
// on a desktop, for a person to look at.
func TestUpstreamScreens(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			for _, f := range []struct {
				name, fixture, lang string
				openGroups          bool
			}{
				{"upstream-fallback", "upstream-anthropic-fallback.sse", "vi", false},
				{"upstream-agui-usage", "upstream-agui-thinking-usage.jsonl", "en", false},
				{"upstream-langgraph", "handmade-langgraph-both-channels.jsonl", "fr", false},
				{"upstream-refusal", "upstream-anthropic-refusal.jsonl", "en", false},
				{"upstream-context-upload", "handmade-anthropic-upload.jsonl", "en", false},
				{"upstream-automatic-approval", "upstream-aisdk-automatically-approved.jsonl", "en", true},
				{"upstream-reasoning-files", "upstream-aisdk-reasoning-files.jsonl", "en", true},
			} {
				name := f.name + "-" + theme + "-" + itoa(width)
				t.Run(name, func(t *testing.T) {
					p := newPage(t)
					if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
					}); err != nil {
						t.Fatal(err)
					}
					if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
						Width: int64(width), Height: 900, DeviceScaleFactor: 1, Mobile: width < 500,
					}); err != nil {
						t.Fatal(err)
					}
					p.replayURL("/fixtures/"+f.fixture, "max", f.lang)
					p.waitJS(`window.__result`, 30*time.Second)
					if f.openGroups {
						eval[int](p, `document.querySelectorAll('[data-kind="group"] .group-header[aria-expanded="false"]').forEach(b => b.click()), 0`)
						p.waitJS(`!document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`, 5*time.Second)
					}
					p.screenshot(name)
				})
			}
		}
	}
}
