package components

import (
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// toolImages shows the images a tool returned (state.ToolImage) under its
// row: thumbnails that open full size in a popover (the browser's own:
// Escape or a click outside closes it), each with alt text. An image
// elsewhere on the web is a link that opens it in a new tab, never loaded
// by the page.
func toolImages(it *state.Item, label string, s Settings) app.UI {
	imgs := it.Tool.Images
	if len(imgs) == 0 {
		return nil
	}
	kids := make([]app.UI, len(imgs))
	for i, img := range imgs {
		alt := img.Name
		if alt == "" {
			alt = s.T("image.alt", i+1, label)
		}
		if img.URL == "" {
			host := ""
			if u, err := url.Parse(img.External); err == nil {
				host = u.Hostname()
			}
			kids[i] = app.A().Class("tool-image-link").Href(img.External).Target("_blank").Rel("noopener noreferrer").
				Text(s.T("image.external", alt, host))
			continue
		}
		id := domID("image", it) + "-" + strconv.Itoa(i)
		kids[i] = elem("div", "tool-image",
			app.Button().Type("button").Class("tool-image-open").Attr("popovertarget", id).
				Aria("label", s.T("image.open", alt)).Body(app.Img().Src(img.URL).Alt("")),
			elem("div", "image-popover", app.Img().Src(img.URL).Alt(alt),
				app.Button().Type("button").Class("image-close").Attr("popovertarget", id).Attr("popovertargetaction", "hide").
					Text(s.T("image.close"))).
				ID(id).Attr("popover", "auto").Attr("role", "dialog").Aria("label", alt),
		)
	}
	return elem("div", "tool-images", kids...)
}
