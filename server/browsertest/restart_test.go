//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 8, item 1, the client's part: the server comes back without the
// log the page resumes from, and says so with a reset frame
// (docs/protocol-extensions.md#the-reset-frame).
// The page ends the run with a notice instead of a silent spinner, stays
// connected, shows the next turn (whose ids are smaller than the last it
// saw) and can stop it.
func TestResetEndsTheRunAndTheNextTurnShows(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) {
			b := newFakeBackend("running")
			b.emit(
				`{"type":"user_message","text":"/long"}`,
				`{"type":"message_start","message":{"id":"m1","role":"assistant","message_type":"chat"}}`,
				`{"type":"group_start","index":0}`,
				`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"get_price","input":{"symbol":"VNM"},"tool_content_message":"Price of VNM"}}`,
				`{"type":"content_block_stop","index":1}`,
			)
			p := newPage(t)
			p.openAt(b.serve(t), "/?session=restart&lang=en&transport="+transport)
			p.waitConnected()
			tool := `document.querySelector('[data-kind="tool"][data-tool-id="t1"]')`
			p.waitJS(tool+` && `+tool+`.dataset.status === "active" && `+agentStatus+` === "running"`, 10*time.Second)

			b.restart("idle")
			notice := `document.querySelector('[data-kind="notice"][data-reason="reset"]')`
			p.waitJS(notice, 15*time.Second)
			if got := eval[string](p, notice+`.querySelector('.notice-text').textContent`); got != "The connection to the agent was reset; the remaining steps of this run were lost." {
				t.Errorf("notice = %q", got)
			}
			p.waitJS(agentStatus+` === "idle"`, 5*time.Second)
			if got := eval[string](p, tool+`.dataset.status`); got != "interrupted" {
				t.Errorf("the tool is %q, want interrupted", got)
			}
			p.waitConnected()
			p.screens("reset-notice")

			// The next message is sent, played and shown, and Stop works.
			b.onCommand = func(f map[string]any) (bool, string) {
				switch f["type"] {
				case "user_message":
					b.setStatus("running")
					b.emit(`{"type":"user_message","text":"again"}`,
						`{"type":"message_start","message":{"id":"m2","role":"assistant","message_type":"chat"}}`,
						`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hello again"}}`)
				case "stop":
					b.setStatus("stopped")
					b.emit(`{"type":"terminal_user_stopped"}`)
				}
				return true, ""
			}
			p.send("again")
			p.waitJS(`[...document.querySelectorAll('[data-kind="user"]')].some(e => e.textContent === "again") && `+
				`[...document.querySelectorAll('[data-kind="text"]')].some(e => e.textContent.includes("Hello again"))`, 10*time.Second)
			p.waitJS(agentStatus+` === "running" && document.querySelector('[data-testid="stop"]')`, 5*time.Second)
			p.do(chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
			p.waitJS(`document.querySelector('[data-kind="stopped"]') && `+agentStatus+` === "stopped"`, 10*time.Second)
			if n := eval[int](p, `document.querySelectorAll('[data-kind="notice"]').length`); n != 1 {
				t.Errorf("%d notices, want 1", n)
			}
		})
	}
}
