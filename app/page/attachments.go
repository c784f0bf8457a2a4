package page

import (
	"errors"
	"strconv"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// Files the person attaches to the message being written
// (docs/protocol-extensions.md#attachments): each is checked against the
// deployment's limits, then uploaded at once, its chip showing its
// progress; the message goes with those uploaded. A refused file keeps
// its chip, saying why, until it is removed: nothing typed or attached
// is lost.

// PickedFile is a file the person attached, as the browser gives it.
type PickedFile struct {
	_               [0]func() // not comparable: no equality code in app.wasm
	Name, MediaType string
	Size            int64
	Thumb           string // an image's preview (an object URL), "" for none
	File            any    // the browser's File, for backend.Upload
}

// draftFile is a file attached to the message being written.
type draftFile struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	components.DraftFile
	block wire.ContentBlock // once uploaded: what the message sends
}

// errUploading: a message was sent while its files were still uploading.
var errUploading = errors.New("uploading")

// attach checks the files attached and uploads those that may go.
func (m *Model) attach(files []PickedFile) {
	for _, p := range files {
		m.fileSeq++
		f := draftFile{DraftFile: components.DraftFile{ID: "f" + strconv.Itoa(m.fileSeq), Name: p.Name, MediaType: p.MediaType, Size: p.Size, Thumb: p.Thumb}}
		count, bytes := m.heldFiles()
		if kind := state.CheckUpload(m.limits, p.Name, p.MediaType, p.Size, count, bytes); kind != "" {
			f.Error = components.UploadRefusal(m.settings, p.Name, kind, m.limitOf(kind), "")
			m.announce.say(f.Error)
		} else {
			t, _ := wire.ResolveFileType(p.Name, p.MediaType)
			f.MediaType = t.MediaType
			m.do(backend.Upload{ID: f.ID, Name: p.Name, MediaType: f.MediaType, File: p.File})
		}
		m.files = append(m.files, f)
	}
}

// heldFiles counts the files attached that are not refused, and their
// bytes.
func (m *Model) heldFiles() (count int, bytes int64) {
	for _, f := range m.files {
		if f.Error == "" {
			count++
			bytes += f.Size
		}
	}
	return count, bytes
}

// limitOf is the bound a refusal of CheckUpload's broke.
func (m *Model) limitOf(kind string) int64 {
	switch kind {
	case state.UploadTooLarge:
		return m.limits.FileBytes
	case state.UploadTooMany:
		return int64(m.limits.Files)
	case state.UploadMessageFull:
		return m.limits.MessageBytes
	}
	return 0
}

func (m *Model) file(id string) *draftFile {
	for i := range m.files {
		if m.files[i].ID == id {
			return &m.files[i]
		}
	}
	return nil
}

// uploadProgress moves a file's progress bar.
func (m *Model) uploadProgress(ev backend.UploadProgress) {
	if f := m.file(ev.ID); f != nil && ev.Total > 0 && !f.Done {
		f.Progress = float64(ev.Sent) / float64(ev.Total)
	}
}

// uploaded is an upload's outcome: the file is ready to go, or its chip
// says why the backend refused it.
func (m *Model) uploaded(ev backend.Uploaded) {
	f := m.file(ev.ID)
	if f == nil {
		return // removed meanwhile
	}
	if ev.Err != nil {
		var ce *backend.CommandError
		kind, msg := "", ev.Err.Error()
		if errors.As(ev.Err, &ce) {
			kind, msg = ce.Type, ce.Message
		}
		f.Error = components.UploadRefusal(m.settings, f.Name, kind, ev.Limit, msg)
		m.announce.say(f.Error)
		return
	}
	f.Done, f.Progress = true, 1
	f.block = wire.FileBlock(ev.File.FileID, ev.File.FileInfo)
	if ev.Block != nil {
		f.block = *ev.Block
	}
}

// removeFile takes a file off the message being written.
func (m *Model) removeFile(id string) {
	for i, f := range m.files {
		if f.ID == id {
			m.files = append(m.files[:i:i], m.files[i+1:]...)
			m.releaseThumbs([]draftFile{f})
			return
		}
	}
}

func (m *Model) releaseThumbs(files []draftFile) {
	for _, f := range files {
		if f.Thumb != "" {
			m.do(ReleaseThumb{URL: f.Thumb})
		}
	}
}

// takeFiles takes the files uploaded off the composer for the message
// sent (refused ones go too: the message went without them); ok is
// false while one still uploads, and then nothing is taken.
func (m *Model) takeFiles() (files []draftFile, ok bool) {
	for _, f := range m.files {
		if f.Error == "" && !f.Done {
			return nil, false
		}
	}
	for _, f := range m.files {
		if f.Error == "" {
			files = append(files, f)
		}
	}
	m.releaseThumbs(m.files) // the message shows the backend's copies
	m.files = nil
	return files, true
}

// blocks are the content blocks of files uploaded.
func blocks(files []draftFile) []wire.ContentBlock {
	if len(files) == 0 {
		return nil
	}
	out := make([]wire.ContentBlock, len(files))
	for i, f := range files {
		out[i] = f.block
	}
	return out
}

// attachProps is what the composer shows of the files.
func (m *Model) attachProps() components.Attach {
	a := components.Attach{On: m.traits.Uploads && m.limits.FileBytes > 0}
	if !a.On {
		return a
	}
	a.Accept = wire.AcceptAttribute()
	if len(m.files) > 0 {
		a.Files = make([]components.DraftFile, len(m.files))
		for i, f := range m.files {
			a.Files[i] = f.DraftFile
		}
	}
	return a
}

// sentBlocks are the blocks that send again the files a message kept
// (an edit keeps its message's files).
func sentBlocks(files []state.Attachment) []wire.ContentBlock {
	var out []wire.ContentBlock
	for _, a := range files {
		if a.FileID != "" {
			out = append(out, wire.FileBlock(a.FileID, wire.FileInfo{Name: a.Name, MediaType: a.MediaType, Size: a.Size}))
		}
	}
	return out
}
