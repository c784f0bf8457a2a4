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

// TestUpstreamScreens saves screenshots of the fallback notice, an AG-UI
// run's usage line and the LangGraph card, light and dark, at 360 px and
// on a desktop, for a person to look at.
func TestUpstreamScreens(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			for _, f := range []struct{ name, fixture, lang string }{
				{"upstream-fallback", "upstream-anthropic-fallback.sse", "vi"},
				{"upstream-agui-usage", "upstream-agui-thinking-usage.jsonl", "en"},
				{"upstream-langgraph", "handmade-langgraph-both-channels.jsonl", "fr"},
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
					p.screenshot(name)
				})
			}
		}
	}
}
