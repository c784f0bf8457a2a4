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
		kids[i] = imageView(img, alt, s)
	}
	return elem("div", "tool-images", kids...)
}

// imageView is an image from the backend: a picture that opens full size,
// or, for an image elsewhere on the web, a link that opens it in a new
// tab, never loaded by the page (docs/security.md).
func imageView(img state.ToolImage, alt string, s Settings) app.UI {
	if img.URL == "" {
		host := ""
		if u, err := url.Parse(img.External); err == nil {
			host = u.Hostname()
		}
		return attrs(textElem("a", "tool-image-link", s.T("image.external", alt, host)),
			"href", img.External, "target", "_blank", "rel", "noopener noreferrer")
	}
	return picture(img.URL, alt, 0, 0, s)
}

// picture is every image the page shows (a tool's, an answer's, a file
// attached): a thumbnail, a button that opens it full size in a modal
// dialog. The browser does the rest: Escape closes it, the focus goes to
// its close button and back to the thumbnail after; a click beside the
// picture or on the close button closes it (onLightboxClick). The dialog's
// image loads only when it opens (the thumbnail's, already loaded).
func picture(src, alt string, width, height int, s Settings) app.UI {
	return elem("span", "picture",
		attrs(elem("button", "thumb", imgElem("thumb-img", src, "", "width", pixels(width), "height", pixels(height))),
			"type", "button", "data-testid", "picture", "aria-label", s.T("image.open", alt), "aria-haspopup", "dialog").
			On("click", openPicture),
		attrs(elem("dialog", "lightbox",
			imgElem("lightbox-img", src, alt, "loading", "lazy"),
			iconButton("lightbox-close", "lightbox-close", s.T("image.close"), "close"),
		), "data-testid", "lightbox", "aria-label", alt).On("click", onLightboxClick),
	)
}

// pixels is a dimension's attribute: "" (none) when it is not known.
func pixels(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// openPicture opens the dialog after the thumbnail clicked.
func openPicture(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if d := e.Get("currentTarget").Get("nextElementSibling"); d.Truthy() && !d.Get("open").Bool() {
		d.Call("showModal")
	}
}

// onLightboxClick closes the dialog on a click on its backdrop (the
// dialog itself, not its picture) or its close button.
func onLightboxClick(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	d, t := e.Get("currentTarget"), e.Get("target")
	if t.Equal(d) || t.Call("closest", ".lightbox-close").Truthy() {
		d.Call("close")
	}
}

// imgElem is an image; an empty alt leaves it out and makes the image
// presentation (its button names it). It never sends the page's address
// to where it comes from.
func imgElem(class, src, alt string, kv ...string) app.HTMLElemSelfClosing {
	role := ""
	if alt == "" {
		role = "presentation"
	}
	return voidElem("img", append([]string{"class", class, "src", src, "alt", alt, "role", role, "referrerpolicy", "no-referrer"}, kv...)...)
}

// voidElem is an element without children, with attributes given as
// name, value pairs, as attrs sets them.
//
//go:noinline
func voidElem(tag string, kv ...string) app.HTMLElemSelfClosing {
	e := app.ElemSelfClosing(tag)
	for i := 1; i < len(kv); i += 2 {
		e = e.Attr(kv[i-1], kv[i])
	}
	return e
}
