//go:build goldmarkomitregexp

package components

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser build's matchers (linkify_matchers.go) against the
// expressions every other build compiles (linkify.go): make unit runs this
// file with the browser build's tag. goldmark v1.8.7's own linkify
// patterns (extension/linkify.go) are the matchers' model with the bound.
const (
	goldmarkURL = `^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`
	goldmarkWWW = `^www\.[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`
)

// TestLinkifyMatchers: the app's autolink matchers find what goldmark's
// patterns without the bound find, the same links as goldmark's in any
// line shorter than it, and link a longer address whole.
func TestLinkifyMatchers(t *testing.T) {
	unbound := func(s string) string { return strings.Replace(s, "]{1,256}\\.", "]+\\.", 1) }
	require.Equal(t, unbound(goldmarkURL), linkifyURLPattern)
	require.Equal(t, unbound(goldmarkWWW), linkifyWWWPattern)

	type pair struct {
		goldmark, pattern *regexp.Regexp
		matcher           func([]byte) int
	}
	pairs := []pair{
		{regexp.MustCompile(goldmarkURL), regexp.MustCompile(linkifyURLPattern), linkifyURL},
		{regexp.MustCompile(goldmarkWWW), regexp.MustCompile(linkifyWWWPattern), linkifyWWW},
	}
	lines := []string{
		"https://go.dev", "https://go.dev/doc/effective_go#names.", "http://a.b", "ftp://files.example.org:21/x",
		"https://example.com/a?b=c&d=(e)", "www.example.com/path)", "www.a", "https://localhost", "http://1.2.3.4:8080/",
		"https://user@host.example/x#y", "www..com", "https://a.b.c.d.e.f/g/h?i=j;k", "https://é.example",
	}
	// Random lines over the patterns' own alphabet, with the prefixes.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "-aZ09@:%._+~#=/?!&;,'\"()[]{}^`$ .wéx"
	for range 20000 {
		var b strings.Builder
		b.WriteString([]string{"http://", "https://", "ftp://", "www.", "htp://", ""}[rng.IntN(6)])
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		lines = append(lines, b.String())
	}
	lines = append(lines, "https://"+strings.Repeat("a", 300)+".b", "www."+strings.Repeat("a.", 200)+"b/c")
	for _, line := range lines {
		for _, p := range pairs {
			want, got := p.pattern.FindSubmatchIndex([]byte(line)), p.matcher([]byte(line))
			if want == nil {
				assert.Equal(t, -1, got, "%q", line)
			} else {
				assert.Equal(t, want[1], got, "%q", line)
			}
			if len(line) < 256 {
				assert.Equal(t, p.goldmark.FindSubmatchIndex([]byte(line)), want, "%q", line)
			}
		}
	}

	long := "https://" + strings.Repeat("a", 300) + ".example/path"
	assert.Equal(t, len(long), linkifyURL([]byte(long)))
	assert.Nil(t, regexp.MustCompile(goldmarkURL).FindIndex([]byte(long)), "goldmark's bound: no link")
	html := app.HTMLString(app.Div().Body(Markdown("See " + long + " now")...))
	assert.Contains(t, html, `href="`+long+`"`)
}
