package components

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// tokens lists the highlighted tokens of code as "class:text".
func tokens(lang, code string) []string {
	var got []string
	for _, t := range tokenize(lang, code) {
		if t.class != "" {
			got = append(got, strings.TrimPrefix(t.class, "hl-")+":"+t.text)
		}
	}
	return got
}

// tokenText is the text of code's tokens, in order.
func tokenText(lang, code string) string {
	var b strings.Builder
	for _, t := range tokenize(lang, code) {
		b.WriteString(t.text)
	}
	return b.String()
}

func TestHighlightLanguages(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		want       []string
	}{
		{"go", "package main\n// hi\nfunc main() { fmt.Println(\"a\\\"b\", 42, nil) }",
			[]string{"kw:package", "com:// hi", "kw:func", "fn:main", "fn:Println", `str:"a\"b"`, "num:42", "lit:nil"}},
		{"python", "def f(x):\n    return len(x) * 2  # note\ns = '''a\nb'''",
			[]string{"kw:def", "fn:f", "kw:return", "bi:len", "num:2", "com:# note", "str:'''a\nb'''"}},
		{"ts", "const x: number = 1; // c\nfunction f(a) { return `s${a}` }",
			[]string{"kw:const", "bi:number", "num:1", "com:// c", "kw:function", "fn:f", "kw:return", "str:`s${a}`"}},
		{"json", `{"a": [1, true, null], "b": "x"}`,
			[]string{`attr:"a"`, "num:1", "lit:true", "lit:null", `attr:"b"`, `str:"x"`}},
		{"sql", "select id, COUNT(*) FROM t WHERE x = 'a' -- c",
			[]string{"kw:select", "bi:COUNT", "kw:FROM", "kw:WHERE", "str:'a'", "com:-- c"}},
		{"bash", "export A=1\necho \"$A\" $HOME ${B} # c\nls a#b",
			[]string{"kw:export", "num:1", "bi:echo", `str:"$A"`, "var:$HOME", "var:${B}", "com:# c", "bi:ls"}},
		{"html", `<!-- c --><a href="x">t &amp; <br/></a>`,
			[]string{"com:<!-- c -->", "tag:<a", "attr:href", `str:"x"`, "tag:>", "tag:<br", "tag:/>", "tag:</a", "tag:>"}},
		{"css", "@media print { .a, #b:hover { color: #fff; margin: .5em } }",
			[]string{"kw:@media", "tag:print", "tag:.a", "tag:#b", "tag:hover", "attr:color", "num:#fff", "attr:margin", "num:.5em"}},
	} {
		assert.Equal(t, tc.want, tokens(tc.lang, tc.code), tc.lang)
		assert.Equal(t, tc.code, tokenText(tc.lang, tc.code), tc.lang+": the code's text is kept whole")
	}
}

func TestHighlightUnknownLanguageIsPlain(t *testing.T) {
	assert.Equal(t, []hlToken{{"", "+[->+<]"}}, tokenize("brainfuck", "+[->+<]"))
	assert.Len(t, highlight("", "x := 1"), 1)
}

// Streaming: every prefix of a block (an unclosed string or comment
// included) highlights without a panic and keeps its text.
func TestHighlightEveryPrefix(t *testing.T) {
	code := "/* a */ x = \"s\\\"\" + 'c' + `t` // d\n<p class=\"x\">y</p> $V ${W} '''q''' -- e\n# f\n@x .y #z { a: 1; }"
	for lang := range lexers {
		for i := range code {
			assert.Equal(t, code[:i], tokenText(lang, code[:i]), lang)
		}
	}
}

func TestHighlightedCodeIsTextNeverMarkup(t *testing.T) {
	html := app.HTMLString(app.Div().Body(Markdown("```html\n<script>alert(1)</script><img src=x onerror=alert(2)>\n```")...))
	assert.NotContains(t, html, "<script>")
	assert.NotContains(t, html, "<img")
	assert.Contains(t, html, `<span class="hl-tag">&lt;script</span>`)
	assert.True(t, strings.Contains(html, `class="language-html"`))
}
