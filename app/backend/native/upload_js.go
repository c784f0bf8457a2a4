//go:build js && wasm

package native

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/backend"
)

// upload POSTs a file's bytes to the files endpoint
// (docs/protocol-extensions.md#attachments) with XMLHttpRequest, the one
// browser API that reports an upload's progress; the browser streams the
// File from disk.
func (b *Backend) upload(u backend.Upload) {
	file, ok := u.File.(app.Value)
	if !ok {
		b.deliver(backend.Uploaded{ID: u.ID, Err: backend.ErrUnsupported})
		return
	}
	xhr := app.Window().Get("XMLHttpRequest").New()
	xhr.Call("open", "POST", b.cfg.path(b.cfg.FilesPath)+"?name="+url.QueryEscape(u.Name))
	xhr.Call("setRequestHeader", "Content-Type", u.MediaType)
	var progress, done app.Func
	progress = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		b.deliver(backend.UploadProgress{ID: u.ID, Sent: int64(e.Get("loaded").Float()), Total: int64(e.Get("total").Float())})
		return nil
	})
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		progress.Release()
		done.Release()
		b.deliver(uploadOutcome(u.ID, xhr.Get("status").Int(), xhr.Get("responseText").String()))
		return nil
	})
	xhr.Get("upload").Call("addEventListener", "progress", progress)
	xhr.Call("addEventListener", "loadend", done)
	xhr.Call("send", file)
}
