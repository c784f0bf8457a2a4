//go:build js && wasm

package agent

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/backend"
	"stepwise/app/internal/browser"
)

// readFile reads a file the person attached (the browser's File) as a
// data: URL with a FileReader, whose progress moves the chip's bar; the
// file is read whole into memory, within the deployment's per-file limit
// that the page checked before.
func readFile(u backend.Upload, deliver func(backend.Event)) {
	file, ok := u.File.(app.Value)
	if !ok {
		deliver(backend.Uploaded{ID: u.ID, Err: backend.ErrUnsupported})
		return
	}
	size := int64(file.Get("size").Float())
	r := app.Window().Get("FileReader").New()
	var progress, done app.Func
	progress = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		deliver(backend.UploadProgress{ID: u.ID, Sent: int64(e.Get("loaded").Float()), Total: int64(e.Get("total").Float())})
		return nil
	})
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		progress.Release()
		done.Release()
		var err error
		url := ""
		if result := r.Get("result"); result.Type() == app.TypeString {
			url = result.String()
		} else {
			err = backend.ErrUnsupported // the browser could not read it
		}
		go deliver(fileRead(u, size, url, err))
		return nil
	})
	r.Call("addEventListener", "progress", progress)
	r.Call("addEventListener", "loadend", done)
	r.Call("readAsDataURL", file)
}

// postJSON POSTs body to url (a rating) and returns the answer's status.
func postJSON(url string, body []byte) (int, error) {
	init := map[string]any{
		"method":      "POST",
		"headers":     map[string]any{"Content-Type": "application/json"},
		"body":        string(body),
		"credentials": "same-origin",
	}
	resp, err := browser.Await(js.Global().Call("fetch", url, init))
	if err != nil {
		return 0, err
	}
	return resp.Get("status").Int(), nil
}
