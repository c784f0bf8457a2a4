package components

import (
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// toolImages shows the images a tool returned (state.ToolImage) under its
// row, each with alt text.
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
		kids[i] = imageView(img, alt, domID("image", it)+"-"+strconv.Itoa(i), s)
	}
	return elem("div", "tool-images", kids...)
}

// imageView is an image from the backend: a thumbnail that opens full
// size in a popover (the browser's own: Escape or a click outside closes
// it), or, for an image elsewhere on the web, a link that opens it in a
// new tab, never loaded by the page (docs/security.md).
func imageView(img state.ToolImage, alt, id string, s Settings) app.UI {
	if img.URL == "" {
		host := ""
		if u, err := url.Parse(img.External); err == nil {
			host = u.Hostname()
		}
		return textElem("a", "tool-image-link", s.T("image.external", alt, host)).
			Attr("href", img.External).Attr("target", "_blank").Attr("rel", "noopener noreferrer")
	}
	return elem("div", "tool-image",
		// The thumbnail is named by its button.
		elem("button", "tool-image-open", imgElem(img.URL, "").Attr("role", "presentation")).
			Attr("type", "button").Attr("popovertarget", id).Aria("label", s.T("image.open", alt)),
		elem("div", "image-popover", imgElem(img.URL, alt),
			textElem("button", "image-close", s.T("image.close")).
				Attr("type", "button").Attr("popovertarget", id).Attr("popovertargetaction", "hide")).
			ID(id).Attr("popover", "auto").Attr("role", "dialog").Aria("label", alt),
	)
}

// imgElem is an image; an empty alt is left out (the caller names it).
func imgElem(src, alt string) app.HTMLElemSelfClosing {
	e := app.ElemSelfClosing("img").Attr("src", src)
	if alt != "" {
		e = e.Attr("alt", alt)
	}
	return e
}
