package state

import (
	"bytes"
	"encoding/json"
	"strings"

	"stepwise/state/wire"
)

// Images a tool returns, in the shapes each ecosystem gives them: an
// Anthropic image block in a tool_result's content ({type: image, source:
// {type: base64, media_type, data}} or {type: url, url}), an MCP image
// ({type: image, data, mimeType}, also inside a CallToolResult's content),
// an AI SDK file part or content output ({type: file, mediaType, url};
// {type: image-data or media, data, mediaType}, inside {type: content,
// value}), AG-UI binary content ({type: binary, mimeType, data or url})
// and image parts ({type: image, source: {type: data or url, value,
// mimeType}, metadata: {filename}}).

// ToolImage is an image a tool returned. URL is a data: URL built from the
// image's bytes, or a URL the page may load: a path of its own origin
// ("/..."). External is an http(s) URL elsewhere: never fetched by the
// page (no third-party request the deployment did not allow), only
// linked. Name is the file name when the backend gave one.
type ToolImage struct {
	URL      string    `json:"url,omitempty"`
	External string    `json:"external,omitempty"`
	Name     string    `json:"name,omitempty"`
	_        [0]func() // not comparable: no equality code in app.wasm
}

// maxToolImages bounds the images kept of one result.
const maxToolImages = 8

// imagePart is what the shapes above hold.
type imagePart struct {
	Type      string          `json:"type"`
	Source    *imagePart      `json:"source"`
	MediaType string          `json:"media_type"`
	MimeType  string          `json:"mimeType"`
	MediaTy   string          `json:"mediaType"`
	Data      string          `json:"data"`
	URL       string          `json:"url"`
	Filename  string          `json:"filename"`
	Content   json.RawMessage `json:"content"`
	Value     json.RawMessage `json:"value"`
	Metadata  *struct {
		Filename string `json:"filename"`
	} `json:"metadata"`
	_ [0]func() // not comparable: no equality code in app.wasm
}

// ResultImages reads the images of a tool result's content: a list of
// parts, or an object holding one (content, value); a JSON string holding
// either (AG-UI tool messages are strings) is read too.
func ResultImages(raw json.RawMessage) []ToolImage {
	if s, ok := wire.StringValue(raw); ok {
		if !strings.Contains(s, "image") && !strings.Contains(s, "binary") {
			return nil
		}
		raw = json.RawMessage(s)
	}
	var out []ToolImage
	collectImages(bytes.TrimSpace(raw), &out, 0)
	return out
}

func collectImages(raw []byte, out *[]ToolImage, depth int) {
	if len(raw) == 0 || depth > 2 {
		return
	}
	if raw[0] == '{' {
		var p imagePart
		if json.Unmarshal(raw, &p) == nil {
			if img, ok := p.image(); ok && len(*out) < maxToolImages {
				*out = append(*out, img)
			}
			collectImages(bytes.TrimSpace(p.Content), out, depth+1)
			collectImages(bytes.TrimSpace(p.Value), out, depth+1)
		}
		return
	}
	var list []json.RawMessage
	if raw[0] == '[' && json.Unmarshal(raw, &list) == nil {
		for _, e := range list {
			collectImages(bytes.TrimSpace(e), out, depth+1)
		}
	}
}

// parts are the part's picture as the shapes above give it: its media
// type, its inline bytes (base64) or its URL, and its name; ok is false
// when the part is not a picture. A data: URL is taken apart into its
// type and bytes, checked as inline bytes are.
func (p *imagePart) parts() (mt, data, url, name string, ok bool) {
	switch p.Type {
	case "image", "file", "binary", "image-data", "media":
	default:
		return "", "", "", "", false
	}
	src := p
	if p.Source != nil { // Anthropic, AG-UI's image parts
		src = p.Source
	}
	// One of the three names is set, depending on the ecosystem.
	mt = strings.ToLower(src.MediaType + src.MimeType + src.MediaTy)
	name = p.Filename
	if p.Metadata != nil && name == "" {
		name = p.Metadata.Filename
	}
	data, url = src.Data, src.URL
	if v, ok := wire.StringValue(src.Value); ok && data == "" && url == "" {
		// AG-UI's source: {type: data, value} or {type: url, value}.
		if src.Type == "url" {
			url = v
		} else {
			data = v
		}
	}
	if rest, ok := strings.CutPrefix(url, "data:"); ok && data == "" {
		mt, data, _ = strings.Cut(rest, ";base64,")
		mt, url = strings.ToLower(mt), ""
	}
	return mt, data, url, name, true
}

// image is the part as a tool's image, when it is one the page shows.
func (p *imagePart) image() (ToolImage, bool) {
	mt, data, url, name, ok := p.parts()
	img := ToolImage{Name: name}
	switch {
	case !ok:
	case data != "":
		img.URL = imageDataURL(mt, data)
		return img, img.URL != ""
	case strings.HasPrefix(url, "/") && !strings.HasPrefix(url, "//") && !strings.ContainsRune(url, '\\'):
		img.URL = url // this origin's own
		return img, true
	case IsWebURL(url) && (mt == "" || strings.HasPrefix(mt, "image/")):
		img.External = url
		return img, true
	}
	return ToolImage{}, false
}

// FileImage is a file (an AI SDK file part: its URL and media type) as an
// image the page shows or links to, by the rules of tool results' images.
func FileImage(url, mediaType string) (ToolImage, bool) {
	p := imagePart{Type: "file", URL: url, MediaTy: mediaType}
	if !strings.HasPrefix(strings.ToLower(mediaType), "image/") {
		return ToolImage{}, false
	}
	return p.image()
}

// withImages sets a tool's images from its result's content.
func (s *Store) withImages(it *Item, content json.RawMessage) {
	if it != nil {
		it.Tool.Images = ResultImages(content)
	}
}
