package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// followLater asks, after the render under way, that a reader at the top
// of a conversation that has just outgrown the screen be brought to its
// end (followEnd). Following new content is otherwise the CSS scroll
// anchor's (see ScrollToEnd), but browsers anchor no scroller scrolled to
// its very top: a conversation that starts short, the first answer or a
// stream a backend replays on reload, grew past the screen and the
// reader stayed at its top, away from the newest content.
func (c *Chunks) followLater() {
	if c.freeze.dom == nil || c.following {
		return // not in a browser, or already asked
	}
	c.following = true
	Defer(c.freeze.ctx, func(app.Context) {
		c.following = false
		followEnd()
	})
}
