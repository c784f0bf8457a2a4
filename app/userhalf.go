package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/page"
	"stepwise/components"
	"stepwise/state/wire"
)

// The user's half's actions (components/messages.go, attachments.go,
// export.go) as the page's messages: one handler for them all.
func (c *Controller) mountUserHalf(ctx app.Context) {
	for _, action := range [...]string{components.ActionAttachFiles, components.ActionRemoveFile, components.ActionEditSent,
		components.ActionFeedback, components.ActionRegenerate, components.ActionSelectBranch, components.ActionDiscardEdit, components.ActionExport,
		components.ActionJumpToLatest} {
		c.handle(ctx, action, userHalfMsg)
	}
}

func userHalfMsg(a app.Action) page.Msg {
	id, _ := a.Value.(string)
	switch a.Name {
	case components.ActionAttachFiles:
		if files, ok := a.Value.(app.Value); ok {
			return page.AttachFiles{Files: pickedFiles(files)}
		}
	case components.ActionRemoveFile:
		return page.RemoveFile{ID: id}
	case components.ActionEditSent:
		return value[components.EditCommand](a)
	case components.ActionFeedback:
		return value[components.FeedbackCommand](a)
	case components.ActionRegenerate:
		return page.Regenerate{MessageID: id}
	case components.ActionSelectBranch:
		return page.SelectBranch{MessageID: id}
	case components.ActionDiscardEdit:
		return page.DiscardEdit{MessageID: id}
	case components.ActionExport:
		return page.Export{Format: id}
	case components.ActionJumpToLatest:
		return page.JumpToLatest{}
	}
	return nil
}

// pickedFiles reads a JavaScript array of File objects; an image gets a
// preview (an object URL, released when its chip goes).
func pickedFiles(files app.Value) []page.PickedFile {
	out := make([]page.PickedFile, files.Length())
	for i := range out {
		f := files.Index(i)
		p := page.PickedFile{Name: f.Get("name").String(), MediaType: f.Get("type").String(), Size: int64(f.Get("size").Float()), File: f}
		if t, err := wire.ResolveFileType(p.Name, p.MediaType); err == nil && t.Image {
			p.Thumb = app.Window().Get("URL").Call("createObjectURL", f).String()
		}
		out[i] = p
	}
	return out
}

// download offers text to save as a file called name; the object URL it
// makes is released a while later (the download starts after the click
// returns).
func download(ctx app.Context, name, mediaType, text string) {
	w := app.Window()
	blob := w.Get("Blob").New([]any{text}, map[string]any{"type": mediaType + ";charset=utf-8"})
	href := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
	ctx.After(time.Minute, func(app.Context) { w.Get("URL").Call("revokeObjectURL", href) })
}
