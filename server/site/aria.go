package site

import (
	"bytes"
	"strings"
)

// ariaValues returns page with each aria-* attribute written without a
// value given the value "true". It reads start tags as HTML does: quoted
// values, comments and the text of script, style, textarea and title
// elements are left as they are.
//
// go-app's server-side encoder writes an attribute whose value is "true"
// with no value at all, as HTML writes its boolean attributes; but ARIA's
// states are not boolean attributes: a bare aria-hidden is
// aria-hidden="", which hides nothing, and the prerendered page, which a
// person on a slow link reads and types into before the app replaces it,
// exposed its decorative graphics. Stepwise never gives an ARIA attribute
// an empty value, so a bare one was "true".
func ariaValues(page []byte) []byte {
	var bare []int // where a bare aria-* attribute's name ends
	i := 0
	for {
		lt := bytes.IndexByte(page[i:], '<')
		if lt < 0 {
			break
		}
		j := i + lt
		if bytes.HasPrefix(page[j:], []byte("<!--")) {
			end := bytes.Index(page[j+4:], []byte("-->"))
			if end < 0 {
				break
			}
			i = j + 4 + end + 3
			continue
		}
		if j+1 >= len(page) || !isASCIILetter(page[j+1]) {
			i = j + 1 // an end tag, a doctype, or a lone <
			continue
		}
		k := j + 1
		for k < len(page) && !isHTMLSpace(page[k]) && page[k] != '>' && page[k] != '/' {
			k++
		}
		tag := strings.ToLower(string(page[j+1 : k]))
		for k < len(page) && page[k] != '>' {
			if isHTMLSpace(page[k]) || page[k] == '/' {
				k++
				continue
			}
			name := k
			for k < len(page) && !isHTMLSpace(page[k]) && page[k] != '=' && page[k] != '>' && page[k] != '/' {
				k++
			}
			attr := page[name:k]
			m := k
			for m < len(page) && isHTMLSpace(page[m]) {
				m++
			}
			if m >= len(page) || page[m] != '=' {
				if len(attr) > len("aria-") && strings.EqualFold(string(attr[:5]), "aria-") {
					bare = append(bare, k)
				}
				continue
			}
			m++
			for m < len(page) && isHTMLSpace(page[m]) {
				m++
			}
			if m < len(page) && (page[m] == '"' || page[m] == '\'') {
				end := bytes.IndexByte(page[m+1:], page[m])
				if end < 0 {
					return page // not HTML this reads: left as it is
				}
				k = m + 1 + end + 1
				continue
			}
			for m < len(page) && !isHTMLSpace(page[m]) && page[m] != '>' {
				m++
			}
			k = m
		}
		i = k
		switch tag {
		case "script", "style", "textarea", "title":
			end := indexFold(page[i:], "</"+tag)
			if end < 0 {
				i = len(page)
			} else {
				i += end
			}
		}
		if i >= len(page) {
			break
		}
	}
	if len(bare) == 0 {
		return page
	}
	out := make([]byte, 0, len(page)+len(bare)*len(`="true"`))
	last := 0
	for _, at := range bare {
		out = append(out, page[last:at]...)
		out = append(out, `="true"`...)
		last = at
	}
	return append(out, page[last:]...)
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// indexFold is bytes.Index, ASCII case-insensitive in s.
func indexFold(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if strings.EqualFold(string(b[i:i+len(s)]), s) {
			return i
		}
	}
	return -1
}
