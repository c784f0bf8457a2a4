//go:build browser

package browsertest

// What happens when the person sends (docs/interaction.md, "Sending"): a
// message on its way shows at once, waits for a lost connection, says on
// itself when it could not be sent, with a retry; a message sent while
// the agent runs is queued and goes out when the run ends; the notice
// closes; the composer's Enter follows input methods and touch keyboards;
// the header and the banner tell a lost network from a server that does
// not answer; a message too large for the server stays in the composer;
// an agent's endless, huge or silent stream leaves the page usable.

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	client "stepwise/app"
	"stepwise/server/agentproxy"
	"stepwise/server/site"
	"stepwise/state"
)

const (
	outgoing     = `document.querySelector('[data-testid="outgoing"]')`
	outgoingText = `(document.querySelector('[data-testid="outgoing"] .outgoing-text') || {}).textContent`
	composerText = `document.getElementById("composer-input").value`
	noticeText   = `((document.querySelector('[data-testid="notice"]') || {}).textContent || "")`
	connState    = `document.querySelector('[data-testid="connection"]').dataset.state`
	bannerText   = `(document.querySelector('[data-testid="offline"]') || {}).textContent`
)

// userTextsShown are the user messages the conversation shows (not the
// outgoing ones).
const userTextsShown = `[...document.querySelectorAll('[data-kind="user"] .bubble')].map(b => b.textContent)`

// typeAndSend puts text in the composer (as a paste would) and presses
// the send button.
func (p *page) typeAndSend(text string) {
	p.t.Helper()
	p.do(chromedp.SetValue(chromedp.CSS(`[data-testid="composer"]`), text))
	p.click(`[data-testid="send"]`)
}

// #37.4: a message sent while the server is down shows at once, waiting
// for the connection, and takes its place in the conversation once
// delivered; a message the server refuses says so on itself, and its
// Retry sends it. Over WebSocket and SSE.
func TestMessageWhileTheServerIsDown(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) {
			b := newFakeBackend("idle")
			refused := 0
			b.echoMessages(func(text string) string {
				if strings.HasPrefix(text, "refuse me") && refused == 0 {
					refused++
					return "No room for this one."
				}
				return ""
			})
			base := b.serve(t)
			p := newPage(t)
			p.openAt(base, "/?session=down-"+transport+"&lang=en&transport="+transport)
			p.waitConnected()

			b.setDown(true)
			p.waitJS(connState+` !== "open"`, 10*time.Second)
			// The browser is online: the banner blames the server.
			p.waitJS(bannerText+`.includes("The server cannot be reached")`, 10*time.Second, bannerText)
			p.send("hello while down")
			p.waitJS(outgoing+` && `+outgoing+`.dataset.state === "sending" && `+outgoingText+`.includes("Waiting for the connection")`, 5*time.Second, outgoingText)
			if got := eval[string](p, `document.querySelector('[data-testid="outgoing"] .bubble').textContent`); got != "hello while down" {
				t.Fatalf("the waiting message shows %q", got)
			}
			p.screenshot("sending-waiting-" + transport)

			b.setDown(false)
			p.waitJS(`!`+outgoing+` && JSON.stringify(`+userTextsShown+`) === '["hello while down"]'`, 30*time.Second, userTextsShown)

			p.send("refuse me")
			p.waitJS(outgoing+` && `+outgoing+`.dataset.state === "failed"`, 10*time.Second, outgoingText)
			if got := eval[string](p, outgoingText); !strings.Contains(got, "Not sent: No room for this one.") {
				t.Fatalf("the failed message says %q", got)
			}
			p.click(`[data-testid="outgoing-retry"]`)
			p.waitJS(`!`+outgoing+` && JSON.stringify(`+userTextsShown+`) === '["hello while down","refuse me"]'`, 10*time.Second, userTextsShown)
		})
	}
}

// #37 minor: the header says Offline as soon as the browser goes offline,
// and the banner says the network is gone; back online, the page
// reconnects at once.
func TestBrowserOfflineIsShownAtOnce(t *testing.T) {
	p := newPage(t)
	p.open("/?session=offline-badge&lang=en")
	p.waitConnected()
	setOffline(p, true)
	p.waitJS(connState+` === "closed" && `+bannerText+`.includes("You are offline")`, 5*time.Second, connState, bannerText)
	if got := eval[string](p, `document.querySelector('[data-testid="connection"]').textContent`); !strings.Contains(got, "Offline") {
		t.Fatalf("the header says %q", got)
	}
	p.send("sent while offline")
	p.waitJS(outgoing+` && `+outgoingText+`.includes("Waiting for the connection")`, 5*time.Second, outgoingText)
	setOffline(p, false)
	p.waitJS(connState+` === "open"`, 10*time.Second, connState)
	p.waitJS(`!`+outgoing+` && `+userTextsShown+`.includes("sent while offline")`, 20*time.Second, userTextsShown)
}

// setOffline takes the tab's network away (navigator.onLine, its events
// and every request) or gives it back.
func setOffline(p *page, offline bool) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}},
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: offline, DownloadThroughput: -1, UploadThroughput: -1,
	}); err != nil {
		p.t.Fatal(err)
	}
}

// #37.5: while the agent runs, Stop is the primary button, a message sent
// meanwhile is queued (shown, editable, removable) with no refusal, and
// goes out when the run ends.
func TestMessageQueuedDuringARun(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) {
			session := "queue-" + transport
			p := newPage(t)
			p.open("/?session=" + session + "&lang=en&transport=" + transport)
			p.waitConnected()
			p.send("/gated-group")
			p.waitJS(runningGroup, 15*time.Second)
			if !eval[bool](p, `document.querySelector('[data-testid="stop"]').classList.contains("primary") && !document.querySelector('[data-testid="send"]').classList.contains("primary")`) {
				t.Fatal("Stop is not the primary button while the agent runs")
			}
			p.send("first thought")
			p.waitJS(outgoing+` && `+outgoing+`.dataset.state === "queued"`, 5*time.Second, outgoingText)
			if got := eval[string](p, outgoingText); !strings.Contains(got, "Queued") {
				t.Fatalf("the queued message says %q", got)
			}
			// Edited: back in the composer, and queued again as sent.
			p.click(`[data-testid="outgoing-edit"]`)
			p.waitJS(`!`+outgoing+` && `+composerText+` === "first thought"`, 5*time.Second, composerText)
			p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="composer"]`), ", edited\r"))
			p.send("a second one")
			p.waitJS(`document.querySelectorAll('[data-testid="outgoing"][data-state="queued"]').length === 2`, 5*time.Second)
			p.send("never mind this")
			p.waitJS(`document.querySelectorAll('[data-testid="outgoing"]').length === 3`, 5*time.Second)
			p.click(`[data-testid="outgoing"]:last-child [data-testid="outgoing-remove"]`)
			p.waitJS(`document.querySelectorAll('[data-testid="outgoing"]').length === 2`, 5*time.Second)
			if n := eval[int](p, `document.querySelectorAll('[data-testid="notice"]').length`); n != 0 {
				t.Fatalf("a notice during the run: %s", eval[string](p, noticeText))
			}
			if got := userMessages(t, agent, session); len(got) != 1 {
				t.Fatalf("the agent got %q during the run", got)
			}
			if !agent.Release(session) {
				t.Fatal("the run is not in the agent")
			}
			// The run ended: what was queued went out, as one message.
			want := "first thought, edited\n\na second one"
			p.waitJS(`!`+outgoing+` && `+userTextsShown+`.includes(`+strconv.Quote(want)+`)`, 30*time.Second, userTextsShown)
			p.waitJS(agentStatus+` !== "running"`, 30*time.Second)
			got := userMessages(t, agent, session)
			if len(got) != 2 || got[1] != want {
				t.Fatalf("the agent got %q", got)
			}
		})
	}
}

// #37.5 in the AG-UI mode: the same queue, sent when the run's stream ends.
func TestMessageQueuedDuringAnAgentRun(t *testing.T) {
	backend := startAgentServer(t, "agui-server.mjs")
	base := agentSite(t, agentproxy.AGUI, backend+"/agent")
	p := newPage(t)
	p.openAt(base, "/?session=agui-queue&lang=en")
	p.waitConnected()
	p.send("A slow answer please")
	p.waitJS(lastText+` === "Working on it"`, 60*time.Second)
	p.send("What is the weather in Hanoi?")
	p.waitJS(outgoing+` && `+outgoing+`.dataset.state === "queued"`, 5*time.Second, noticeText)
	if n := eval[int](p, countKind("user")); n != 1 {
		t.Fatalf("%d user messages during the run", n)
	}
	post(t, backend+"/release")
	p.waitJS(`!`+outgoing+` && `+countKind("user")+` === 2 && `+lastText+` === "It is 31 degrees and sunny in Hanoi."`, 60*time.Second, lastText)
}

// The notice has a real close button. (A message too large makes one.)
func TestNoticeCloses(t *testing.T) {
	p := newPage(t)
	p.open("/?session=notice-close&lang=en")
	p.waitConnected()
	p.typeAndSend(strings.Repeat("x", 70<<10))
	p.waitJS(noticeText+`.includes("too long to send")`, 5*time.Second, noticeText)
	if label := eval[string](p, `document.querySelector('[data-testid="notice-close"]').getAttribute("aria-label")`); label != "Dismiss" {
		t.Fatalf("the close button is named %q", label)
	}
	p.click(`[data-testid="notice-close"]`)
	p.waitJS(`!document.querySelector('[data-testid="notice"]')`, 5*time.Second)
}

// #38.9: a message larger than the server takes is refused before it is
// sent, over WebSocket and SSE: a clear notice, the text still in the
// composer, the connection still open, nothing sent.
func TestTooLargeMessageStaysInTheComposer(t *testing.T) {
	for _, transport := range []string{"ws", "sse"} {
		t.Run(transport, func(t *testing.T) {
			b := newFakeBackend("idle")
			b.echoMessages(nil)
			base := b.serve(t)
			p := newPage(t)
			p.openAt(base, "/?session=big-"+transport+"&lang=en&transport="+transport)
			p.waitConnected()
			big := strings.Repeat("Dữ liệu ", 7000) // 70 KB of UTF-8
			p.typeAndSend(big)
			p.waitJS(noticeText+`.includes("This message is too long to send")`, 5*time.Second, noticeText)
			if got := eval[string](p, composerText); got != big {
				t.Fatalf("the composer holds %d characters", len([]rune(got)))
			}
			eval[bool](p, `(document.getElementById("composer-input").value = "", true)`)
			p.send("a short one")
			p.waitJS(`JSON.stringify(`+userTextsShown+`) === '["a short one"]'`, 10*time.Second, userTextsShown)
			if got := eval[string](p, connState); got != "open" {
				t.Fatalf("the connection is %s", got)
			}
			frames, _ := b.received()
			for _, f := range frames {
				if f["type"] == "user_message" && len(f["content"].([]any)[0].(map[string]any)["text"].(string)) > 1000 {
					t.Fatal("the large message was sent")
				}
			}
		})
	}
}

// #38.9 in the agent modes: a run's request carries the whole
// conversation; one larger than the server takes is not sent.
func TestTooLargeAgentRequestStaysInTheComposer(t *testing.T) {
	a := newFakeAgent()
	backend := httptest.NewServer(a)
	t.Cleanup(backend.Close)
	base := agentSiteEnv(t, agentproxy.AGUI, backend.URL, map[string]string{client.EnvMaxRequestBytes: "4000"})
	p := newPage(t)
	p.openAt(base, "/?session=agui-big&lang=en")
	p.waitConnected()
	big := strings.Repeat("word ", 1000)
	p.typeAndSend(big)
	p.waitJS(noticeText+`.includes("This conversation is too long to send")`, 5*time.Second, noticeText)
	if got := eval[string](p, composerText); got != big {
		t.Fatal("the message left the composer")
	}
	if n := eval[int](p, countKind("user")); n != 0 {
		t.Fatalf("%d user messages shown", n)
	}
}

// agentSiteEnv is agentSite with more of the deployment's settings.
func agentSiteEnv(t *testing.T, p agentproxy.Protocol, endpoint string, env map[string]string) string {
	t.Helper()
	api, err := agentproxy.New(p, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{client.EnvProtocol: string(p)}
	for k, v := range env {
		all[k] = v
	}
	h, err := site.New(site.Config{WebDir: "../../web", API: api, Env: all})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// #38.10: an agent that streams without end into one answer leaves the
// page usable: the answer stops growing at state.MaxItemText with a
// "cut off" mark, and Stop ends the run at once: the request is aborted
// and nothing more is applied.
func TestEndlessAgentStream(t *testing.T) {
	a := newFakeAgent()
	backend := httptest.NewServer(a)
	t.Cleanup(backend.Close)
	base := agentSiteEnv(t, agentproxy.AGUI, backend.URL, nil)
	p := newPage(t)
	p.openAt(base, "/?session=agui-flood&lang=en")
	p.waitConnected()
	p.send("flood please")
	p.waitJS(`document.querySelector('[data-kind="text"] [data-testid="cut-off"]')`, 60*time.Second)
	p.click(`[data-testid="stop"]`)
	p.waitJS(agentStatus+` === "stopped" && `+countKind("stopped")+` === 1`, 10*time.Second, agentStatus)
	select {
	case <-a.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the request was not aborted")
	}
	n := eval[int](p, `JSON.parse(window.stepwise.view()).items.find(i => i.kind === "text").text.length`)
	if n > state.MaxItemText || n < state.MaxItemText-1024 {
		t.Fatalf("the answer holds %d bytes", n)
	}
	// The page answers: a new message goes out and is answered.
	p.send("and now a short one")
	p.waitJS(lastText+` === "A short answer."`, 30*time.Second, lastText)
}

// #38.10: one event of 50 MB on one line is skipped as it is read, with a
// notice; what follows it is shown.
func TestHugeAgentEvent(t *testing.T) {
	a := newFakeAgent()
	backend := httptest.NewServer(a)
	t.Cleanup(backend.Close)
	base := agentSiteEnv(t, agentproxy.AGUI, backend.URL, nil)
	p := newPage(t)
	p.openAt(base, "/?session=agui-long-line&lang=en")
	p.waitConnected()
	p.send("long line please")
	p.waitJS(lastText+` === "After the long line." && `+agentStatus+` === "idle"`, 90*time.Second, lastText, agentStatus)
	p.waitJS(noticeText+`.includes("too large to show")`, 5*time.Second, noticeText)
}

// #38.10: an agent that answers and then sends nothing ends the run after
// the silence timeout, with a notice; the page does not spin for good.
func TestSilentAgentTimesOut(t *testing.T) {
	a := newFakeAgent()
	backend := httptest.NewServer(a)
	t.Cleanup(backend.Close)
	base := agentSiteEnv(t, agentproxy.AGUI, backend.URL, map[string]string{client.EnvSilenceTimeout: "2"})
	p := newPage(t)
	p.openAt(base, "/?session=agui-silent&lang=en")
	p.waitConnected()
	p.send("silent please")
	p.waitJS(agentStatus+` === "running"`, 10*time.Second)
	p.waitJS(`document.querySelector('[data-kind="notice"][data-reason="timed_out"]') && `+agentStatus+` !== "running"`, 30*time.Second, agentStatus)
	select {
	case <-a.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the silent request was not aborted")
	}
}

// #37.6: Safari ends a composition, then sends the keydown of the Enter
// that committed it with isComposing false (keyCode 229, or 13): neither
// sends half a word, in the app's composer and in the prerendered page's
// (one rule, web/boot.js's stepwiseEnterSends).
const safariCommit = `((keyCode) => {
  const box = document.getElementById("composer-input");
  box.focus();
  box.value += "Việt";
  box.dispatchEvent(new CompositionEvent("compositionstart", {bubbles: true}));
  box.dispatchEvent(new CompositionEvent("compositionend", {bubbles: true, data: "Việt"}));
  window.__composedAt = performance.now();
  const e = new KeyboardEvent("keydown", {key: "Enter", code: "Enter", bubbles: true, cancelable: true});
  Object.defineProperty(e, "keyCode", {get: () => keyCode});
  Object.defineProperty(e, "which", {get: () => keyCode});
  box.dispatchEvent(e);
  return true;
})`

// pressEnter sends a plain Enter to the box, a while after the last
// composition (a person's own Enter).
func (p *page) pressEnterLater() {
	p.t.Helper()
	p.waitJS(`performance.now() - (window.__composedAt || 0) > 200`, 5*time.Second)
	p.do(chromedp.Focus(chromedp.CSS(`#composer-input`)), chromedp.KeyEvent("\r"))
}

func TestSafariCompositionOrder(t *testing.T) {
	t.Run("app", func(t *testing.T) {
		p := newPage(t)
		p.open("/?session=safari-ime&lang=vi")
		p.waitConnected()
		eval[bool](p, safariCommit+`(229)`)
		eval[bool](p, safariCommit+`(13)`)
		p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), " Nam"))
		p.pressEnterLater()
		p.waitJS(`document.querySelector('[data-kind="user"]')`, 15*time.Second)
		if got := userMessages(t, agent, "safari-ime"); len(got) != 1 || got[0] != "ViệtViệt Nam" {
			t.Fatalf("the agent got %q", got)
		}
	})
	t.Run("prerendered", func(t *testing.T) {
		s := newHeldSite(t)
		p := newPage(t)
		p.do(chromedp.Navigate(s.url + "/?session=safari-boot&lang=vi"))
		p.waitJS(`document.documentElement.dataset.boot === "starting"`, 10*time.Second)
		eval[bool](p, safariCommit+`(13)`)
		eval[bool](p, safariCommit+`(229)`)
		p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), " Nam"))
		p.pressEnterLater()
		p.waitJS(`document.querySelector('[data-testid="boot-pending"]')`, 5*time.Second)
		s.release()
		p.waitJS(`document.documentElement.dataset.stepwise === "ready" && document.querySelector('[data-kind="user"]')`, 30*time.Second)
		if got := userMessages(t, s.agent, "safari-boot"); len(got) != 1 || got[0] != "ViệtViệt Nam" {
			t.Fatalf("the agent got %q", got)
		}
	})
}

// #37 minor: on a touch keyboard (a coarse pointer and no fine one) Enter
// starts a new line and the Send button sends.
func TestTouchKeyboardEnterIsANewLine(t *testing.T) {
	p := newPage(t)
	if _, err := chromedp.Call(p.ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
		t.Fatal(err)
	}
	p.sized("light", 360)
	p.open("/?session=touch-enter&lang=en")
	p.waitConnected()
	if !eval[bool](p, `matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches`) {
		t.Fatal("the emulated phone has a fine pointer: the test shows nothing")
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`#composer-input`), "line one\rline two"))
	if got := eval[string](p, composerText); got != "line one\nline two" {
		t.Fatalf("the composer holds %q", got)
	}
	p.click(`[data-testid="send"]`)
	p.waitJS(`document.querySelector('[data-kind="user"]')`, 15*time.Second)
	if got := userMessages(t, agent, "touch-enter"); len(got) != 1 || got[0] != "line one\nline two" {
		t.Fatalf("the agent got %q", got)
	}
}

// #37 minor: the composer's placeholder fits on one line at 360 px, in
// every language.
func TestPlaceholderFitsAPhone(t *testing.T) {
	for _, lang := range []string{"vi", "en", "fr"} {
		p := newPage(t)
		p.sized("light", 360)
		p.open("/?lang=" + lang)
		fit := eval[[]float64](p, `(() => {
  const box = document.getElementById("composer-input");
  const cs = getComputedStyle(box);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = cs.font;
  const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [ctx.measureText(box.placeholder).width, room];
})()`)
		if fit[0] > fit[1] {
			t.Errorf("%s: the placeholder is %.0f px wide in %.0f px", lang, fit[0], fit[1])
		}
		p.close()
	}
}

// Screenshots of what sending shows, at 360 px and on the desktop, light
// and dark (testdata/screens/sending-*.png), for a person to look at: a
// failed message with its retry, a message waiting for the server, the
// notice with its close button; a message queued during a run, Stop the
// primary button. axe-core finds nothing in either.
func TestSendingScreens(t *testing.T) {
	for _, width := range []int{360, 1280} {
		for _, theme := range []string{"light", "dark"} {
			name := theme + "-" + strconv.Itoa(width)
			t.Run(name, func(t *testing.T) {
				b := newFakeBackend("idle")
				b.echoMessages(func(text string) string {
					if strings.HasPrefix(text, "Sell everything") {
						return "The market is closed."
					}
					return ""
				})
				base := b.serve(t)
				p := newPage(t)
				p.sized(theme, width)
				p.openAt(base, "/?session=screens-"+name+"&lang=en")
				p.waitConnected()
				p.send("What did VCB close at today?")
				p.waitJS(`document.querySelector('[data-kind="user"]')`, 10*time.Second)
				p.send("Sell everything at the open")
				p.waitJS(outgoing+` && `+outgoing+`.dataset.state === "failed"`, 10*time.Second)
				b.setDown(true)
				p.waitJS(connState+` !== "open"`, 10*time.Second)
				p.send("Then buy 100 FPT")
				p.waitJS(`document.querySelector('[data-testid="outgoing"][data-waiting="true"]')`, 5*time.Second)
				p.typeAndSend(strings.Repeat("A very long paste. ", 4000))
				p.waitJS(noticeText+`.includes("too long")`, 5*time.Second)
				eval[bool](p, `(document.getElementById("composer-input").value = "", true)`)
				eval[bool](p, settled)
				p.screenshot("sending-failed-waiting-" + name)
				if theme == "light" {
					p.axe("a failed message, a waiting one, the notice (" + strconv.Itoa(width) + " px)")
				}

				b2 := newFakeBackend("idle")
				b2.echoMessages(nil)
				base2 := b2.serve(t)
				q := newPage(t)
				q.sized(theme, width)
				q.openAt(base2, "/?session=screens-queued-"+name+"&lang=en")
				q.waitConnected()
				b2.emit(`{"type":"user_message","content":"Compare VCB and TCB"}`,
					`{"type":"message_start","message":{"id":"m1","role":"assistant","message_type":"chat"}}`,
					`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Looking at both banks' results"}}`)
				q.waitJS(agentStatus+` === "running"`, 10*time.Second)
				q.send("Also add their dividend history")
				q.waitJS(outgoing+` && `+outgoing+`.dataset.state === "queued"`, 5*time.Second)
				eval[bool](q, settled)
				q.screenshot("sending-queued-" + name)
				if theme == "light" {
					q.axe("a message queued during a run (" + strconv.Itoa(width) + " px)")
				}
			})
		}
	}
}
