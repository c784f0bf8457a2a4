package state

import (
	"strings"
	"unicode/utf8"
)

// MaxItemText bounds the text one item holds (an answer, a reasoning, a
// user message from the history). A backend that streams without end
// into one item, or sends one huge block, would otherwise grow the page's
// memory and the cost of drawing that item without bound; what comes past
// the bound is dropped and the item is marked Cut, which the page says.
// A long real answer (128k tokens) is about half of it.
const MaxItemText = 1 << 20

// growText appends delta to b, keeping b within MaxItemText bytes (cut on
// a character boundary). It reports whether some of delta was dropped.
func growText(b *strings.Builder, delta string) (cut bool) {
	room := MaxItemText - b.Len()
	if len(delta) <= room {
		b.WriteString(delta)
		return false
	}
	if room > 0 {
		b.WriteString(clipUTF8(delta, room))
	}
	return true
}

// capText is text within MaxItemText bytes, and whether it was cut.
func capText(text string) (string, bool) {
	if len(text) <= MaxItemText {
		return text, false
	}
	return clipUTF8(text, MaxItemText), true
}

// clipUTF8 is the longest prefix of s of at most n bytes that does not
// split a character.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// setText sets an item's text within MaxItemText, marking it Cut when
// some was dropped.
func setText(it *Item, text string) {
	var cut bool
	it.Text, cut = capText(text)
	it.Cut = it.Cut || cut
}
