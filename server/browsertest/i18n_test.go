//go:build browser

package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// viewport sets the page's width and the system's theme.
func (p *page) viewport(width int, theme string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(width), Height: 860, DeviceScaleFactor: 1, Mobile: width < 500,
	}); err != nil {
		p.t.Fatal(err)
	}
}

// viewportShot saves what the window shows (FullScreenshot measures a
// right-to-left page's content from its left overflow and cuts off its
// right side).
func (p *page) viewportShot(name string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	writeShot(p.t, name, buf)
}

const (
	lastAnswer = `[...document.querySelectorAll('.item.text[data-kind="text"]')].pop()`
	lastBubble = `[...document.querySelectorAll('.item.user .bubble')].pop()`
)

// An Arabic page lays out right to left, in Arabic words fetched with the
// page (app.wasm holds no Arabic), while an English answer in it stays
// left to right and an Arabic message goes right to left; the send icon
// turns with the text. Looked at in screenshots, light and dark, at 360 px
// and on a desktop; axe finds nothing.
func TestRightToLeftArabic(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int{360, 1100} {
			name := "rtl-ar-" + theme + "-" + itoa(width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				p.viewport(width, theme)
				p.open("/?session=" + name + "&lang=ar")
				p.waitConnected()
				if got := eval[string](p, `document.documentElement.dir + " " + document.documentElement.lang + " " + getComputedStyle(document.querySelector(".topbar")).direction`); got != "rtl ar rtl" {
					t.Fatalf("html dir, lang, topbar direction: %q", got)
				}
				if got := eval[string](p, `document.querySelector('[data-testid="composer"]').placeholder`); got != "اكتب رسالة إلى المساعد…" {
					t.Errorf("composer placeholder %q", got)
				}
				// The icon is drawn on phones (beside the word on a desktop).
				if got := eval[string](p, `(i => i.getClientRects().length ? getComputedStyle(i).transform : "matrix(-1, 0, 0, 1, 0, 0)")(document.querySelector('.composer .mirror-rtl'))`); got != "matrix(-1, 0, 0, 1, 0, 0)" {
					t.Errorf("the send icon is not mirrored: %s", got)
				}
				p.send("/markdown")
				p.waitJS(agentStatus+` === "idle" && `+lastAnswer, 30*time.Second)
				if got := eval[string](p, `getComputedStyle(`+lastAnswer+`).direction`); got != "ltr" {
					t.Errorf("an English answer in an Arabic page is %s", got)
				}
				p.send("مرحبا، ما الجديد؟")
				p.waitJS(lastBubble+`.textContent.startsWith("مرحبا")`, 10*time.Second)
				if got := eval[string](p, `getComputedStyle(`+lastBubble+`).direction`); got != "rtl" {
					t.Errorf("an Arabic message is %s", got)
				}
				// The message's run (the demo's default scenario) starts, then
				// ends: axe must not read rows still fading in.
				p.waitJS(agentStatus+` === "running"`, 10*time.Second)
				p.waitJS(agentStatus+` === "idle"`, 60*time.Second)
				p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("conversation").scrollTop = 0`))
				p.viewportShot(name)
				if theme == "light" && width > 500 {
					p.axe(name)
				}
			})
		}
	}
}

// The header's menu changes the language (fetched on demand) and the
// theme, both remembered after a reload; ?lang= still wins; axe finds
// nothing with the menu open.
func TestLanguageAndThemeMenu(t *testing.T) {
	p := newPage(t)
	p.viewport(1100, "light")
	p.open("/?session=prefs-menu&lang=en")
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="prefs-button"]`)))
	p.waitJS(`document.querySelector('[data-testid="prefs-panel"]')`, 5*time.Second)
	p.axe("prefs-open")
	p.screenshot("prefs-open-light")
	p.do(chromedp.SetValue(chromedp.CSS(`[data-testid="prefs-language"]`), "de"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="prefs-language"]').dispatchEvent(new Event("change", {bubbles: true}))`))
	p.waitJS(`document.documentElement.lang === "de" && document.querySelector('[data-testid="composer"]').placeholder === "Nachricht an den Assistenten…"`, 10*time.Second)
	if got := eval[string](p, `location.search`); got != "?session=prefs-menu" {
		t.Errorf("the URL keeps its language: %s", got)
	}
	// Dark, chosen over the system's light (the panel stays open).
	p.waitJS(`document.querySelector('[data-testid="prefs-theme-dark"]')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="prefs-theme-dark"]`)))
	p.waitJS(`document.documentElement.dataset.theme === "dark"`, 5*time.Second)
	const bodyBG = `getComputedStyle(document.body).backgroundColor`
	if got := eval[string](p, bodyBG); got != "rgb(15, 16, 32)" {
		t.Errorf("dark chosen, the page's background is %s", got)
	}
	p.screenshot("prefs-dark-de")
	p.reload()
	p.waitJS(`document.documentElement.lang === "de" && document.documentElement.dataset.theme === "dark"`, 10*time.Second)
	if got := eval[string](p, `document.querySelector('.empty h2').textContent`); got != "Starten Sie eine Unterhaltung" {
		t.Errorf("after a reload: %q", got)
	}
	// ?lang= wins over the choice.
	p.open("/?session=prefs-menu-2&lang=fr")
	p.waitJS(`document.documentElement.lang === "fr"`, 10*time.Second)
	// Back to the system's theme: light again.
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="prefs-button"]`)))
	p.waitJS(`document.querySelector('[data-testid="prefs-theme-system"]')`, 5*time.Second)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid="prefs-theme-system"]`)))
	p.waitJS(`!document.documentElement.dataset.theme`, 5*time.Second)
	if got := eval[string](p, bodyBG); got != "rgb(247, 247, 251)" {
		t.Errorf("the system's light theme, the page's background is %s", got)
	}
}

// A pale accent (an embed's data-accent) keeps every text readable: axe
// finds nothing, light and dark, with the user's bubble and links in it.
func TestPaleAccentStaysReadable(t *testing.T) {
	for _, width := range []int{360, 1100} {
		p := newPage(t)
		p.viewport(width, "light")
		p.open("/?session=pale-accent-" + itoa(width) + "&lang=en&accent=%23ffe680&suggestion=Show+me+Markdown")
		p.waitConnected()
		if got := eval[string](p, `getComputedStyle(document.querySelector(".shell")).getPropertyValue("--accent").trim()`); got != "#ffe680" {
			t.Fatalf("--accent is %q", got)
		}
		p.send("/markdown")
		p.waitJS(agentStatus+` === "idle" && `+lastAnswer, 30*time.Second)
		if width > 500 {
			p.axe("pale-accent")
		}
		for _, theme := range []string{"light", "dark"} {
			p.viewport(width, theme)
			p.screenshot("pale-accent-" + theme + "-" + itoa(width))
		}
	}
}
