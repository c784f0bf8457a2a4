package components

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// Files a person attaches (docs/protocol-extensions.md#attachments): chips
// in the composer while they upload, then thumbnails (images, which open
// full size) and chips (other files) on the message sent; and the
// pictures the agent shows.

// The composer's file actions.
const (
	// ActionAttachFiles: files to attach, from the button, a drop or a
	// paste; its value is a JavaScript array of File objects.
	ActionAttachFiles = "stepwise.files.attach"
	ActionRemoveFile  = "stepwise.files.remove" // string: DraftFile.ID
)

// Attach is what the composer needs to take files. Off (the zero value):
// no attach button, no drop, no paste.
type Attach struct {
	On     bool
	Accept string      // the file input's accept attribute
	Files  []DraftFile // attached to the message being written
}

// DraftFile is a file attached to the message being written, as the
// controller tracks it.
type DraftFile struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	ID        string    // the page's own id for it
	Name      string
	MediaType string
	Size      int64
	Thumb     string  // an image's preview (an object URL), "" for none
	Progress  float64 // 0 to 1 while it uploads
	Done      bool    // uploaded
	Error     string  // why it cannot be sent, in words; it stays until removed
}

const attachInputID = "attach-input"

// attachFiles raises the files of a FileList (copied: the input's list is
// emptied so that the same file can be picked again).
func attachFiles(ctx app.Context, files app.Value) bool {
	if !files.Truthy() || files.Length() == 0 {
		return false
	}
	ctx.NewActionWithValue(ActionAttachFiles, app.Window().Get("Array").Call("from", files))
	return true
}

// attachButton opens the file picker.
func attachButton(s Settings, a Attach, disabled bool) app.UI {
	return app.Span().Class("attach-wrap").Body(
		app.Input().Type("file").ID(attachInputID).Hidden(true).Multiple(true).Accept(a.Accept).
			DataSet("testid", "attach-input").OnChange(onPickFiles),
		iconButton("attach", "attach", s.T("attach.button"), "paperclip").Disabled(disabled).OnClick(openPicker),
	)
}

func onPickFiles(ctx app.Context, e app.Event) {
	in := e.Get("target")
	attachFiles(ctx, in.Get("files"))
	in.Set("value", "")
}

func openPicker(ctx app.Context, e app.Event) {
	if in := app.Window().GetElementByID(attachInputID); in.Truthy() {
		in.Call("click")
	}
}

// onPasteFiles attaches the files pasted (a picture from the clipboard);
// pasted text stays text.
func onPasteFiles(ctx app.Context, e app.Event) {
	data := e.Get("clipboardData")
	if !data.Truthy() || data.Call("getData", "text/plain").String() != "" {
		ctx.PreventUpdate()
		return
	}
	if attachFiles(ctx, data.Get("files")) {
		e.PreventDefault()
	}
}

// dropHandlers let files be dropped anywhere on the conversation's column.
func dropHandlers(column app.HTMLMain) app.HTMLMain {
	hasFiles := func(e app.Event) bool {
		dt := e.Get("dataTransfer")
		return dt.Truthy() && dt.Get("types").Call("includes", "Files").Bool()
	}
	return column.OnDragOver(func(ctx app.Context, e app.Event) {
		ctx.PreventUpdate()
		if hasFiles(e) {
			e.PreventDefault() // allows the drop
			e.Get("dataTransfer").Set("dropEffect", "copy")
		}
	}).OnDrop(func(ctx app.Context, e app.Event) {
		ctx.PreventUpdate()
		if hasFiles(e) {
			e.PreventDefault() // not opened by the browser
			attachFiles(ctx, e.Get("dataTransfer").Get("files"))
		}
	})
}

// draftChips are the composer's attached files: a thumbnail or a type
// icon, the name and size, a progress bar while uploading, why it was
// refused, and a button to remove it.
func draftChips(s Settings, files []DraftFile) app.UI {
	chips := make([]app.UI, len(files))
	for i, f := range files {
		state, status := "uploading", app.UI(nil)
		switch {
		case f.Error != "":
			state, status = "error", app.Span().Class("chip-error").DataSet("testid", "draft-file-error").Text(f.Error)
		case f.Done:
			state = "done"
		default:
			pct := strconv.Itoa(int(f.Progress*100 + 0.5))
			status = app.Span().Class("chip-progress").Attr("role", "progressbar").Aria("label", s.T("attach.uploading", f.Name)).
				Aria("valuenow", pct).Body(app.Span().Style("width", pct+"%"))
		}
		preview := fileIcon("")
		if f.Thumb != "" {
			preview = decorative(app.Img().Class("chip-thumb").Src(f.Thumb))
		}
		id := f.ID
		chips[i] = app.Li().Class("attachment-chip is-"+state).DataSet("testid", "draft-file").DataSet("state", state).Body(
			preview,
			chipText(f.Name, fileSize(f.Size, s), status),
			iconButton("chip-remove", "remove-file", s.T("attach.remove", f.Name), "close").
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(ActionRemoveFile, id)
					focusID(composerID) // not Defer: go-app skips it once the button is gone
				}, app.EventScope(id)),
		)
	}
	return app.Ul().Class("chips").Aria("label", s.T("attach.list")).DataSet("testid", "draft-files").Body(chips...)
}

func fileIcon(tag string) app.UI {
	return app.Span().Class("chip-icon").DataSet("type", tag).Body(icon("file"))
}

func chipText(name, detail string, status app.UI) app.UI {
	return app.Span().Class("chip-text").Body(
		app.Span().Class("chip-name").Title(name).Text(name),
		app.Span().Class("chip-size").Text(detail),
		status,
	)
}

// attachmentsView is a sent message's files: images as thumbnails that
// open full size, other files as chips with their type's icon (a link to
// download them when the backend gives their URL).
func attachmentsView(it *state.Item, s Settings) app.UI {
	if len(it.Attachments) == 0 {
		return app.If(false, nil)
	}
	out := make([]app.UI, len(it.Attachments))
	for i, a := range it.Attachments {
		if a.Image && a.Src != "" {
			out[i] = &Picture{ID: domID("file", it) + "-" + strconv.Itoa(i), Src: a.Src, Name: a.Name, Width: a.Width, Height: a.Height, Settings: s}
			continue
		}
		// A link to download it when the backend gives its URL (an <a>
		// without href is none).
		tag := typeTag(a.MediaType)
		link := app.A().Class("attachment-chip file-chip").DataSet("testid", "attachment").Body(
			fileIcon(tag), chipText(a.Name, tag+" · "+fileSize(a.Size, s), nil))
		if a.URL != "" {
			link = link.Href(a.URL).Attr("download", a.Name).Title(s.T("attach.download", a.Name))
		}
		out[i] = link
	}
	return app.Div().Class("attachments").Body(out...)
}

// typeTag names a file's type in short: PNG, PDF, CSV, TXT.
func typeTag(mediaType string) string {
	for _, t := range [...][2]string{{"text/plain", "TXT"}, {"text/markdown", "MD"}, {"application/json", "JSON"},
		{"application/pdf", "PDF"}, {"text/csv", "CSV"}, {"image/png", "PNG"}, {"image/jpeg", "JPEG"},
		{"image/webp", "WEBP"}, {"image/gif", "GIF"}} {
		if t[0] == mediaType {
			return t[1]
		}
	}
	return "FILE"
}

// fileSize writes a size for people, in the page's language: 912 B,
// 47.1 KB, 3.2 MB.
func fileSize(n int64, s Settings) string {
	switch {
	case n < 1000:
		return s.T("size.bytes", s.Locale.Int(n))
	case n < 1000*1024:
		return s.T("size.kb", s.Locale.Decimal(n/1024, int(n%1024*10/1024)))
	}
	return s.T("size.mb", s.Locale.Decimal(n>>20, int(n%(1<<20)*10>>20)))
}

// Picture is an image shown small: a button that opens it full size in a
// modal dialog (Escape, the close button or a click beside it close it,
// and the focus goes back to the thumbnail).
type Picture struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	app.Compo
	ID            string // unique in the page
	Src           string
	Name          string // "" for a picture without one
	Width, Height int
	Settings      Settings

	open bool
}

func (p *Picture) alt() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Settings.T("picture.unnamed")
}

func (p *Picture) show(ctx app.Context, e app.Event) {
	p.open = true
	id := p.ID
	ctx.Defer(func(app.Context) {
		if d := app.Window().GetElementByID(id); d.Truthy() && !d.Get("open").Bool() {
			d.Call("showModal")
		}
	})
}

func (p *Picture) closeDialog(ctx app.Context, e app.Event) {
	if d := app.Window().GetElementByID(p.ID); d.Truthy() && d.Get("open").Bool() {
		d.Call("close") // its close event ends it
	}
}

func (p *Picture) onBackdrop(ctx app.Context, e app.Event) {
	// A click on the backdrop (the dialog itself, not its picture).
	if e.Get("target").Equal(e.Get("currentTarget")) {
		p.closeDialog(ctx, e)
	}
	ctx.PreventUpdate()
}

func (p *Picture) onClose(ctx app.Context, e app.Event) { p.open = false }

func (p *Picture) Render() app.UI {
	s, alt := p.Settings, p.alt()
	img := app.Img().Class("thumb-img").Src(p.Src).Alt(alt).Attr("referrerpolicy", "no-referrer")
	if p.Width > 0 && p.Height > 0 {
		img = img.Width(p.Width).Height(p.Height)
	}
	var lightbox app.UI
	if p.open {
		// app.Elem, not app.Dialog: its element type's sixty methods
		// would all join the wasm.
		lightbox = app.Elem("dialog").ID(p.ID).Class("lightbox").DataSet("testid", "lightbox").Aria("label", alt).
			On("close", p.onClose).OnClick(p.onBackdrop).Body(
			app.Img().Class("lightbox-img").Src(p.Src).Alt(alt).Attr("referrerpolicy", "no-referrer"),
			iconButton("lightbox-close", "lightbox-close", s.T("picture.close"), "close").OnClick(p.closeDialog),
		)
	}
	return app.Span().Class("picture").Body(
		app.Button().Type("button").Class("thumb").DataSet("testid", "picture").Aria("label", s.T("picture.open", alt)).
			OnClick(p.show).Body(img),
		lightbox,
	)
}

// pictures are the images an item carries (a tool's result).
func pictures(it *state.Item, imgs []state.Image, s Settings) app.UI {
	out := make([]app.UI, 0, len(imgs))
	for i, img := range imgs {
		out = append(out, pictureOf(domID("pic", it)+"-"+strconv.Itoa(i), &img, s))
	}
	return app.Div().Class("pictures").Body(out...)
}

// pictureOf is one picture the agent sent; one that cannot be shown (too
// large, or from where the page does not fetch) is named instead.
func pictureOf(id string, img *state.Image, s Settings) app.UI {
	if img.Src == "" {
		return app.Span().Class("attachment-chip picture-missing").DataSet("testid", "picture-missing").Text(s.T("picture.not_shown"))
	}
	return &Picture{ID: id, Src: img.Src, Name: img.Name, Width: img.Width, Height: img.Height, Settings: s}
}

// uploadRefusals word why a file cannot be attached or was refused: the
// kinds of state.CheckUpload and those of a backend's refusal
// (docs/protocol-extensions.md#attachments).
var uploadRefusals = map[string]string{
	state.UploadUnsupported: "upload.err.unsupported_type",
	state.UploadEmpty:       "upload.err.empty_file",
	state.UploadTooLarge:    "upload.err.too_large",
	state.UploadTooMany:     "upload.err.too_many_files",
	state.UploadMessageFull: "upload.err.message_too_large",
	state.UploadOff:         "upload.err.uploads_off",
	"type_mismatch":         "upload.err.type_mismatch",
	"incomplete":            "upload.err.incomplete",
	"quota_exceeded":        "upload.err.quota_exceeded",
	"too_many_uploads":      "upload.err.too_many_uploads",
	"storage_full":          "upload.err.storage_full",
	"not_found":             "upload.err.not_found",
}

// UploadRefusal says, in the page's language, why a file cannot be
// attached: kind is CheckUpload's or the backend's error type, limit the
// bound it broke (bytes, or files for too_many_files). An unknown kind
// gives the backend's own message, or a general one.
func UploadRefusal(s Settings, name, kind string, limit int64, message string) string {
	key, ok := uploadRefusals[kind]
	switch {
	case !ok && message != "":
		return s.T("upload.err.named", name, message)
	case !ok:
		return s.T("upload.err.failed", name)
	case kind == state.UploadTooMany:
		return s.T(key, limit)
	case kind == state.UploadTooLarge || kind == state.UploadMessageFull || kind == "quota_exceeded":
		return s.T(key, name, fileSize(limit, s))
	}
	return s.T(key, name)
}
