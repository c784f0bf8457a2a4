package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"strings"
	"unicode/utf8"
)

// Attachments (docs/protocol-extensions.md#attachments): the files a person
// sends with a message are content blocks in Anthropic's shapes, image and
// document, each with a source: a file uploaded first and named by its
// file_id, or the bytes (base64), or a URL. A backend's echo of the message
// and its history add to each block a `file` object: what the page shows
// of it (name, type, size, image dimensions, where to fetch the bytes).

// FileInfo is what the page shows of an attached file.
type FileInfo struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Name      string    `json:"name"`
	MediaType string    `json:"media_type"`
	Size      int64     `json:"size"`
	Width     int       `json:"width,omitempty"`
	Height    int       `json:"height,omitempty"`
	// URL fetches the bytes: a path on the backend's origin (resolved as
	// the page's API paths are) or an absolute http(s) URL.
	URL string `json:"url,omitempty"`
}

// UploadedFile is the answer to an upload (POST .../files): the file's id,
// to reference in the message, and what the page shows of it.
type UploadedFile struct {
	_      [0]func() // not comparable: no equality code in app.wasm
	FileID string    `json:"file_id"`
	FileInfo
}

// BlockSource is where a content block's bytes are, as Anthropic spells
// it: "file" (FileID, uploaded first), "base64" (Data and MediaType) or
// "url" (URL).
type BlockSource struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Type      string    `json:"type"`
	FileID    string    `json:"file_id,omitempty"`
	MediaType string    `json:"media_type,omitempty"`
	Data      string    `json:"data,omitempty"`
	URL       string    `json:"url,omitempty"`
}

// ContentBlock is one block of a user message's content: text, image or
// document.
type ContentBlock struct {
	_      [0]func()    // not comparable: no equality code in app.wasm
	Type   string       `json:"type"`
	Text   string       `json:"text,omitempty"`
	Source *BlockSource `json:"source,omitempty"`
	// Title is a document's title (Anthropic's field): the page sends the
	// file's name.
	Title string    `json:"title,omitempty"`
	File  *FileInfo `json:"file,omitempty"`
}

// FileBlock is the content block that sends an uploaded file: an image
// block for an image, else a document block titled with its name.
func FileBlock(fileID string, info FileInfo) ContentBlock {
	b := ContentBlock{Type: "document", Source: &BlockSource{Type: "file", FileID: fileID}, Title: info.Name}
	if IsImageType(info.MediaType) {
		b = ContentBlock{Type: "image", Source: &BlockSource{Type: "file", FileID: fileID}}
	}
	return b
}

// Attachment is a file of a user message, as read from its content.
type Attachment struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	// FileID is the uploaded file's id, "" for bytes sent inline or a URL.
	FileID string
	// Image: an image block (a thumbnail), else a document (a chip).
	Image bool
	FileInfo
	// Data is the base64 bytes of an inline block ("" otherwise).
	Data string
}

// Attachments reads the image and document blocks of a user message's
// content (a string has none). A block's `file` gives what is shown; an
// inline or URL source without one is named from its source.
func Attachments(content json.RawMessage) []Attachment {
	if IsNull(content) || bytes.TrimSpace(content)[0] != '[' {
		return nil
	}
	var blocks []ContentBlock
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	var out []Attachment
	for _, b := range blocks {
		if b.Type != "image" && b.Type != "document" {
			continue
		}
		a := Attachment{Image: b.Type == "image"}
		if b.File != nil {
			a.FileInfo = *b.File
		}
		if src := b.Source; src != nil {
			switch src.Type {
			case "file":
				a.FileID = src.FileID
			case "base64":
				a.Data = src.Data
				if a.Size == 0 {
					a.Size = int64(len(src.Data) / 4 * 3)
				}
			case "url":
				if a.URL == "" {
					a.URL = src.URL
				}
			}
			if a.MediaType == "" {
				a.MediaType = src.MediaType
			}
		}
		if a.Name == "" {
			a.Name = b.Title
		}
		if a.Name == "" && a.URL != "" {
			a.Name = path.Base(strings.SplitN(a.URL, "?", 2)[0])
		}
		out = append(out, a)
	}
	return out
}

// FileType is a kind of file a person may attach.
type FileType struct {
	MediaType string   // the canonical media type
	Exts      []string // file name extensions, lower case, with the dot
	Aliases   []string // other media types browsers give it
	Image     bool     // shown as an image
	Text      bool     // UTF-8 text, checked as such
}

// FileTypes are the files a person may attach: what the page offers and
// the demo agent takes.
var FileTypes = []FileType{
	{MediaType: "image/png", Exts: []string{".png"}, Image: true},
	{MediaType: "image/jpeg", Exts: []string{".jpg", ".jpeg", ".jpe", ".jfif"}, Aliases: []string{"image/pjpeg", "image/jpg"}, Image: true},
	{MediaType: "image/webp", Exts: []string{".webp"}, Image: true},
	{MediaType: "image/gif", Exts: []string{".gif"}, Image: true},
	{MediaType: "application/pdf", Exts: []string{".pdf"}, Aliases: []string{"application/x-pdf"}},
	{MediaType: "text/plain", Exts: []string{".txt", ".text", ".log"}, Text: true},
	{MediaType: "text/markdown", Exts: []string{".md", ".markdown", ".mdown", ".mkd"}, Aliases: []string{"text/x-markdown"}, Text: true},
	{MediaType: "text/csv", Exts: []string{".csv"}, Aliases: []string{"application/csv", "text/x-csv", "application/vnd.ms-excel"}, Text: true},
	{MediaType: "application/json", Exts: []string{".json"}, Aliases: []string{"text/json"}, Text: true},
}

// AcceptAttribute is the accept attribute of the page's file input.
func AcceptAttribute() string {
	var parts []string
	for _, t := range FileTypes {
		parts = append(parts, t.MediaType)
		parts = append(parts, t.Exts...)
	}
	return strings.Join(parts, ",")
}

// IsImageType reports whether a media type is one of the images a page
// shows (never SVG: it can carry script).
func IsImageType(mediaType string) bool {
	t, ok := fileTypeByMedia(mediaType)
	return ok && t.Image
}

// The refusals of ResolveFileType and CheckFileHead.
var (
	ErrUnsupportedType = errors.New("this type of file cannot be attached")
	ErrTypeMismatch    = errors.New("the file is not what its name or type says")
)

// ResolveFileType says what a file is by its name and the media type its
// sender declared: by its extension; by the declared type when the name
// has no known extension. A declared type that says something else than
// the extension is a mismatch (a text type declared for a text file is
// not: browsers say text/plain of Markdown and CSV).
func ResolveFileType(name, declared string) (FileType, error) {
	declared = baseMediaType(declared)
	byExt, extOK := fileTypeByExt(name)
	byDecl, declOK := fileTypeByMedia(declared)
	generic := declared == "" || declared == "application/octet-stream"
	switch {
	case extOK && (generic || (declOK && byDecl.MediaType == byExt.MediaType)):
		return byExt, nil
	case extOK && byExt.Text && strings.HasPrefix(declared, "text/"):
		return byExt, nil
	case extOK:
		return FileType{}, ErrTypeMismatch
	case declOK:
		return byDecl, nil
	}
	return FileType{}, ErrUnsupportedType
}

// baseMediaType is a media type without its parameters, in lower case
// ("Text/CSV; charset=utf-8" is text/csv). By hand: package mime costs the
// wasm its tables for one call.
func baseMediaType(mt string) string {
	mt, _, _ = strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func fileTypeByExt(name string) (FileType, bool) {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/")))
	for _, t := range FileTypes {
		for _, e := range t.Exts {
			if e == ext {
				return t, true
			}
		}
	}
	return FileType{}, false
}

func fileTypeByMedia(mt string) (FileType, bool) {
	mt = baseMediaType(mt)
	if mt == "" {
		return FileType{}, false
	}
	for _, t := range FileTypes {
		if t.MediaType == mt {
			return t, true
		}
		for _, a := range t.Aliases {
			if a == mt {
				return t, true
			}
		}
	}
	return FileType{}, false
}

// SniffHeadBytes is how much of a file's start CheckFileHead needs.
const SniffHeadBytes = 1024

// CheckFileHead checks that a file's first bytes (up to SniffHeadBytes)
// are what its type says: an image's or a PDF's signature; for text, no
// NUL byte and valid UTF-8 (a character cut at the end is allowed: the
// rest of the file goes through a TextCheck), a JSON file starting as
// JSON does.
func CheckFileHead(t FileType, head []byte) error {
	if len(head) > SniffHeadBytes {
		head = head[:SniffHeadBytes]
	}
	if t.Text {
		var tc TextCheck
		if !tc.Write(head) {
			return ErrTypeMismatch
		}
		if t.MediaType == "application/json" {
			body := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
			if len(body) > 0 && !strings.ContainsRune(`{["-0123456789tfn`, rune(body[0])) {
				return ErrTypeMismatch
			}
		}
		return nil
	}
	if SniffMediaType(head) != t.MediaType {
		return ErrTypeMismatch
	}
	return nil
}

// SniffMediaType names the image or PDF whose signature head starts with,
// "" for anything else.
func SniffMediaType(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xFF\xD8\xFF")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return "application/pdf"
	}
	return ""
}

// TextCheck checks, a piece at a time, that a file is text: valid UTF-8
// and no NUL byte. The zero value is ready.
type TextCheck struct {
	carry [utf8.UTFMax]byte // a character cut between two pieces
	n     int
	bad   bool
}

// Write checks the next piece and reports whether the file is still text.
func (c *TextCheck) Write(p []byte) bool {
	if c.bad {
		return false
	}
	if c.n > 0 {
		// Complete the cut character with this piece's first bytes.
		need := 0
		for need < len(p) && c.n+need < utf8.UTFMax && !utf8.FullRune(c.carry[:c.n+need]) {
			c.carry[c.n+need] = p[need]
			need++
		}
		if !utf8.FullRune(c.carry[:c.n+need]) {
			c.n += need
			return true // still cut (a piece of one byte)
		}
		if r, _ := utf8.DecodeRune(c.carry[:c.n+need]); r == utf8.RuneError {
			c.bad = true
			return false
		}
		p = p[need:]
		c.n = 0
	}
	if bytes.IndexByte(p, 0) >= 0 {
		c.bad = true
		return false
	}
	// Keep a character cut at the end for the next piece.
	end := len(p)
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				end = i
			}
			break
		}
	}
	if !utf8.Valid(p[:end]) {
		c.bad = true
		return false
	}
	c.n = copy(c.carry[:], p[end:])
	return true
}

// Done reports whether the whole file was text (no character left cut).
func (c *TextCheck) Done() bool { return !c.bad && c.n == 0 }
