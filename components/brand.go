package components

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The page's surfaces a brand's accent is read on (web/stepwise.css):
// text in the accent's colour must be readable on the darkest light one
// and the lightest dark one (--surface-2 of each theme).
var (
	lightSurface = rgb{0xf0, 0xf0, 0xf6}
	darkSurface  = rgb{0x1f, 0x20, 0x35}
	lightText    = rgb{0xff, 0xff, 0xff}
	darkText     = rgb{}
)

// minContrast is WCAG AA's for normal text.
const minContrast = 4.5

type rgb struct{ r, g, b uint8 }

func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// ParseColor reads a hex colour, #rgb or #rrggbb (the only form a brand's
// accent takes: it is written into the page's style).
func ParseColor(s string) (rgb, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "#") {
		return rgb{}, false
	}
	h := s[1:]
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 {
		return rgb{}, false
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}, true
}

// luminance is WCAG's relative luminance.
func (c rgb) luminance() float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// mix is a weighted toward b by t (0: a, 1: b).
func mix(a, b rgb, t float64) rgb {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return rgb{m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)}
}

// readableOn is c, or c taken toward toward (black or white) just enough
// to read at minContrast on bg.
func readableOn(c, bg, toward rgb) rgb {
	for t := 0.0; t <= 1; t += 0.05 {
		if m := mix(c, toward, t); contrast(m, bg) >= minContrast {
			return m
		}
	}
	return toward
}

// BrandColors are the custom properties a brand's accent sets: the accent
// itself (fills: the send button, badges, the user's bubbles), the text
// on it (black or white, whichever reads better), and the accent as text
// and lines on the page, per theme (darkened for the light theme,
// lightened for the dark one, until AA contrast). nil when accent is not
// a colour.
func BrandColors(accent string) map[string]string {
	c, ok := ParseColor(accent)
	if !ok {
		return nil
	}
	on := lightText
	if contrast(darkText, c) > contrast(lightText, c) {
		on = darkText
	}
	return map[string]string{
		"--brand-accent":      c.String(),
		"--brand-accent-text": on.String(),
		"--brand-ink-light":   readableOn(c, lightSurface, rgb{}).String(),
		"--brand-ink-dark":    readableOn(c, darkSurface, rgb{0xff, 0xff, 0xff}).String(),
	}
}

// brandStyle is the shell's style attribute for an accent: BrandColors
// as declarations, in a fixed order ("" for none).
func brandStyle(accent string) string {
	colors := BrandColors(accent)
	if colors == nil {
		return ""
	}
	var b strings.Builder
	for _, k := range []string{"--brand-accent", "--brand-accent-text", "--brand-ink-light", "--brand-ink-dark"} {
		b.WriteString(k + ": " + colors[k] + "; ")
	}
	return strings.TrimSpace(b.String())
}
