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

// attachButton opens the file picker. While disabled (the prerendered
// page) the picker's input is left out: nothing but boot.js's send button
// may be used before the app runs.
func attachButton(s Settings, a Attach, disabled bool) app.UI {
	var picker app.UI
	if !disabled {
		picker = voidElem("input", "type", "file", "id", attachInputID, "hidden", "true", "multiple", "true",
			"accept", a.Accept, "data-testid", "attach-input").On("change", onPickFiles)
	}
	return elem("span", "attach-wrap", picker,
		attrs(iconButton("attach", "attach", s.T("attach.button"), "paperclip"), "disabled", trueIf(disabled)).On("click", openPicker),
	)
}

// trueIf is a boolean attribute's value: "" leaves it out (attrs).
func trueIf(b bool) string {
	if b {
		return "true"
	}
	return ""
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

// onDragFiles lets files be dropped anywhere on the conversation's column
// (its dragover and drop).
func onDragFiles(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	dt := e.Get("dataTransfer")
	if !dt.Truthy() || !dt.Get("types").Call("includes", "Files").Bool() {
		return
	}
	e.PreventDefault() // allows the drop; a file dropped is not opened by the browser
	if e.Get("type").String() == "drop" {
		attachFiles(ctx, dt.Get("files"))
	} else {
		dt.Set("dropEffect", "copy")
	}
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
			state, status = "error", attrs(textElem("span", "chip-error", f.Error), "data-testid", "draft-file-error")
		case f.Done:
			state = "done"
		default:
			pct := strconv.Itoa(int(f.Progress*100 + 0.5))
			status = attrs(elem("span", "chip-progress", attrs(app.Elem("span"), "style", "width:"+pct+"%")),
				"role", "progressbar", "aria-label", s.T("attach.uploading", f.Name), "aria-valuenow", pct)
		}
		preview := fileIcon("")
		if f.Thumb != "" {
			preview = imgElem("chip-thumb", f.Thumb, "")
		}
		chips[i] = attrs(elem("li", "attachment-chip is-"+state,
			preview,
			chipText(f.Name, fileSize(f.Size, s), status),
			raiser(iconButton("chip-remove", "remove-file", s.T("attach.remove", f.Name), "close"), ActionRemoveFile, f.ID),
		), "data-testid", "draft-file", "data-state", state)
	}
	return attrs(elem("ul", "chips", chips...), "aria-label", s.T("attach.list"), "data-testid", "draft-files")
}

func fileIcon(tag string) app.UI {
	return attrs(elem("span", "chip-icon", icon("file")), "data-type", tag)
}

func chipText(name, detail string, status app.UI) app.UI {
	return elem("span", "chip-text",
		attrs(textElem("span", "chip-name", name), "title", name),
		textElem("span", "chip-size", detail),
		status,
	)
}

// attachmentsView is a sent message's files: images as thumbnails that
// open full size, other files as chips with their type's icon (a link to
// download them when the backend gives their URL).
func attachmentsView(it *state.Item, s Settings) app.UI {
	if len(it.Attachments) == 0 {
		return nil
	}
	out := make([]app.UI, len(it.Attachments))
	for i, a := range it.Attachments {
		if a.Image && a.Src != "" {
			out[i] = picture(a.Src, pictureName(a.Name, s), a.Width, a.Height, s)
			continue
		}
		// A link to download it when the backend gives its URL (an <a>
		// without href is none).
		tag, title, download := typeTag(a.MediaType), "", ""
		if a.URL != "" {
			title, download = s.T("attach.download", a.Name), a.Name
		}
		out[i] = attrs(elem("a", "attachment-chip file-chip", fileIcon(tag), chipText(a.Name, tag+" · "+fileSize(a.Size, s), nil)),
			"data-testid", "attachment", "href", a.URL, "download", download, "title", title)
	}
	return elem("div", "attachments", out...)
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

// pictureName is a picture's alt text: its name, else "Picture".
func pictureName(name string, s Settings) string {
	if name != "" {
		return name
	}
	return s.T("picture.unnamed")
}

// pictureOf is one picture the agent sent; one that cannot be shown (too
// large, or from where the page does not fetch) is named instead.
func pictureOf(img *state.Image, s Settings) app.UI {
	if img.Src == "" {
		return attrs(textElem("span", "attachment-chip picture-missing", s.T("picture.not_shown")), "data-testid", "picture-missing")
	}
	return picture(img.Src, pictureName(img.Name, s), img.Width, img.Height, s)
}

// uploadRefusals (kind, key) word why a file cannot be attached or was refused: the
// kinds of state.CheckUpload and those of a backend's refusal
// (docs/protocol-extensions.md#attachments).
var uploadRefusals = [...][2]string{
	{state.UploadUnsupported, "upload.err.unsupported_type"},
	{state.UploadEmpty, "upload.err.empty_file"},
	{state.UploadTooLarge, "upload.err.too_large"},
	{state.UploadTooMany, "upload.err.too_many_files"},
	{state.UploadMessageFull, "upload.err.message_too_large"},
	{state.UploadOff, "upload.err.uploads_off"},
	{"type_mismatch", "upload.err.type_mismatch"},
	{"incomplete", "upload.err.incomplete"},
	{"quota_exceeded", "upload.err.quota_exceeded"},
	{"too_many_uploads", "upload.err.too_many_uploads"},
	{"storage_full", "upload.err.storage_full"},
	{"not_found", "upload.err.not_found"},
}

// UploadRefusal says, in the page's language, why a file cannot be
// attached: kind is CheckUpload's or the backend's error type, limit the
// bound it broke (bytes, or files for too_many_files). An unknown kind
// gives the backend's own message, or a general one.
func UploadRefusal(s Settings, name, kind string, limit int64, message string) string {
	key, ok := "", false
	for _, r := range uploadRefusals {
		if r[0] == kind {
			key, ok = r[1], true
		}
	}
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
