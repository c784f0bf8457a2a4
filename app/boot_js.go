//go:build js && wasm

package app

import (
	"syscall/js"

	"stepwise/app/page"
)

// takeBootInput takes what web/boot.js kept from the prerendered page, and
// ends its part: from now on the app's own composer takes the input.
func takeBootInput() page.Boot {
	boot := js.Global().Get("stepwiseBoot")
	if boot.Type() != js.TypeObject {
		return page.Boot{}
	}
	v := boot.Call("take")
	var in page.Boot
	msgs := v.Get("messages")
	for i := 0; i < msgs.Length(); i++ {
		in.Messages = append(in.Messages, msgs.Index(i).String())
	}
	in.Draft = v.Get("draft").String()
	in.Focused = v.Get("focused").Bool()
	return in
}
