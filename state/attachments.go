package state

import (
	"encoding/json"
	"strings"

	"stepwise/state/wire"
)

// Files a person attaches, and pictures an agent shows
// (docs/protocol-extensions.md#attachments). The page's CSP allows images
// from its own origin, data: URLs and http(s) (img-src 'self' data: https:
// http:), so an image is shown from a data: URL when its bytes came inline
// (only PNG, JPEG, GIF and WebP: never SVG, which can carry script), from
// its URL otherwise; nothing else is ever put in an <img>.

// Attachment is a file of a user message, as the page shows it.
type Attachment struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	// FileID is the uploaded file's id, "" for bytes sent inline.
	FileID    string
	Name      string
	MediaType string
	Size      int64
	Width     int
	Height    int
	// URL fetches the bytes (a link to open the file): the backend's,
	// resolved against Options.FilesBase; "" when there is none.
	URL string
	// Image: shown as a thumbnail (Src), else as a chip with a type icon.
	Image bool
	// Src is what the thumbnail shows: URL, or a data: URL of bytes sent
	// inline; "" when the image cannot be shown.
	Src string
}

// Image is a picture the page shows: an image item, or one of a tool
// result's.
type Image struct {
	_ [0]func() // not comparable: no equality code in app.wasm
	// Src is a data: URL (bytes sent inline) or a web or same-origin URL;
	// "" when the picture is not shown (TooLarge).
	Src       string
	MediaType string
	Name      string
	Width     int
	Height    int
	// Inline is the size of bytes sent inline (0 for a URL).
	Inline int
	// TooLarge: its inline bytes were over MaxInlineImageBytes and were
	// dropped; the page says so.
	TooLarge bool
}

// MaxInlineImageBytes bounds the bytes of one picture sent inline that the
// store keeps (Anthropic's own limit per image); a larger one is named,
// not shown.
const MaxInlineImageBytes = 5 << 20

// attachmentsOf reads the files of a user message's content.
func (s *Store) attachmentsOf(content json.RawMessage) []Attachment {
	blocks := wire.Attachments(content)
	if len(blocks) == 0 {
		return nil
	}
	out := make([]Attachment, 0, len(blocks))
	for _, b := range blocks {
		a := Attachment{
			FileID: b.FileID, Name: b.Name, MediaType: b.MediaType, Size: b.Size,
			Width: b.Width, Height: b.Height, URL: s.fileURL(b.URL),
			Image: b.Image || wire.IsImageType(b.MediaType),
		}
		if a.Name == "" {
			a.Name = a.FileID
		}
		if a.Image {
			switch {
			case b.Data != "" && len(b.Data) <= MaxInlineImageBytes/3*4+4:
				a.Src = imageDataURL(b.MediaType, b.Data)
			case a.URL != "" && wire.IsImageType(b.MediaType):
				a.Src = a.URL
			}
		}
		out = append(out, a)
	}
	return out
}

// fileURL resolves a file's URL against Options.FilesBase (a relative URL
// is the backend's, relative to its history URL), keeping only web and
// same-origin URLs.
func (s *Store) fileURL(ref string) string {
	ref = strings.TrimSpace(ref)
	scheme, _, hasScheme := strings.Cut(ref, ":")
	switch {
	case ref == "", strings.HasPrefix(ref, "//"), strings.ContainsAny(ref, "\\ \t\n"):
		return "" // nothing, or another host without a scheme
	case hasScheme && !strings.ContainsAny(scheme, "/?#"):
		if IsWebURL(ref) {
			return ref
		}
		return "" // javascript:, data:, file: ...
	case strings.HasPrefix(ref, "/") || s.opts.FilesBase == "":
		return ref
	}
	// Relative to the history's URL, as a browser resolves it (by hand:
	// url.ResolveReference costs the wasm for this one call).
	base, _, _ := strings.Cut(s.opts.FilesBase, "?")
	base, _, _ = strings.Cut(base, "#")
	return base[:strings.LastIndex(base, "/")+1] + ref
}

// imageDataURL is a data: URL of an image's base64 bytes, "" when it is
// not an image the page shows (the raster types every browser shows:
// never SVG, a document that can carry script) or the bytes are not
// base64 (the standard alphabet, as browsers decode a data: URL; what it
// may carry without breaking out of it).
func imageDataURL(mediaType, data string) string {
	if !wire.IsImageType(mediaType) && mediaType != "image/avif" {
		return ""
	}
	data = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '\r', '\t':
			return -1
		}
		return r
	}, data)
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return ""
		}
	}
	if data == "" {
		return ""
	}
	return "data:" + mediaType + ";base64," + data
}

// imageOf is an answer's image block (in any of imagePart's shapes, with
// Stepwise's file info) as the picture shown; ok is false when it is not
// one. Unlike a tool's image, one elsewhere on the web is shown.
func (s *Store) imageOf(p *imagePart, f *wire.FileInfo) (Image, bool) {
	mt, data, ref, name, ok := p.parts()
	if !ok {
		return Image{}, false
	}
	img := Image{MediaType: mt, Name: name}
	if f != nil {
		img.Name, img.Width, img.Height = firstOf(f.Name, name), f.Width, f.Height
		img.MediaType = firstOf(mt, f.MediaType)
		if ref == "" && data == "" {
			ref = f.URL
		}
	}
	switch {
	case data != "":
		img.Inline = len(data) / 4 * 3
		if img.Inline > MaxInlineImageBytes {
			img.TooLarge = true
		} else {
			img.Src = imageDataURL(img.MediaType, data)
		}
	case ref != "":
		img.Src = s.fileURL(ref)
	}
	return img, true
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// addImage adds an image block of an answer: an image item that stands
// alone, as a text block does, or a step with is_part.
func (s *Store) addImage(b *wire.Block) bool {
	p := imagePart{Type: b.Type}
	if !wire.IsNull(b.Source) && json.Unmarshal(b.Source, &p.Source) != nil {
		return false
	}
	img, ok := s.imageOf(&p, b.File)
	if !ok {
		return false
	}
	it := s.newItem(KindImage)
	it.Image = &img
	if b.IsPart {
		s.place(it)
	} else {
		s.standalone(it)
	}
	return true
}
