package components

import (
	"strings"
	"testing"
)

func TestBrandColorsReadable(t *testing.T) {
	for _, accent := range []string{"#ffe680", "#4f46e5", "#000", "#fff", "#16a34a", "#ff0000", "#0ea5e9", "#808080", "#7a7a7a", "#8a8aff"} {
		colors := BrandColors(accent)
		if colors == nil {
			t.Fatalf("%s: not a colour", accent)
		}
		fill, _ := ParseColor(colors["--brand-accent"])
		text, _ := ParseColor(colors["--brand-accent-text"])
		if c := contrast(fill, text); c < minContrast {
			t.Errorf("%s: text on the accent at %.2f:1", accent, c)
		}
		light, _ := ParseColor(colors["--brand-ink-light"])
		dark, _ := ParseColor(colors["--brand-ink-dark"])
		for _, bg := range []rgb{lightSurface, {0xff, 0xff, 0xff}, {0xf7, 0xf7, 0xfb}} {
			if c := contrast(light, bg); c < minContrast {
				t.Errorf("%s: ink %s on %s at %.2f:1", accent, light, bg, c)
			}
		}
		for _, bg := range []rgb{darkSurface, {0x17, 0x18, 0x29}, {0x0f, 0x10, 0x20}} {
			if c := contrast(dark, bg); c < minContrast {
				t.Errorf("%s: dark ink %s on %s at %.2f:1", accent, dark, bg, c)
			}
		}
	}
	pale := BrandColors("#ffe680")
	if pale["--brand-accent-text"] != "#000000" {
		t.Errorf("a pale accent takes dark text, got %s", pale["--brand-accent-text"])
	}
	if pale["--brand-ink-light"] == "#ffe680" {
		t.Error("a pale accent is used as text on a light page as it is")
	}
	if BrandColors("#4f46e5")["--brand-ink-light"] != "#4f46e5" {
		t.Error("a dark enough accent is changed")
	}
	for _, bad := range []string{"", "red", "#12", "#gggggg", "#1234567", "url(x)", "#fff; background: red"} {
		if BrandColors(bad) != nil || brandStyle(bad) != "" {
			t.Errorf("%q taken as a colour", bad)
		}
	}
	if s := brandStyle("#FFE680"); !strings.HasPrefix(s, "--brand-accent: #ffe680; --brand-accent-text: #000000;") {
		t.Errorf("style %q", s)
	}
}
