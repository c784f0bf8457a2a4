package components

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// mdHost renders Markdown as an answer does, copy buttons and all.
type mdHost struct {
	app.Compo
	src string
}

func (h *mdHost) Render() app.UI {
	return app.Div().Body(renderMarkdown(h.src, nil, &mdCopy{item: 1, tr: DefaultSettings()})...)
}

// A mermaid fence is a diagram once closed, its source in the frame's
// fragment; while it streams, and in another language, it is code.
func TestMermaidOnceTheFenceCloses(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"```mermaid\ngraph TD\nA-->B\n```\n", 1},
		{"Intro\n\n```mermaid\ngraph TD\nA-->B\n```", 1},
		{"  ~~~mermaid\n  graph TD\n  ~~~\n", 1},
		{"```mermaid\ngraph TD\nA-->B\n", 0},
		{"```mermaid\ngraph TD\nA-->B\n``", 0},
		{"```mermaid\n", 0},
		{"```js\nlet a\n```\n", 0},
	} {
		html := render(t, &mdHost{src: c.src})
		assert.Equal(t, c.want, strings.Count(html, `class="mermaid-frame"`), "%q: %s", c.src, html)
		if c.want == 1 {
			assert.Contains(t, html, `src="web/mermaid/frame.html#graph%20TD`)
			assert.Contains(t, html, `sandbox="allow-scripts"`)
		}
	}
}
