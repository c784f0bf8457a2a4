//go:build browser

package browsertest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestApprovalDoubleClickSendsOneFrame(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/approval.jsonl", "max", "en")
	p.waitJS(`window.__result`, 20*time.Second)
	card := `document.querySelector('[data-kind="approval"]')`
	p.waitJS(card+` && `+card+`.dataset.state === "pending"`, 5*time.Second)
	// The card sits in the group, right after the tool it concerns, which awaits.
	if got := eval[string](p, card+`.closest('.step').previousElementSibling.closest('[data-kind="tool"]').dataset.status`); got != "awaiting" {
		t.Fatalf("tool before the card is %q, want awaiting", got)
	}
	if title := eval[string](p, card+`.querySelector('.approval-title').textContent`); title != "Allow Đặt lệnh mua VCB to run?" {
		t.Errorf("title = %q", title)
	}
	decisions := eval[[]string](p, `[...`+card+`.querySelectorAll('button[data-decision]')].map(b => b.dataset.decision)`)
	if want := []string{"approve", "edit", "reject", "respond"}; !reflect.DeepEqual(decisions, want) {
		t.Fatalf("decision buttons %v, want %v", decisions, want)
	}
	p.do(chromedp.DoubleClick(chromedp.CSS(`[data-kind="approval"] button[data-decision="approve"]`)))
	p.waitJS(`(window.__stepwiseFrames || []).length > 0`, 10*time.Second)
	// Both clicks have been handled once the card shows it is sending and
	// two more animation frames have passed (go-app renders once a frame):
	// a second frame would have been recorded by then.
	p.waitJS(`[...`+card+`.querySelectorAll('button[data-decision]')].every(b => b.disabled)`, 10*time.Second)
	p.waitJS(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 10*time.Second)
	frames := p.frames()
	if len(frames) != 1 {
		t.Fatalf("a double click sent %d frames: %v", len(frames), frames)
	}
	want := []any{map[string]any{"type": "approve"}}
	if f := frames[0]; f["type"] != "approval" || f["approval_key"] != "s1_ap" || !reflect.DeepEqual(f["decisions"], want) {
		t.Fatalf("frame = %v", frames[0])
	}
}

func TestApprovalEditRefusesInvalidJSON(t *testing.T) {
	p := newPage(t)
	p.replayURL("/fixtures/approval.jsonl", "max", "en")
	p.waitJS(`document.querySelector('[data-kind="approval"][data-state="pending"]')`, 20*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="approval"] button[data-decision="edit"]`)))
	p.waitJS(`document.querySelector('[data-kind="approval"] textarea.json-editor')`, 2*time.Second)
	editor := chromedp.CSS(`[data-kind="approval"] textarea.json-editor`)
	eval[bool](p, `(() => { const e = document.querySelector('[data-kind="approval"] textarea.json-editor');
		e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
	p.do(chromedp.SendKeys(editor, `{"symbol": "VCB", "quantity": 50`),
		chromedp.Click(chromedp.CSS(`[data-testid="approval-send"]`)))
	p.waitJS(`document.querySelector('[data-kind="approval"] .form-error')`, 2*time.Second)
	if msg := eval[string](p, `document.querySelector('[data-kind="approval"] .form-error').textContent`); !strings.HasPrefix(msg, "Invalid JSON") {
		t.Errorf("error = %q", msg)
	}
	if n := len(p.frames()); n != 0 {
		t.Fatalf("invalid JSON sent %d frames", n)
	}
	p.do(chromedp.SendKeys(editor, `}`), chromedp.Click(chromedp.CSS(`[data-testid="approval-send"]`)))
	p.waitJS(`(window.__stepwiseFrames || []).length > 0`, 2*time.Second)
	f := p.frames()[0]
	want := []any{map[string]any{"type": "edit", "edited_action": map[string]any{
		"name": "place_order", "args": map[string]any{"symbol": "VCB", "quantity": float64(50)}}}}
	if !reflect.DeepEqual(f["decisions"], want) {
		t.Fatalf("decisions = %v, want %v", f["decisions"], want)
	}
}
