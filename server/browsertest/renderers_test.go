//go:build browser

package browsertest

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The built-in renderers (docs/renderers.md) in the real page, on streams
// recorded by the AI SDK's Anthropic provider tests (state/testdata/
// upstream/vercel-ai/anthropic; copies under testdata, checked against
// them).

// sameFixture fails unless testdata/fixture is a copy of original.
func sameFixture(t *testing.T, fixture, original string) {
	t.Helper()
	a, err := os.ReadFile("testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(original)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("testdata/%s differs from %s", fixture, original)
	}
}

// openGroups opens every closed group of the conversation.
func (p *page) openGroups() {
	p.t.Helper()
	for i := 0; i < 50 && eval[bool](p, `!!document.querySelector('[data-kind="group"] .group-header[aria-expanded="false"]')`); i++ {
		p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header[aria-expanded="false"]`)))
	}
}

// openTool opens a tool's details and returns the selector of its root.
func (p *page) openTool(id string) string {
	p.t.Helper()
	sel := `[data-tool-id="` + id + `"]`
	p.do(chromedp.Click(chromedp.CSS(sel + ` .tool-row`)))
	p.waitJS(`document.querySelector('`+sel+` .code-run')`, 5*time.Second)
	return sel
}

// A skill's run with code execution: files viewed and created, commands
// with output, errors and an exit code, edits as diffs, a file made. Each
// shows as what it is, never as the result's JSON.
func TestCodeToolsDrawnAsWhatTheyAre(t *testing.T) {
	const up = "../../state/testdata/upstream/vercel-ai/anthropic/"
	sameFixture(t, "upstream-anthropic-code-skill.jsonl", up+"anthropic-code-execution-20250825.pptx-skill.chunks.txt")
	sameFixture(t, "upstream-anthropic-tool-search.jsonl", up+"anthropic-tool-search-deferred-regex.chunks.txt")
	p := newPage(t)
	p.replayURL("/fixtures/upstream-anthropic-code-skill.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	sameAsGolden(t, p, up+"anthropic-code-execution-20250825.pptx-skill.view.json")
	p.openGroups()

	text := func(sel string) string { return eval[string](p, `document.querySelector('`+sel+`').textContent`) }
	// The row says what ran before it is opened.
	if got := text(`[data-tool-id="srvtoolu_01S5SVmuCHt4vjbgt8AWwdZg"] .code-preview`); got != "cd /tmp && node create_presentation.js" {
		t.Errorf("command preview %q", got)
	}
	if got := text(`[data-tool-id="srvtoolu_01Cq5HzojbaLrsQTvdHW4VNK"] .code-preview`); got != "/skills/pptx/SKILL.md" {
		t.Errorf("path preview %q", got)
	}

	// A command whose errors went to stderr, exit 0.
	run := p.openTool("srvtoolu_01S5SVmuCHt4vjbgt8AWwdZg")
	if got := text(run + ` .terminal-command`); got != "$ cd /tmp && node create_presentation.js" {
		t.Errorf("terminal command %q", got)
	}
	if got := text(run + ` .terminal-err`); !strings.Contains(got, `Text box "The Future is Renewable" ends too close to bottom edge`) {
		t.Errorf("stderr %q", got)
	}
	if got := text(run + ` .exit-code`); got != "exit 0" || eval[bool](p, `document.querySelector('`+run+` .exit-code').classList.contains("failed")`) {
		t.Errorf("exit code %q", got)
	}
	// One that exited 1.
	failed := p.openTool("srvtoolu_01CwLPrEurEQ4ruCJua94vHC")
	if !eval[bool](p, `document.querySelector('`+failed+` .exit-code.failed').textContent === "exit 1"`) {
		t.Error("exit 1 is not shown as a failure")
	}
	if got := text(failed + ` .terminal-out`); !strings.Contains(got, "Error: PDF conversion failed") {
		t.Errorf("stdout %q", got)
	}
	// One that made a file.
	made := p.openTool("srvtoolu_01AHZTbXCnWcLhc3My3nNYPT")
	if got := text(made + ` .code-chips`); got != "Files made:file_011CUJNRcxM3JHxL8b5QGrNT" {
		t.Errorf("files made %q", got)
	}

	// A file viewed, with its line numbers.
	view := p.openTool("srvtoolu_01Cq5HzojbaLrsQTvdHW4VNK")
	if got := text(view + ` .code-path`); got != "/skills/pptx/SKILL.md" {
		t.Errorf("viewed path %q", got)
	}
	if got := text(view + ` .file-code`); !strings.HasPrefix(got, "---\nname: PowerPoint Suite\n") {
		t.Errorf("viewed file starts %q", got[:min(len(got), 60)])
	}
	if got := text(view + ` .file-gutter`); !strings.HasPrefix(got, "1\n2\n3\n") {
		t.Errorf("gutter starts %q", got[:min(len(got), 10)])
	}

	// An edit as a diff, numbered from line 9.
	edit := p.openTool("srvtoolu_019LmqPHLi2gTLpQYqwPC9tE")
	dels := eval[[]string](p, `[...document.querySelectorAll('`+edit+` .diff-del')].map(e => e.textContent)`)
	adds := eval[[]string](p, `[...document.querySelectorAll('`+edit+` .diff-add')].map(e => e.textContent)`)
	if len(dels) != 1 || dels[0] != "-  margin: 60pt;\n" || len(adds) != 1 || adds[0] != "+  margin: 50pt 60pt 60pt 60pt;\n" {
		t.Errorf("diff removed %q, added %q", dels, adds)
	}
	if got := text(edit + ` .diff-stat`); got != "+1 −1" {
		t.Errorf("diff stat %q", got)
	}
	if got := eval[string](p, `document.querySelector('`+edit+` .diff-body').getAttribute("aria-label")`); got != "Changes to /tmp/slide4.html: 1 lines added, 1 removed" {
		t.Errorf("diff name %q", got)
	}
	if got := text(edit + ` .file-gutter`); !strings.HasPrefix(got, "   9    9\n  10   10\n  11   11\n  12\n       12\n") {
		t.Errorf("diff gutter %q", got)
	}
	// Nothing opened shows the result's JSON.
	if details := eval[string](p, `[...document.querySelectorAll('.code-run')].map(e => e.textContent).join("\n")`); strings.Contains(details, `"type"`) || strings.Contains(details, "_result") {
		t.Errorf("a code run shows JSON: %q", details[:min(len(details), 300)])
	}
	p.axe("code tools")
	eval[bool](p, `(document.querySelector('`+edit+`').scrollIntoView({block: "start"}), true)`)
	p.screens("code-tools")

	// Tool search: what it looked for and the tools it found.
	p.replayURL("/fixtures/upstream-anthropic-tool-search.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	p.openGroups()
	search := `[data-tool-id="srvtoolu_01H4HgrFsi9xizPtvnx1Tm7D"]`
	if got := text(search + ` .code-preview`); got != "2 tools found" {
		t.Errorf("tool search preview %q", got)
	}
	p.openTool("srvtoolu_01H4HgrFsi9xizPtvnx1Tm7D")
	if got := eval[[]string](p, `[...document.querySelectorAll('`+search+` .code-chips li')].map(e => e.textContent)`); strings.Join(got, ",") != "readNoteTree,executeEditorOperation" {
		t.Errorf("tools found %q", got)
	}
	if got := text(search + ` .code-head`); !strings.HasPrefix(got, "Searched for: ") {
		t.Errorf("tool search head %q", got)
	}
	p.axe("tool search")
	p.screens("tool-search")
}

// Images in tool results: a base64 image shows as a thumbnail within the
// page's CSP, named, opening full size in a modal dialog that Escape closes; an
// image elsewhere on the web is a link, never fetched.
func TestToolResultImages(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/tool-images.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	p.openGroups()
	const thumb = `document.querySelector('[data-tool-id="toolu_plot"] [data-testid="picture"] img')`
	p.waitJS(thumb+` && `+thumb+`.complete && `+thumb+`.naturalWidth === 240`, 5*time.Second)
	if !eval[bool](p, thumb+`.src.startsWith("data:image/png;base64,")`) {
		t.Error("the thumbnail is not the result's data")
	}
	const open = `document.querySelector('[data-tool-id="toolu_plot"] [data-testid="picture"]')`
	if got := eval[string](p, open+`.getAttribute("aria-label")`); got != "Open full size: Image 1 returned by Plot chart" {
		t.Errorf("thumbnail button named %q", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-tool-id="toolu_plot"] [data-testid="picture"]`)))
	const popover = `document.querySelector('[data-tool-id="toolu_plot"] [data-testid="lightbox"]')`
	p.waitJS(popover+`.open && `+popover+`.matches(":modal")`, 5*time.Second)
	if got := eval[string](p, popover+`.querySelector("img").alt`); got != "Image 1 returned by Plot chart" {
		t.Errorf("full-size image alt %q", got)
	}
	p.axe("tool image full size")
	p.screens("tool-image-open")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!`+popover+`.open && document.activeElement === `+open, 5*time.Second)

	link := eval[[]string](p, `(a => a ? [a.href, a.target, a.rel, a.textContent] : [])(document.querySelector('[data-tool-id="toolu_web"] .tool-image-link'))`)
	if len(link) != 4 || link[0] != "https://images.example.com/chart.png" || link[1] != "_blank" || link[2] != "noopener noreferrer" ||
		link[3] != "Image 1 returned by Find picture, on images.example.com (opens in a new tab)" {
		t.Errorf("external image link %q", link)
	}
	if n := eval[int](p, `performance.getEntriesByType("resource").filter(e => e.name.includes("example.com")).length + document.querySelectorAll('img[src*="example.com"]').length`); n != 0 {
		t.Errorf("the page fetched or would fetch the external image (%d)", n)
	}
	p.axe("tool images")
	p.screens("tool-images")
}

// Mermaid fences drawn as diagrams in a sandboxed frame of an opaque
// origin, sized to the diagram, the source one click away; a diagram whose
// text tries script runs none.
func TestMermaidDiagrams(t *testing.T) {
	if _, err := os.Stat("../../web/mermaid/mermaid.min.js"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("Mermaid is not installed: make build runs npm ci in web/mermaid")
		}
		t.Skip("Mermaid is not installed (make build with npm)")
	}
	p := newPage(t)
	p.replayURL("/fixtures/mermaid.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	const frames = `[...document.querySelectorAll('[data-kind="text"] iframe.mermaid-frame')]`
	p.waitJS(frames+`.length === 4 && `+frames+`.every(f => f.dataset.state)`, 30*time.Second, frames+`.map(f => f.dataset.state).join()`)
	states := eval[[]string](p, frames+`.map(f => f.dataset.state)`)
	if strings.Join(states, ",") != "drawn,drawn,drawn,drawn" {
		t.Errorf("diagram states %q", states)
	}
	type frame struct {
		Sandbox, Title string
		Opaque         bool
		Height         float64
	}
	for i, f := range eval[[]frame](p, frames+`.map(f => ({Sandbox: f.getAttribute("sandbox"), Title: f.title, Opaque: f.contentDocument === null, Height: f.getBoundingClientRect().height}))`) {
		if f.Sandbox != "allow-scripts" || !f.Opaque || f.Title != "Diagram" || f.Height < 60 {
			t.Errorf("frame %d: %+v", i, f)
		}
	}
	// The source in its fragment (never sent in a request), not its path
	// or query.
	if n := eval[int](p, `performance.getEntriesByType("resource").filter(e => e.name.includes("frame.html") && e.name.split("#")[0].includes("flowchart")).length`); n != 0 {
		t.Errorf("the diagram's source went to the server")
	}
	if len(p.dialogs) != 0 {
		t.Errorf("a diagram ran script: %q", p.dialogs)
	}

	// The source, one click away, and back.
	const toggle = `document.querySelector('[data-kind="text"] .mermaid .mermaid-toggle')`
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="text"] .mermaid .mermaid-toggle`)))
	p.waitJS(`document.querySelector('[data-kind="text"] .mermaid pre.md-code')`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('[data-kind="text"] .mermaid pre.md-code').textContent`); !strings.HasPrefix(got, "flowchart LR\n  U[Person] -->|types| C(Composer)") {
		t.Errorf("source %q", got)
	}
	if eval[string](p, toggle+`.getAttribute("aria-pressed")`) != "true" {
		t.Error("the source button does not say it is pressed")
	}
	p.axe("mermaid source")
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="text"] .mermaid .mermaid-toggle`)))
	p.waitJS(frames+`.length === 4 && `+frames+`.every(f => f.dataset.state === "drawn")`, 30*time.Second)
	p.axe("mermaid diagrams")
	if len(p.dialogs) != 0 {
		t.Errorf("a diagram ran script: %q", p.dialogs)
	}
	eval[bool](p, `(document.querySelector('[data-kind="text"]').scrollIntoView({block: "start"}), true)`)
	p.screens("mermaid")

	// A wide flowchart stays readable: shrunk to its box down to three
	// quarters of its size (Mermaid's 16 px labels at 12 px), then it
	// scrolls sideways and takes the keyboard's focus to do so.
	// Its screenshots wait for the frames to draw again in the new theme
	// and width (the page cannot see into them).
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			p.sized(theme, width)
			// The reader's choice, which mermaid-host.js tells the frames:
			// the emulated system theme does not reach a frame Chromium
			// runs in a process of its own.
			eval[bool](p, `(document.documentElement.dataset.theme = "`+theme+`", true)`)
			w := p.wideDiagram(func(w wideFit) bool { return w.Scrolls && w.Dark == (theme == "dark") })
			if w.Scale < 0.749 || w.Scale > 1 || !w.Focusable {
				t.Errorf("at %d px the wide diagram is drawn at %.2f of its size (focusable %v)", width, w.Scale, w.Focusable)
			}
			if screensWanted() {
				time.Sleep(500 * time.Millisecond) // the other frames' drawing and sizes
				eval[bool](p, `(document.querySelectorAll('[data-kind="text"] .mermaid')[2].scrollIntoView({block: "start"}), true)`)
				p.screenshot("mermaid-wide-" + theme + "-" + strconv.Itoa(width))
			}
		}
	}
}

// wideFit is how the wide diagram of testdata/mermaid.jsonl is drawn in its
// frame: the scale of its drawing to its own size, whether its box scrolls
// sideways and can then be focused.
type wideFit struct {
	Scale                    float64
	Scrolls, Focusable, Dark bool
}

// wideDiagram reads the wide diagram's fit from inside its frame (an
// opaque origin: the page cannot) once done says it is the one expected.
func (p *page) wideDiagram(done func(wideFit) bool) wideFit {
	p.t.Helper()
	const js = `const svg = document.querySelector("#diagram svg");
if (!svg || !location.hash.includes("Push")) return null;
const d = document.getElementById("diagram");
return {Scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width, Scrolls: d.scrollWidth > d.clientWidth, Focusable: d.tabIndex === 0, Dark: document.body.className === "dark"};`
	isMermaid := func(url, _ string) bool { return strings.Contains(url, "/web/mermaid/frame.html") }
	var last string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		frames := p.framesWhere(isMermaid)
		for i := 0; i < 4; i++ {
			got := p.inFrame(frames, serverURL+"/web/mermaid/frame.html", i, js)
			if got == "" || got == "null" {
				continue
			}
			last = got
			var w wideFit
			if json.Unmarshal([]byte(got), &w) == nil && done(w) {
				return w
			}
		}
	}
	p.t.Fatalf("the wide diagram: %s", last)
	return wideFit{}
}

// A diagram_generation activity (the activity dialect: a sentence, then
// the diagram's source) draws its diagram once opened, the sentence above
// it; one without a source stays text.
func TestDiagramActivityDrawn(t *testing.T) {
	if _, err := os.Stat("../../web/mermaid/mermaid.min.js"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("Mermaid is not installed: make build runs npm ci in web/mermaid")
		}
		t.Skip("Mermaid is not installed (make build with npm)")
	}
	p := newPage(t)
	p.replayURL("/fixtures/diagram-activity.jsonl", "max", "en")
	p.waitJS(`window.__result`, 30*time.Second)
	// The group has collapsed, as a finished one does; open it.
	const header = `document.querySelector('[data-kind="group"] .group-header')`
	p.waitJS(header+`?.getAttribute("aria-expanded") === "false"`, 10*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="group"] .group-header`)))
	const activities = `[...document.querySelectorAll('[data-activity-type="diagram_generation"]')]`
	p.waitJS(activities+`.length === 2`, 10*time.Second)
	eval[int](p, activities+`.forEach(a => a.querySelector('button.disclosure').click()), 0`)
	const frame = activities + `[0].querySelector('iframe.mermaid-frame')`
	p.waitJS(frame+`?.dataset.state === "drawn"`, 30*time.Second, frame+`?.dataset.state`, activities+`[0].innerText`)
	if got := eval[string](p, activities+`[0].querySelector('.activity-body p').textContent`); got != "project_timeline.png generated and saved as a PNG with this content:" {
		t.Errorf("the sentence above the diagram: %q", got)
	}
	if got := eval[string](p, activities+`[1].querySelector('.activity-body').textContent`); got != "No diagram could be generated this time." || eval[bool](p, activities+`[1].querySelector('iframe') !== null`) {
		t.Errorf("an activity without a diagram: %q", got)
	}
	p.axe("diagram-activity")
	p.screens("diagram-activity")
}
