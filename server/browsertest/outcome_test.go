//go:build browser

package browsertest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A one-question form, in a running turn.
var questionTurn = []string{
	`{"type":"user_message","text":"/question"}`,
	`{"type":"message_start","message":{"id":"m1","role":"assistant","message_type":"chat"}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"approval_request","approval_key":"q1","action_requests":[{"name":"ask_user_question","args":{"questions":[{"question":"Which sector?","multiSelect":false,"options":[{"label":"Banks"}]}]}}],"timeout_seconds":600}}`,
}

// Issue 8, defect 8: a refused command comes back to what sent it. The
// refused answer returns the form from "Sending…" to editable with the
// reason, and it can be sent again; a refused message says so on itself,
// with a retry. Over WebSocket the refusal is a command_result, over SSE the
// POST's status (sent as application/json).
func TestRefusedCommandsComeBack(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) {
			b := newFakeBackend("running")
			var mu sync.Mutex
			answers := 0
			b.onCommand = func(f map[string]any) (bool, string) {
				mu.Lock()
				defer mu.Unlock()
				switch f["type"] {
				case "approval":
					if answers++; answers == 1 {
						return false, "The question is not open yet."
					}
					b.emit(`{"type":"approval_result","approval_key":"q1","answers":{"Which sector?":"Banks"}}`,
						`{"type":"message_stop"}`)
					return true, ""
				case "user_message":
					return false, "The agent is busy."
				}
				return true, ""
			}
			b.emit(questionTurn...)
			p := newPage(t)
			p.openAt(b.serve(t), "/?session=outcome&lang=en&transport="+transport)
			p.waitConnected()
			form := `document.querySelector('[data-kind="question"][data-state="pending"]')`
			submit := `document.querySelector('[data-testid="question-submit"]')`
			p.waitJS(form, 10*time.Second)
			p.do(chromedp.Click(chromedp.CSS(`[data-kind="question"] label.option`)))
			p.waitJS(`document.querySelector('[data-kind="question"] input:checked')`, 5*time.Second)
			p.do(chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
			p.waitJS(form+` && `+form+`.querySelector('[data-testid="form-error"]')`, 10*time.Second)
			p.waitJS(`!`+submit+`.disabled`, 5*time.Second)
			if got := eval[string](p, form+`.querySelector('[data-testid="form-error"]').textContent`); got != "Could not send: The question is not open yet." {
				t.Errorf("form error = %q", got)
			}
			if got := eval[string](p, submit+`.textContent`); got != "Submit answers" {
				t.Errorf("submit button = %q, want it back from Sending…", got)
			}
			if !eval[bool](p, `document.querySelector('[data-kind="question"] input:checked') !== null`) {
				t.Error("the refusal lost the choice")
			}
			p.screens("refused-answer")

			p.do(chromedp.Click(chromedp.CSS(`[data-testid="question-submit"]`)))
			p.waitJS(`document.querySelector('[data-kind="question"][data-state="answered"]')`, 10*time.Second)
			p.waitJS(agentStatus+` === "idle"`, 10*time.Second)

			// A refused message says so on itself, with its retry
			// (sending_test.go has the rest).
			p.send("hello")
			p.waitJS(`document.querySelector('[data-testid="outgoing"][data-state="failed"] [data-testid="outgoing-retry"]')`, 10*time.Second)
			if got := eval[string](p, `document.querySelector('[data-testid="outgoing"] .outgoing-text').textContent`); got != "Not sent: The agent is busy." {
				t.Errorf("the refused message says %q", got)
			}
			p.screens("refused-message")

			frames, types := b.received()
			for _, f := range frames {
				if id, _ := f["command_id"].(string); id == "" && f["type"] != "subscribe" {
					t.Errorf("a command without command_id: %v", f)
				}
			}
			if transport == "sse" {
				if len(types) != 3 {
					t.Errorf("%d POSTs, want 3", len(types))
				}
				for _, ct := range types {
					if !strings.HasPrefix(ct, "application/json") {
						t.Errorf("a command POSTed as %q", ct)
					}
				}
			}
		})
	}
}
