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
			kids[i] = textElem("a", "tool-image-link", s.T("image.external", alt, host)).
				Attr("href", img.External).Attr("target", "_blank").Attr("rel", "noopener noreferrer")
			continue
		}
		id := domID("image", it) + "-" + strconv.Itoa(i)
		kids[i] = elem("div", "tool-image",
			// The thumbnail is named by its button.
			elem("button", "tool-image-open", imgElem(img.URL, "").Attr("role", "presentation")).
				Attr("type", "button").Attr("popovertarget", id).Aria("label", s.T("image.open", alt)),
			elem("div", "image-popover", imgElem(img.URL, alt),
				textElem("button", "image-close", s.T("image.close")).
					Attr("type", "button").Attr("popovertarget", id).Attr("popovertargetaction", "hide")).
				ID(id).Attr("popover", "auto").Attr("role", "dialog").Aria("label", alt),
		)
	}
	return elem("div", "tool-images", kids...)
}

// imgElem is an image; an empty alt is left out (the caller names it).
func imgElem(src, alt string) app.HTMLElemSelfClosing {
	e := app.ElemSelfClosing("img").Attr("src", src)
	if alt != "" {
		e = e.Attr("alt", alt)
	}
	return e
}
