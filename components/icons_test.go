package components

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The mark drawn inline is web/logo.svg's drawing (the favicon, the
// manifest and the embed's button use the file): the same shapes, with the
// same attributes (go-app writes them in its own order), in the same
// order of shapes.
func TestLogoDrawsWebLogo(t *testing.T) {
	file, err := os.ReadFile("../web/logo.svg")
	if err != nil {
		t.Fatal(err)
	}
	shape := regexp.MustCompile(`<(rect|path|circle)((?:\s+[\w-]+="[^"]*")*)\s*/?>`)
	attrs := regexp.MustCompile(`([\w-]+)="([^"]*)"`)
	shapes := func(svg string) []string {
		var out []string
		for _, m := range shape.FindAllStringSubmatch(svg, -1) {
			var kv []string
			for _, a := range attrs.FindAllStringSubmatch(m[2], -1) {
				kv = append(kv, a[1]+"="+a[2])
			}
			sort.Strings(kv)
			out = append(out, m[1]+" "+strings.Join(kv, " "))
		}
		return out
	}
	want := shapes(string(file))
	html := app.HTMLString(logo(Settings{}, "topbar-logo", 28))
	got := shapes(html)
	if len(want) != 3 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the inline mark:\n%s\nweb/logo.svg:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// aria-hidden: go-app's server writes "true" bare (the browser build
	// sets "true").
	for _, a := range []string{`aria-hidden`, `focusable="false"`, `width="28"`, `height="28"`, `viewBox="0 0 64 64"`} {
		if !strings.Contains(html, a) {
			t.Errorf("the inline mark has no %s: %s", a, html)
		}
	}
}
