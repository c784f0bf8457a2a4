package components

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// mathHTML renders Markdown and squeezes the HTML's layout whitespace out.
func mathHTML(src string) string {
	html := app.HTMLString(app.Div().Body(Markdown(src)...))
	return regexp.MustCompile(`>\s+<`).ReplaceAllString(strings.TrimSpace(html), "><")
}

func TestMathDelimiters(t *testing.T) {
	for src, want := range map[string]string{
		"Einstein $E = mc^2$ ok":                     `<math><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow></math>`,
		`a \(x_1\) b`:                                `<math><mrow><msub><mi>x</mi><mn>1</mn></msub></mrow></math>`,
		"$$\n\\frac{a}{b}\n$$":                       `<mrow><mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi></mrow></mfrac></mrow></math>`,
		`\[\sqrt[3]{x}\]`:                            `<mrow><mroot><mrow><mi>x</mi></mrow><mrow><mn>3</mn></mrow></mroot></mrow></math>`,
		`$\sum_{i=1}^n \alpha_i$`:                    `<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>α</mi><mi>i</mi></msub>`,
		`$\int_0^1 f(x)\,dx$`:                        `<msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>f</mi><mo stretchy="false">(</mo><mi>x</mi><mo stretchy="false">)</mo><mspace width="0.1667em"></mspace>`,
		`$\lim_{n \to \infty} a_n$`:                  `<munder><mi>lim</mi><mrow><mi>n</mi><mo>→</mo><mi>∞</mi></mrow></munder>`,
		`$\begin{bmatrix}1 & 2\\3 & 4\end{bmatrix}$`: `<mo>[</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr><mtr><mtd><mn>3</mn></mtd><mtd><mn>4</mn></mtd></mtr></mtable><mo>]</mo>`,
		`$\text{if } x \leq 0$`:                      `<mtext>if </mtext><mi>x</mi><mo>≤</mo><mn>0</mn>`,
		`$a*b*c$`:                                    `<mi>a</mi><mo>*</mo><mi>b</mi><mo>*</mo><mi>c</mi>`,
		`$1-x$`:                                      `<mn>1</mn><mo>−</mo><mi>x</mi>`,
		`$\left(\frac{1}{2}\right) \{x\}$`:           `<mo stretchy>(</mo><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac><mo stretchy>)</mo><mo stretchy="false">{</mo><mi>x</mi><mo stretchy="false">}</mo>`,
	} {
		assert.Contains(t, mathHTML(src), want, src)
	}
	// Display math is a block of its own, focusable (it may scroll);
	// inline math is neither.
	for src, display := range map[string]bool{"$$\n\\frac{a}{b}\n$$": true, `\[x\]`: true, `$x$`: false} {
		tag := regexp.MustCompile(`<math[^>]*>`).FindString(mathHTML(src))
		assert.Equal(t, display, strings.Contains(tag, `display="block"`), src)
		assert.Equal(t, display, strings.Contains(tag, `tabindex="0"`), src)
	}
}

// Dollars that are prices stay text: no space after the opening $, none
// before the closing one, no digit right after it.
func TestPricesAreNotMath(t *testing.T) {
	for _, src := range []string{
		"It costs $5 and $10.", "Between $5 and $10", "$ 5 and 6 $", "from $3 to $4 or $5",
		"a $5$6 b", `an escaped \$x\$`, "unclosed $x + y", "over\ntwo $lines\nof$ text",
	} {
		html := mathHTML(src)
		assert.NotContains(t, html, "<math", src)
	}
	assert.Contains(t, mathHTML("$x$, then $5"), "<mi>x</mi>")
}

// TeX it cannot read shows as its source, as code; nothing in it becomes
// markup.
func TestMathItCannotReadShowsItsSource(t *testing.T) {
	for src, want := range map[string]string{
		`$\frac{1}{$ end`:                    `<code class="math-source">$\frac{1}{$</code>`,
		`$\unknowncommand x$`:                `<code class="math-source">$\unknowncommand x$</code>`,
		`$a } b$`:                            `<code class="math-source">$a } b$</code>`,
		`\(\begin{foo}x\end{foo}\)`:          `<code class="math-source">\(\begin{foo}x\end{foo}\)</code>`,
		`$<img src=x onerror=alert(1)>$`:     `<mo>&lt;</mo><mi>i</mi><mi>m</mi><mi>g</mi>`,
		`$\text{<script>alert(1)</script>}$`: `<mtext>&lt;script&gt;alert(1)&lt;/script&gt;</mtext>`,
	} {
		assert.Contains(t, mathHTML(src), want, src)
	}
	for _, src := range []string{`$<img src=x onerror=alert(1)>$`, `$\text{<script>alert(1)</script>}$`} {
		assert.NotContains(t, mathHTML(src), "<img")
		assert.NotContains(t, mathHTML(src), "<script")
	}
}

// Every prefix of a streaming answer with math renders without a panic.
func TestMathEveryPrefix(t *testing.T) {
	src := "Roots $x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$ and\n\n$$\n\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$\n\n\\(\\sum_{i=1}^{n} i\\) \\[\\int_0^1 x\\,dx\\] $5 and $10"
	for i := range src {
		_ = mathHTML(src[:i])
	}
}
