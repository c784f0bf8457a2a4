//go:build browser

package browsertest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// writePNG writes a w × h PNG into dir, named name.
func writePNG(t *testing.T, dir, name string, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(40 + x*4), 90, uint8(200 - y*3), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, b.Bytes())
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// attach picks files with the composer's file input.
func (p *page) attach(paths ...string) {
	p.t.Helper()
	p.do(chromedp.SetUploadFiles(`[data-testid="attach-input"]`, paths, chromedp.NodeReady))
}

const (
	draftFiles = `[...document.querySelectorAll('[data-testid="draft-file"]')]`
	userTurn   = `[...document.querySelectorAll('.user-turn')]`
)

// Files attached with the button, a drop and a paste show as chips in the
// composer, upload (their chips say when they are done), and go with the
// message: the demo agent answers about what it received, the sent
// message shows the picture as a thumbnail and the CSV as a chip with a
// download link, and F5 shows them again. A refused file keeps its chip
// with the reason, and what was typed stays in the composer.
func TestAttachFilesSendAndReload(t *testing.T) {
	p := newPage(t)
	dir := t.TempDir()
	pic := writePNG(t, dir, "chart.png", 40, 30)
	csv := writeFile(t, dir, "notes.csv", []byte("city,price\nHanoi,12\nHue,9\n"))
	empty := writeFile(t, dir, "empty.txt", nil)

	p.open("/?session=attach-files&lang=en")
	p.waitConnected()
	p.attach(pic, csv)
	p.waitJS(draftFiles+`.length === 2 && `+draftFiles+`.every(c => c.dataset.state === "done")`, 20*time.Second)
	if src := eval[string](p, `document.querySelector('[data-testid="draft-file"] img')?.src || ""`); len(src) < 5 || src[:5] != "blob:" {
		t.Errorf("the picture's chip shows %q, not its preview", src)
	}

	// A refused file: its chip says why, and nothing else is lost.
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), "What is in these?"))
	p.attach(empty)
	p.waitJS(`document.querySelector('[data-testid="draft-file-error"]')?.textContent.includes("empty.txt is empty")`, 5*time.Second)
	if got := eval[string](p, `document.querySelector('[data-testid="composer"]').value`); got != "What is in these?" {
		t.Errorf("the composer holds %q", got)
	}
	p.axe("composer with files")
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="draft-file"].is-error [data-testid="remove-file"]`), chromedp.NodeVisible))
	p.waitJS(draftFiles+`.length === 2`, 5*time.Second)
	// The focus goes to the composer, not to the body.
	p.waitJS(`document.activeElement?.dataset.testid === "composer"`, 5*time.Second, `document.activeElement?.outerHTML`)

	p.do(chromedp.Focus(chromedp.CSS(`[data-testid="composer"]`)))
	p.pressEnter()
	p.waitJS(draftFiles+`.length === 0`, 5*time.Second)
	sent := `(u => u && u.querySelector('[data-testid="picture"] img')?.naturalWidth === 40 && ` +
		`u.querySelector('a[data-testid="attachment"]')?.textContent.includes("notes.csv"))(` + userTurn + `.pop())`
	p.waitJS(sent, 20*time.Second)
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="conversation"]').textContent.includes("I received 2 files")`, 30*time.Second)
	if got := eval[string](p, `document.querySelector('[data-testid="conversation"]').textContent`); !bytes.Contains([]byte(got), []byte("40 × 30 pixels")) || !bytes.Contains([]byte(got), []byte("Hanoi,12")) {
		t.Errorf("the agent's answer does not describe the files: %q", got)
	}
	p.axe("message with files")

	p.reload()
	p.waitConnected()
	p.waitJS(sent, 20*time.Second)

	// A drop and a paste attach files too.
	eval[bool](p, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["a,b\n1,2\n"], "dropped.csv", {type: "text/csv"}));
		const col = document.querySelector('main.column');
		col.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		col.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	p.waitJS(draftFiles+`.some(c => c.textContent.includes("dropped.csv") && c.dataset.state === "done")`, 10*time.Second)
	eval[bool](p, `(async () => {
		const blob = await (await fetch(document.querySelector('.user-turn [data-testid="picture"] img').src)).blob();
		const dt = new DataTransfer();
		dt.items.add(new File([blob], "pasted.png", {type: "image/png"}));
		document.querySelector('[data-testid="composer"]').dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	p.waitJS(draftFiles+`.some(c => c.textContent.includes("pasted.png") && c.dataset.state === "done")`, 10*time.Second)
}

const (
	userBranch   = `document.querySelector('.user-turn [data-testid="branch"]')`
	answerBranch = `document.querySelector('.answer-actions [data-testid="branch"]')`
	userTexts    = `[...document.querySelectorAll('[data-kind="user"] .bubble')].map(b => b.textContent).join("|")`
)

// Regenerate an answer and edit a sent message against the demo agent:
// each makes a version, "‹ 2 / 2 ›" switches between them (the rest of
// the conversation follows), the focus stays on the switcher, and F5
// shows the version that was shown. Thumbs rate an answer, with a
// comment, and the rating survives F5 too.
func TestEditRegenerateBranchesAndFeedback(t *testing.T) {
	p := newPage(t)
	p.open("/?session=branches&lang=en")
	p.waitConnected()
	p.send("/markdown")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="regenerate"]')`, 30*time.Second)

	p.do(chromedp.Click(chromedp.CSS(`[data-testid="regenerate"]`), chromedp.NodeVisible))
	p.waitJS(agentStatus+` === "idle" && `+answerBranch+`?.textContent.includes("2 / 2")`, 30*time.Second)

	// Edit the message in place: Enter sends the new version.
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="edit"]`), chromedp.NodeVisible))
	p.waitJS(`document.activeElement?.dataset.testid === "edit-input"`, 5*time.Second)
	p.axe("editing a message")
	eval[bool](p, `(e => { e.value = ""; return true })(document.querySelector('[data-testid="edit-input"]'))`)
	p.do(chromedp.SendKeys(`[data-testid="edit-input"]`, "/plan", chromedp.NodeReady))
	p.pressEnter()
	p.waitJS(agentStatus+` === "idle" && `+userTexts+` === "/plan" && `+userBranch+`?.textContent.includes("2 / 2")`, 30*time.Second)
	// The focus, on the old version's edit button, goes to the new one's.
	if got := eval[string](p, `document.activeElement?.closest('.user-turn') ? document.activeElement.dataset.testid : (document.activeElement?.dataset.testid || document.activeElement?.tagName)`); got != "edit" {
		t.Errorf("after an edit is sent the focus is on %q, not on the new version's edit button", got)
	}

	// Back to the first version: its answer (the regenerated one, version
	// 2 of 2) follows.
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="branch-previous"]`), chromedp.NodeVisible))
	p.waitJS(userTexts+` === "/markdown" && `+userBranch+`?.textContent.includes("1 / 2") && `+answerBranch+`?.textContent.includes("2 / 2")`, 10*time.Second)
	if id := eval[string](p, `document.activeElement?.closest('[data-testid="branch"]') ? "in" : (document.activeElement?.dataset.testid || document.activeElement?.tagName)`); id != "in" {
		t.Errorf("after switching versions the focus is on %q, not on the switcher", id)
	}
	p.axe("versions")

	// Rate the answer, with a comment.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="feedback-down"]`), chromedp.NodeVisible))
	p.waitJS(`document.querySelector('[data-testid="feedback"]').dataset.rating === "down" && document.activeElement?.dataset.testid === "feedback-comment"`, 10*time.Second)
	p.do(chromedp.SendKeys(`[data-testid="feedback-comment"]`, "The table is wrong.", chromedp.NodeReady))
	p.pressEnter()
	p.waitJS(`document.querySelector('[data-testid="feedback-note"]')`, 10*time.Second)

	p.reload()
	p.waitConnected()
	p.waitJS(userTexts+` === "/markdown" && `+userBranch+`?.textContent.includes("1 / 2") && `+answerBranch+`?.textContent.includes("2 / 2") && `+
		`document.querySelector('[data-testid="feedback"]')?.dataset.rating === "down" && document.querySelector('[data-testid="feedback-down"]').getAttribute('aria-pressed') === "true"`, 20*time.Second)

	// The other version again, after F5.
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="branch-next"]`), chromedp.NodeVisible))
	p.waitJS(userTexts+` === "/plan" && `+userBranch+`?.textContent.includes("2 / 2")`, 10*time.Second)
}

// An edit that cannot go (here: too large for a frame; the backend's
// refusals take the same way back) leaves its editor open with the text
// typed and why, the focus in it; Escape then puts the message back as
// it was, and nothing was sent. An edit half typed survives F5.
func TestRefusedEditKeepsItsText(t *testing.T) {
	p := newPage(t)
	p.open("/?session=edit-refused&lang=en")
	p.waitConnected()
	p.send("first question")
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="regenerate"]')`, 30*time.Second)

	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="edit"]`), chromedp.NodeVisible))
	p.waitJS(`document.activeElement?.dataset.testid === "edit-input"`, 5*time.Second)
	eval[bool](p, `(e => { e.value = "Say it again, shorter. ".repeat(3000); return true })(document.querySelector('[data-testid="edit-input"]'))`)
	p.pressEnter()
	p.waitJS(`document.querySelector('[data-testid="edit-error"]')?.textContent.includes("too long") && `+
		`document.activeElement?.dataset.testid === "edit-input" && document.activeElement.value.length === 68999`, 10*time.Second)
	p.axe("an edit refused")
	p.shots("edit-refused")
	// Sent again as it is, refused again: the editor is open with the text,
	// the reason said again (a new alert: the old one is marked).
	eval[bool](p, `(e => { e.dataset.old = "yes"; return true })(document.querySelector('[data-testid="edit-error"]'))`)
	p.pressEnter()
	p.waitJS(`(e => e && !e.dataset.old && e.textContent.includes("too long"))(document.querySelector('[data-testid="edit-error"]')) && `+
		`document.activeElement?.dataset.testid === "edit-input" && document.activeElement.value.length === 68999`, 10*time.Second)

	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!document.querySelector('[data-testid="edit-form"]') && `+userTexts+` === "first question" && document.activeElement?.dataset.testid === "edit"`, 5*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-testid="branch"]').length`); n != 0 {
		t.Errorf("%d version switchers after an edit that was not sent", n)
	}

	// An edit half typed survives F5: its editor is open again with it.
	p.do(chromedp.Click(chromedp.CSS(`.user-turn [data-testid="edit"]`), chromedp.NodeVisible))
	p.waitJS(`document.activeElement?.dataset.testid === "edit-input"`, 5*time.Second)
	p.do(chromedp.SendKeys(`[data-testid="edit-input"]`, " and why", chromedp.NodeReady))
	p.reload()
	p.waitConnected()
	p.waitJS(`document.activeElement?.dataset.testid === "edit-input" && document.activeElement.value === "first question and why" && !document.querySelector('[data-testid="edit-error"]')`, 10*time.Second)
	p.pressEnter()
	p.waitJS(agentStatus+` === "idle" && `+userTexts+` === "first question and why" && `+userBranch+`?.textContent.includes("2 / 2")`, 30*time.Second)
	// Sent, it is no draft any more.
	p.reload()
	p.waitConnected()
	p.waitJS(userTexts+` === "first question and why"`, 10*time.Second)
	if n := eval[int](p, `document.querySelectorAll('[data-testid="edit-form"]').length`); n != 0 {
		t.Errorf("%d editors open after F5 once the edit was sent", n)
	}
}

// Export offers the conversation as Markdown and as JSON, named after it.
func TestExportConversation(t *testing.T) {
	p := newPage(t)
	p.open("/?session=export-me&lang=en")
	p.waitConnected()
	p.send("/markdown")
	p.waitJS(agentStatus+` === "idle"`, 30*time.Second)
	md, js := p.exportBoth("conversation-export-me")
	if !strings.Contains(md, "## You\n\n/markdown") {
		t.Errorf("Markdown export: %q", md)
	}
	if !strings.Contains(js, `"items"`) {
		t.Errorf("JSON export: %q", js)
	}
}

// exportBoth exports the conversation shown as Markdown, then as JSON,
// from the header's menu, and gives back what the files hold; they must
// be named name.md and name.json, and the focus must come back to the
// menu's button.
func (p *page) exportBoth(name string) (markdown, json string) {
	p.t.Helper()
	// The files the page makes are caught as they are clicked.
	eval[bool](p, `(() => { window.__downloads = [];
		const make = URL.createObjectURL;
		URL.createObjectURL = b => { const u = make(b); b.text().then(t => window.__downloads.push(t)); return u; };
		const click = HTMLAnchorElement.prototype.click;
		HTMLAnchorElement.prototype.click = function () { if (this.download) { window.__downloads.push(this.download); return; } return click.call(this); };
		return true; })()`)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="export"]`), chromedp.NodeVisible))
	p.waitJS(`document.querySelector('[data-testid="export-markdown"]')`, 5*time.Second)
	p.axe("export menu")
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="export-markdown"]`), chromedp.NodeVisible))
	p.waitJS(`window.__downloads.length === 2`, 5*time.Second)
	if tid := eval[string](p, `document.activeElement?.dataset.testid || ""`); tid != "export" {
		p.t.Errorf("after the export the focus is on %q", tid)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="export"]`), chromedp.NodeVisible))
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="export-json"]`), chromedp.NodeVisible))
	p.waitJS(`window.__downloads.length === 4`, 5*time.Second)
	got := eval[[]string](p, `window.__downloads`)
	if got[0] != name+".md" || got[2] != name+".json" {
		p.t.Errorf("exported as %q and %q", got[0], got[2])
	}
	return got[1], got[3]
}

// TestUserHalfScreens saves the user's half, light and dark, at 360 px
// and on a desktop (testdata/screens/userhalf-*.png): a message sent with
// a picture and a file, a regenerated answer with its versions and a
// rating, and the composer holding two files, one refused.
func TestUserHalfScreens(t *testing.T) {
	p := newPage(t)
	dir := t.TempDir()
	pic := writePNG(t, dir, "chart.png", 40, 30)
	csv := writeFile(t, dir, "notes.csv", []byte("city,price\nHanoi,12\n"))
	p.open("/?session=userhalf-screens&lang=en")
	p.waitConnected()
	p.attach(pic, csv)
	p.waitJS(draftFiles+`.length === 2 && `+draftFiles+`.every(c => c.dataset.state === "done")`, 20*time.Second)
	p.do(chromedp.SendKeys(`[data-testid="composer"]`, "Compare these", chromedp.NodeReady))
	p.pressEnter()
	p.waitJS(agentStatus+` === "idle" && document.querySelector('[data-testid="regenerate"]')`, 30*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="regenerate"]`), chromedp.NodeVisible))
	p.waitJS(agentStatus+` === "idle" && `+answerBranch+`?.textContent.includes("2 / 2")`, 30*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="feedback-up"]`), chromedp.NodeVisible))
	p.waitJS(`document.querySelector('[data-testid="feedback"]').dataset.rating === "up"`, 10*time.Second)
	p.attach(pic, writeFile(t, dir, "setup.exe", []byte("MZ")))
	p.waitJS(draftFiles+`.length === 2 && document.querySelector('[data-testid="draft-file-error"]')`, 20*time.Second)
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1200} {
			p.sized(theme, width)
			eval[float64](p, `document.querySelector('[data-testid="conversation"]').scrollTop = 1e9`)
			// The sidebar becomes a drawer below 900 px: it slides away.
			p.waitJS(`!document.getAnimations().some(a => a instanceof CSSTransition && a.playState === "running")`, 5*time.Second)
			// Nothing wider than the window: the page never scrolls sideways.
			if wide := eval[[]string](p, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && e.getClientRects().length && !e.closest('.sidebar-wrap')).map(e => e.tagName + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)`); len(wide) > 0 || eval[float64](p, `scrollX + document.scrollingElement.scrollLeft`) != 0 {
				t.Errorf("%s at %d px: wider than the window: %v", theme, width, wide)
			}
			p.screenshot("userhalf-" + theme + "-" + itoa(width))
		}
	}
}
