package wire

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expressions htmlTitle and withoutTags replace: the oracles.
var (
	titleOracle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	tagOracle   = regexp.MustCompile(`(?s)<[^>]*>`)
)

var pageSamples = []string{
	"",
	"<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>",
	"<HTML><HEAD><TITLE>Service Unavailable</TITLE></HEAD></HTML>",
	"<title lang=\"en\">a &amp; b</title><title>second</title>",
	"<Title>\nmulti\nline\n</tItle>",
	"<title>never closed",
	"<title never opened",
	"<titlex>odd tag</title>",
	"<title<title>nested</title>",
	"<title></title>",
	"text <b>bold</b> and <i>more</i>",
	"a < b and c > d",
	"<unclosed tag",
	">>< <<>",
	"<p\nclass=x>para</p>",
	"caf\xc3\xa9 <\xff> \xff</title>",
	"<title>caf\xc3\xa9 \xff</title>",
	"<TİTLE>dotted</title>",
	strings.Repeat("<title>", 3) + "x</title>",
}

func TestHTMLTitleAsRegexp(t *testing.T) {
	for _, page := range pageSamples {
		m := titleOracle.FindSubmatch([]byte(page))
		got, ok := htmlTitle([]byte(page))
		assert.Equal(t, m != nil, ok, "%q", page)
		if m != nil {
			assert.Equal(t, string(m[1]), string(got), "%q", page)
		}
	}
}

func TestWithoutTagsAsRegexp(t *testing.T) {
	for _, page := range pageSamples {
		assert.Equal(t, tagOracle.ReplaceAllString(page, " "), withoutTags(page), "%q", page)
	}
}

func FuzzPageMatchersAsRegexp(f *testing.F) {
	for _, page := range pageSamples {
		f.Add(page)
	}
	f.Fuzz(func(t *testing.T, page string) {
		m := titleOracle.FindSubmatch([]byte(page))
		got, ok := htmlTitle([]byte(page))
		if (m != nil) != ok || (ok && string(m[1]) != string(got)) {
			t.Fatalf("htmlTitle(%q) = %q, %v; the expression finds %q", page, got, ok, m)
		}
		if want, got := tagOracle.ReplaceAllString(page, " "), withoutTags(page); want != got {
			t.Fatalf("withoutTags(%q) = %q, want %q", page, got, want)
		}
	})
}
