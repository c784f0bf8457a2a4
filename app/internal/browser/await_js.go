//go:build js && wasm

package browser

import (
	"errors"
	"syscall/js"
)

// JSError is a JavaScript exception or rejection.
type JSError struct{ Value js.Value }

func (e JSError) Error() string {
	if e.Value.Type() == js.TypeObject && e.Value.Get("message").Type() == js.TypeString {
		return e.Value.Get("message").String()
	}
	return e.Value.Call("toString").String()
}

// Aborted reports an AbortError: the page aborted the request.
func Aborted(err error) bool {
	var je JSError
	return errors.As(err, &je) && je.Value.Type() == js.TypeObject && je.Value.Get("name").String() == "AbortError"
}

// Await waits for a promise. It blocks: call it on a goroutine of its own,
// never in a JavaScript callback nor in go-app's engine work.
func Await(p js.Value) (js.Value, error) {
	done := make(chan struct{})
	var v js.Value
	var err error
	then := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) > 0 {
			v = args[0]
		}
		close(done)
		return nil
	})
	catch := js.FuncOf(func(this js.Value, args []js.Value) any {
		err = JSError{args[0]}
		close(done)
		return nil
	})
	p.Call("then", then, catch)
	<-done
	then.Release()
	catch.Release()
	return v, err
}

// CallOnce is a JavaScript function that runs f and releases itself: for
// callbacks the browser calls once.
func CallOnce(f func(args []js.Value)) js.Func {
	var cb js.Func
	cb = js.FuncOf(func(this js.Value, args []js.Value) any {
		cb.Release()
		f(args)
		return nil
	})
	return cb
}
