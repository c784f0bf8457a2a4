//go:build browser

package browsertest

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Anthropic-native streams (BACKENDS.md section 1) in the real page. The
// fixtures are copies of server/replay/testdata files: a public transcript
// and the cited-answer case.

const conversation = `document.querySelector('[data-testid="conversation"]')`

// sameAsGolden checks that the page's view model is the one replay prints
// for the same stream (its golden in server/replay/testdata).
func sameAsGolden(t *testing.T, p *page, golden string) {
	t.Helper()
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal([]byte(eval[string](p, `window.stepwise.view()`)), &got); err != nil {
		t.Fatal(err)
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Fatalf("the page's view model differs from replay's:\npage:   %s\nreplay: %s", g, w)
	}
}

func TestAnthropicWebSearchBlockAndSourcesPanel(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/anthropic-docs-web-search.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	sameAsGolden(t, p, "../replay/testdata/streams/anthropic-docs-web-search.view.json")

	const block = `document.querySelector('[data-testid="web-search"]')`
	p.waitJS(block, 5*time.Second)
	if text := eval[string](p, block+`.textContent`); !strings.Contains(text, "Web search") || !strings.Contains(text, "1 result") || strings.ContainsAny(text, "[]") {
		t.Fatalf("web search block reads %q", text)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="web-search"]`)))
	p.waitJS(`document.querySelector('.search-results a[href="https://world-weather.info/forecast/usa/new_york/may-2025/"]')`, 5*time.Second)
	if q := eval[string](p, `document.querySelector('.search-query').textContent`); q != "weather NYC today" {
		t.Errorf("search query %q", q)
	}

	p.do(chromedp.Click(chromedp.CSS(`[data-testid="sources-button"]`)))
	p.waitJS(`document.querySelector('[data-testid="sources-panel"] [data-testid="sources-group"]')`, 5*time.Second)
	group := eval[string](p, `document.querySelector('[data-testid="sources-group"]').textContent`)
	for _, want := range []string{"weather NYC today", "Weather in New York City in May 2025", "world-weather.info"} {
		if !strings.Contains(group, want) {
			t.Errorf("sources group %q lacks %q", group, want)
		}
	}
	type link struct{ Href, Target, Rel string }
	links := eval[[]link](p, `[...document.querySelectorAll('[data-testid="sources-panel"] a')].map(a => ({Href: a.href, Target: a.target, Rel: a.rel}))`)
	if len(links) != 1 || links[0].Target != "_blank" || links[0].Rel != "noopener noreferrer" {
		t.Errorf("panel links %+v", links)
	}
	usage := eval[string](p, `document.querySelector('[data-testid="usage"]').textContent`)
	if !strings.Contains(usage, "10,682 in · 510 out · 1 web search") {
		t.Errorf("usage line %q", usage)
	}
}

// focused makes the tab behave as the focused window, as a person's would
// be: without it, headless Chromium applies no :focus style to an element
// focused by script.
func (p *page) focused() {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		p.t.Fatal(err)
	}
}

// markerState is what a test needs to know about a citation marker.
type markerState struct {
	Text, Href, Target, Rel, Tip string
	TipVisible                   bool
	TipLeft, TipRight, TipTop    float64
}

const markerJS = `(el => { const tip = document.getElementById(el.getAttribute('aria-describedby')); const r = tip.getBoundingClientRect(); const cs = getComputedStyle(tip);
  return {Text: el.textContent, Href: el.getAttribute('href') || "", Target: el.target || "", Rel: el.rel || "", Tip: tip.textContent,
    TipVisible: cs.visibility === "visible" && cs.opacity === "1", TipLeft: r.left, TipRight: r.right, TipTop: r.top}; })`

func TestCitationMarkersClickAndKeyboard(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/anthropic-cited-answer.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	sameAsGolden(t, p, "../replay/testdata/anthropic/cited-answer.view.json")

	numbers := eval[[]string](p, `[...document.querySelectorAll('[data-testid="citation"]')].map(e => e.textContent)`)
	if got, want := strings.Join(numbers, " "), "1 1 2 3 2 4"; got != want {
		t.Fatalf("markers %q, want %q", got, want)
	}
	if eval[int](p, conversation+`.querySelectorAll('[data-kind="text"] strong').length`) != 1 {
		t.Error("the cited answer's Markdown is not rendered")
	}
	if eval[int](p, `[...document.querySelectorAll('.citation-tip')].filter(t => getComputedStyle(t).visibility === "visible").length`) != 0 {
		t.Error("a tooltip shows before any hover or focus")
	}

	// Tab reaches the markers, in order; focus shows the title and the
	// cited text.
	var focused markerState
	for i := 0; i < 80; i++ {
		p.do(chromedp.KeyEvent("\t"))
		if eval[bool](p, `document.activeElement && document.activeElement.dataset.testid === "citation"`) {
			p.waitJS(markerJS+`(document.activeElement).TipVisible`, 3*time.Second)
			focused = eval[markerState](p, markerJS+`(document.activeElement)`)
			break
		}
	}
	if focused.Text != "1" {
		t.Fatalf("Tab never reached the first citation marker (last: %+v)", focused)
	}
	for _, want := range []string{"San Francisco, CA Weather Forecast | AccuWeather", "www.accuweather.com", "showers; breezy and cool"} {
		if !strings.Contains(focused.Tip, want) {
			t.Errorf("focused tooltip %q lacks %q", focused.Tip, want)
		}
	}
	if !eval[bool](p, `document.activeElement.matches(':focus-visible')`) {
		t.Error("the focused marker shows no focus ring")
	}
	p.do(chromedp.KeyEvent("\t"))
	p.waitJS(`document.activeElement.textContent === "1" && `+markerJS+`(document.activeElement).TipVisible && `+markerJS+`(document.activeElement).Tip.includes("Tonight: Cloudy")`, 3*time.Second)
	p.do(chromedp.KeyEvent("\t"))
	p.waitJS(`document.activeElement.textContent === "2" && `+markerJS+`(document.activeElement).TipVisible && `+markerJS+`(document.activeElement).Tip.includes("Flood Watch")`, 3*time.Second)
	if eval[int](p, `[...document.querySelectorAll('.citation-tip')].filter(t => getComputedStyle(t).visibility === "visible").length`) != 1 {
		t.Error("more than the focused marker's tooltip shows")
	}

	// Clicking the first marker opens its page in a new tab.
	var mu sync.Mutex
	var opened []string
	chromedp.ListenBrowser(p.ctx, func(ev any) {
		var info *target.Info
		switch e := ev.(type) {
		case *target.EventTargetCreated:
			info = e.TargetInfo
		case *target.EventTargetInfoChanged:
			info = e.TargetInfo
		}
		if info != nil && info.Type == "page" {
			mu.Lock()
			opened = append(opened, info.URL)
			mu.Unlock()
		}
	})
	first := `document.querySelector('[data-testid="citation"]')`
	m := eval[markerState](p, markerJS+`(`+first+`)`)
	const accu = "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629"
	if m.Text != "1" || m.Href != accu || m.Target != "_blank" || m.Rel != "noopener noreferrer" {
		t.Fatalf("first marker %+v", m)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="citation"]`)))
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		found := false
		for _, u := range opened {
			found = found || u == accu
		}
		mu.Unlock()
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new tab for %s; targets seen: %q", accu, opened)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !eval[bool](p, `location.search.includes("replay=")`) {
		t.Error("the page itself navigated away")
	}
}

// TestCitationTooltipOnPhone: at 360 px the tooltip of a focused marker
// stays on screen.
func TestCitationTooltipOnPhone(t *testing.T) {
	p := newPage(t)
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 360, Height: 760, DeviceScaleFactor: 1, Mobile: true,
	}); err != nil {
		t.Fatal(err)
	}
	p.focused()
	p.replayURL("/scenarios/anthropic.jsonl", "max", "vi")
	p.waitJS(`window.__result`, 30*time.Second)
	n := eval[int](p, `document.querySelectorAll('[data-testid="citation"]').length`)
	if n < 4 {
		t.Fatalf("%d citation markers in the demo answer", n)
	}
	for i := 0; i < n; i++ {
		sel := `document.querySelectorAll('[data-testid="citation"]')[` + itoa(i) + `]`
		p.do(chromedp.Evaluate[chromedp.Void](sel + `.focus()`))
		p.waitJS(markerJS+`(`+sel+`).TipVisible`, 3*time.Second)
		m := eval[markerState](p, markerJS+`(`+sel+`)`)
		if m.TipLeft < 0 || m.TipRight > 360 || m.TipTop < 0 {
			t.Errorf("marker %d's tooltip is off screen: %+v", i+1, m)
		}
	}
}

func TestAnthropicDemoScenarioLive(t *testing.T) {
	p := newPage(t)
	p.open("/?session=live-anthropic&lang=en")
	p.waitConnected()
	p.send("/anthropic")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="usage"]')`, 30*time.Second)
	sameView(t, p.view(), serverView(t, "live-anthropic"))
	if n := eval[int](p, `document.querySelectorAll('[data-testid="citation"]').length`); n < 4 {
		t.Errorf("%d citation markers", n)
	}
	if !strings.Contains(eval[string](p, `document.querySelector('[data-testid="web-search"]').textContent`), "4 results") {
		t.Error("no web search block with its four results")
	}
	if got := eval[string](p, `document.querySelector('[data-testid="sources-button"] .badge').textContent`); got != "4" {
		t.Errorf("sources badge %q, want the four sources", got)
	}
	if usage := eval[string](p, `document.querySelector('[data-testid="usage"]').textContent`); !strings.Contains(usage, "9,870 in · 612 out · 1 web search") {
		t.Errorf("usage %q", usage)
	}
}

// TestAnthropicScreens saves screenshots of a cited answer with a focused
// marker, light and dark, at 360 px and on a desktop, for a person to look
// at (testdata/screens/anthropic-*.png); it checks the tooltip shows.
func TestAnthropicScreens(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1200} {
			name := "anthropic-" + theme + "-" + itoa(width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
				}); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: int64(width), Height: 860, DeviceScaleFactor: 1, Mobile: width < 500,
				}); err != nil {
					t.Fatal(err)
				}
				p.focused()
				p.replayURL("/scenarios/anthropic.jsonl", "max", "vi")
				p.waitJS(`window.__result`, 30*time.Second)
				if width > 500 {
					p.do(chromedp.Click(chromedp.CSS(`[data-testid="web-search"]`)),
						chromedp.Click(chromedp.CSS(`[data-testid="sources-button"]`)))
					// The panel takes the focus as it opens (after its
					// render): the marker is focused once it has, or the
					// panel would take it from the marker.
					p.waitJS(`document.querySelector('[data-testid="sources-group"]') && document.activeElement.id === "sources-close"`, 5*time.Second)
				}
				const third = `document.querySelectorAll('[data-testid="citation"]')[2]`
				p.do(chromedp.Evaluate[chromedp.Void](third + `.scrollIntoView({block: "center"}); ` + third + `.focus()`))
				p.waitJS(markerJS+`(`+third+`).TipVisible`, 3*time.Second)
				p.screenshot(name)
			})
		}
	}
}

// TestAnthropicNoticesAndServerToolsScreens saves screenshots of notices,
// redacted reasoning and server tools (errors open) for a person to look
// at; it checks each of them rendered.
func TestAnthropicNoticesAndServerToolsScreens(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			name := "anthropic-tools-" + theme + "-" + itoa(width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
				}); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: int64(width), Height: 1400, DeviceScaleFactor: 1, Mobile: width < 500,
				}); err != nil {
					t.Fatal(err)
				}
				p.replayURL("/fixtures/anthropic-server-tools.jsonl", "max", "fr")
				p.waitJS(`window.__result`, 30*time.Second)
				p.waitJS(conversation+`.textContent.includes("27 × 453 = 12,231.")`, 5*time.Second)
				for _, id := range []string{"srvtoolu_bash1", "srvtoolu_fetch1", "mcptoolu_alerts"} {
					p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="` + id + `"] .tool-row`)))
					p.waitJS(`document.querySelector('[data-tool-id="`+id+`"] .tool-details')`, 5*time.Second)
				}
				for _, want := range []string{"Le contexte précédent a été résumé", "Raisonnement masqué par le fournisseur du modèle",
					"Le fichier produit est trop volumineux pour être renvoyé.", "Effective Go", "Upstream timeout"} {
					if !eval[bool](p, conversation+`.textContent.includes(`+jsString(want)+`)`) {
						t.Errorf("the page does not show %q", want)
					}
				}
				p.screenshot(name)

				p.replayURL("/fixtures/anthropic-stop-reasons.jsonl", "max", "en")
				p.waitJS(`window.__result`, 30*time.Second)
				if n := eval[int](p, `document.querySelectorAll('[data-kind="notice"]').length`); n != 2 {
					t.Errorf("%d notices, want 2", n)
				}
				p.screenshot(strings.Replace(name, "tools", "notices", 1))
			})
		}
	}
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
