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
			case b.Data != "":
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
// not an image the page shows, the bytes are not base64 or too many.
func imageDataURL(mediaType, data string) string {
	if !wire.IsImageType(mediaType) || len(data) > MaxInlineImageBytes/3*4+4 {
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
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_') {
			return ""
		}
	}
	return "data:" + mediaType + ";base64," + data
}

// imageBlock is the picture of one content block or part, in any of the
// shapes the backends send: Anthropic's image block ({"type": "image",
// "source": {"type": "base64", "media_type", "data"} or {"type": "url",
// "url"}}, with Stepwise's `file`), AG-UI's image part ({"type": "image",
// "source": {"type": "data" or "url", "value", "mimeType"}, "metadata":
// {"filename"}}) and its earlier binary content ({"type": "binary",
// "mimeType", "data" or "url", "filename"}).
type imageBlock struct {
	_      [0]func() // not comparable: no equality code in app.wasm
	Type   string    `json:"type"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		MimeType  string `json:"mimeType"`
		Data      string `json:"data"`
		Value     string `json:"value"`
		URL       string `json:"url"`
	} `json:"source"`
	MimeType string         `json:"mimeType"`
	Data     string         `json:"data"`
	URL      string         `json:"url"`
	Filename string         `json:"filename"`
	File     *wire.FileInfo `json:"file"`
	Metadata *struct {
		Filename string `json:"filename"`
	} `json:"metadata"`
}

// imageOf reads one block's picture; ok is false when it is not one.
func (s *Store) imageOf(b *imageBlock) (Image, bool) {
	var img Image
	var data, ref string
	switch {
	case b.Type == "image" && b.Source != nil:
		src := b.Source
		img.MediaType = firstOf(src.MediaType, src.MimeType)
		switch src.Type {
		case "base64", "data":
			data = firstOf(src.Data, src.Value)
		case "url":
			ref = firstOf(src.URL, src.Value)
		}
	case b.Type == "binary" && strings.HasPrefix(b.MimeType, "image/"):
		img.MediaType = b.MimeType
		data, ref = b.Data, b.URL
	default:
		return Image{}, false
	}
	if f := b.File; f != nil {
		img.Name, img.Width, img.Height = f.Name, f.Width, f.Height
		img.MediaType = firstOf(img.MediaType, f.MediaType)
		if ref == "" && data == "" {
			ref = f.URL
		}
	}
	if b.Metadata != nil {
		img.Name = firstOf(img.Name, b.Metadata.Filename)
	}
	img.Name = firstOf(img.Name, b.Filename)
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
	ib := imageBlock{Type: b.Type, File: b.File}
	if !wire.IsNull(b.Source) && json.Unmarshal(b.Source, &ib.Source) != nil {
		return false
	}
	img, ok := s.imageOf(&ib)
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
