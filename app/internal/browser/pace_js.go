//go:build js && wasm

package browser

import "syscall/js"

// PauseTask blocks the calling goroutine until the browser has run a task
// of its own: a MessageChannel's message, which (unlike a timer) is neither
// clamped to 4 ms nor slowed to once a second in a hidden tab. It must not
// be called in go-app's engine work (an action handler, a dispatch), which
// it would hold while it waits.
func PauseTask() {
	done := make(chan struct{})
	channel := js.Global().Get("MessageChannel").New()
	port := channel.Get("port1")
	port.Set("onmessage", CallOnce(func([]js.Value) { close(done) }))
	channel.Get("port2").Call("postMessage", nil)
	<-done
	port.Call("close")
}
