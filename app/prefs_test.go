package app

import (
	"net/url"
	"slices"
	"testing"
)

// ?lang= wins over the language chosen in the menu, which wins over the
// browser's.
func TestPageLanguage(t *testing.T) {
	for _, tc := range []struct{ url, chosen, browser, want string }{
		{"fr", "de", "ja", "fr"},
		{"", "de", "ja", "de"},
		{"", "", "ja-JP", "ja"},
		{"", "", "", "vi"},
		{"", "ar", "en-US", "ar"},
		{"zh-TW", "ar", "", "zh-Hant"},
	} {
		if got := pageLanguage(tc.url, tc.chosen, tc.browser).Lang(); got != tc.want {
			t.Errorf("pageLanguage(%q, %q, %q) = %s, want %s", tc.url, tc.chosen, tc.browser, got, tc.want)
		}
	}
	for in, want := range map[string]string{"dark": "dark", "light": "light", "": "system", "blue": "system"} {
		if got := cleanTheme(in); got != want {
			t.Errorf("cleanTheme(%q) = %q", in, got)
		}
	}
}

// The brand comes from the deployment (env) and from an embed's URL; what
// is not a colour, an https or same-site image, is ignored.
func TestBrandConfig(t *testing.T) {
	env := map[string]string{EnvAccent: "#0ea5e9", EnvLogo: "/web/acme.svg", EnvSuggestions: "Plan a trip\n\n  Summarise a page  \n", EnvCatalogPath: "/chat/web/i18n/"}
	c := DefaultConfig().WithEnv(func(k string) string { return env[k] })
	if c.Accent != "#0ea5e9" || c.Logo != "/web/acme.svg" || c.CatalogPath != "/chat/web/i18n/" ||
		!slices.Equal(c.Suggestions, []string{"Plan a trip", "Summarise a page"}) {
		t.Errorf("from env: %+v", c)
	}
	if d := DefaultConfig(); d.CatalogPath != "/web/i18n/" || d.Accent != "" {
		t.Errorf("defaults: %+v", d)
	}
	u, _ := url.Parse("/?accent=%23ffe680&logo=https://example.com/l.png&suggestion=One&suggestion=Two")
	got := ConfigFromURL(c, u)
	if got.Accent != "#ffe680" || got.Logo != "https://example.com/l.png" || !slices.Equal(got.Suggestions, []string{"One", "Two"}) {
		t.Errorf("from the URL: %+v", got)
	}
	for _, bad := range []string{"/?accent=red;x:y", "/?logo=javascript:alert(1)", "/?logo=data:image/svg+xml,x", "/?logo=//evil.example/x.png", "/?logo=http://example.com/x.png"} {
		u, _ := url.Parse(bad)
		if got := ConfigFromURL(c, u); got.Accent != c.Accent || got.Logo != c.Logo {
			t.Errorf("%s taken: %+v", bad, got)
		}
	}
	bad := DefaultConfig().WithEnv(func(k string) string {
		return map[string]string{EnvAccent: "#zzz"}[k]
	})
	if bad.Accent != "" {
		t.Errorf("a bad accent kept: %q", bad.Accent)
	}
}
