//go:build js && wasm

package app

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// watchNetwork follows the browser's online and offline events: the page
// says at once that it is offline (a socket can look open for many seconds
// after the network went), and the transport drops or reopens its
// connection.
func watchNetwork(ctx app.Context, c *Controller) {
	c.noNetwork = js.Global().Get("navigator").Get("onLine").Equal(js.ValueOf(false))
	on := func(online bool) js.Func {
		return js.FuncOf(func(js.Value, []js.Value) any {
			ctx.Dispatch(func(ctx app.Context) {
				c.onNetwork(ctx, online)
				if l, ok := c.sess.Conn.(networkListener); ok {
					go l.NetworkChanged(online) // it may wait for its lock
				}
			})
			return nil
		})
	}
	js.Global().Call("addEventListener", "online", on(true))
	js.Global().Call("addEventListener", "offline", on(false))
}
