package components

import (
	"strings"
	"testing"

	"stepwise/components/htmltest"
	"stepwise/components/i18n"
)

// The menu lists every language in its own words, the page's selected;
// the theme's radio button is checked; everything has a name.
func TestPrefsMenu(t *testing.T) {
	m := &PrefsMenu{Settings: in("de"), Theme: ThemeDark, open: true}
	html := render(t, m)
	for _, want := range []string{
		`aria-label="Sprache und Darstellung"`, `>Sprache</label>`,
		`>العربية</option>`, `>Deutsch</option>`, `<legend class="prefs-label">Farbschema</legend>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html)
		}
	}
	// Each option names its language in that language (attributes come
	// in any order).
	doc := htmltest.Parse(t, html)
	if doc.First(func(n *htmltest.Node) bool {
		return n.Tag == "option" && n.Attrs["value"] == "ar" && n.Attrs["lang"] == "ar"
	}) == nil {
		t.Error(`no <option value="ar" lang="ar">`)
	}
	if doc.First(func(n *htmltest.Node) bool { return n.Tag == "label" && n.Attrs["for"] == "prefs-language" }) == nil {
		t.Error(`no <label for="prefs-language">`)
	}
	if n := strings.Count(html, "<option"); n != len(i18n.Languages) {
		t.Errorf("%d options for %d languages", n, len(i18n.Languages))
	}
	for _, tc := range []struct{ id, wantChecked string }{{"prefs-theme-dark", "checked"}, {"prefs-theme-light", ""}} {
		i := strings.Index(html, `id="`+tc.id+`"`)
		tag := html[strings.LastIndex(html[:i], "<"):]
		tag = tag[:strings.Index(tag, ">")]
		if strings.Contains(tag, "checked") != (tc.wantChecked != "") {
			t.Errorf("%s: %s", tc.id, tag)
		}
	}
	i := strings.Index(html, `value="de"`)
	sel := html[strings.LastIndex(html[:i], "<"):]
	sel = sel[:strings.Index(sel, ">")]
	if !strings.Contains(sel, "selected") {
		t.Errorf("German not selected: %s", sel)
	}
}

// An Arabic page is laid out right to left; a brand's accent gives the
// shell its custom properties; the suggestions replace the scenarios;
// a logo replaces the mark; the send icon turns with the text.
func TestPageDirectionAndBrand(t *testing.T) {
	s := in("ar")
	s.Logo = "https://example.com/logo.png"
	page := render(t, &pageCompo{props: PageProps{Settings: s, Accent: "#ffe680", Suggestions: []string{"Plan a trip", "Summarise a page"}}})
	for _, want := range []string{
		`dir="rtl"`, `data-brand="on"`, `--brand-accent: #ffe680;`, `--brand-accent-text: #000000;`,
		`>Plan a trip</button>`, `src="https://example.com/logo.png"`, `role="presentation"`, `mirror-rtl`,
		`اطلب ما تحتاج إليه، أو ابدأ بأحد هذه الاقتراحات:`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %s", want)
		}
	}
	if strings.Contains(page, `data-scenario=`) {
		t.Error("scenarios shown beside the suggestions")
	}
	plain := render(t, &pageCompo{props: PageProps{Settings: in("en")}})
	for _, unwanted := range []string{`dir="rtl"`, `--brand-accent`, `custom-logo`} {
		if strings.Contains(plain, unwanted) {
			t.Errorf("an English page without brand has %s", unwanted)
		}
	}
	if !strings.Contains(plain, `dir="ltr"`) || !strings.Contains(plain, `data-scenario="timeline"`) {
		t.Error("an English page is not left to right with the scenarios")
	}
}
