//go:build js && wasm

package app

import "syscall/js"

// takeBootInput takes what web/boot.js kept from the prerendered page, and
// ends its part: from now on the app's own composer takes the input.
func takeBootInput() bootInput {
	boot := js.Global().Get("stepwiseBoot")
	if boot.Type() != js.TypeObject {
		return bootInput{}
	}
	v := boot.Call("take")
	var in bootInput
	msgs := v.Get("messages")
	for i := 0; i < msgs.Length(); i++ {
		in.Messages = append(in.Messages, msgs.Index(i).String())
	}
	in.Draft = v.Get("draft").String()
	in.Focused = v.Get("focused").Bool()
	return in
}
