//go:build js && wasm

package replay

import "syscall/js"

// Recorder is the Conn of replay mode: there is no backend, so each frame
// the user sends is kept in window.__stepwiseFrames (JSON text), where
// integrators and browser tests can read exactly what would have been sent.
// No outcome ever comes back.
type Recorder struct{}

// Send records the frame.
func (Recorder) Send(b []byte) error {
	global := js.Global()
	frames := global.Get("__stepwiseFrames")
	if !frames.Truthy() {
		frames = global.Get("Array").New()
		global.Set("__stepwiseFrames", frames)
	}
	frames.Call("push", string(b))
	return nil
}
