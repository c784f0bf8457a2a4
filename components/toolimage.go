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
		return attrs(textElem("a", "tool-image-link", s.T("image.external", alt, host)),
			"href", img.External, "target", "_blank", "rel", "noopener noreferrer")
	}
	return elem("div", "tool-image",
		// The thumbnail is named by its button.
		attrs(elem("button", "tool-image-open", imgElem(img.URL, "")),
			"type", "button", "popovertarget", id, "aria-label", s.T("image.open", alt)),
		attrs(elem("div", "image-popover", imgElem(img.URL, alt),
			attrs(textElem("button", "image-close", s.T("image.close")),
				"type", "button", "popovertarget", id, "popovertargetaction", "hide")),
			"id", id, "popover", "auto", "role", "dialog", "aria-label", alt),
	)
}

// imgElem is an image; an empty alt leaves it out and makes the image
// presentation (its button names it).
func imgElem(src, alt string) app.UI {
	e := app.ElemSelfClosing("img").Attr("src", src)
	if alt == "" {
		return e.Attr("role", "presentation")
	}
	return e.Attr("alt", alt)
}
