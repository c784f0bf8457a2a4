package components

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// decorative marks an image that says nothing the text beside it does not
// (the logo next to the agent's name, a favicon next to the site's): screen
// readers skip it. alt="" would say the same, but go-app drops an empty
// attribute, and an image with no alt at all is read out by its file name.
func decorative(img app.HTMLImg) app.HTMLImg {
	return img.Attr("role", "presentation")
}
