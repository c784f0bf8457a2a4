package state

import (
	"encoding/json"
	"strings"

	"stepwise/state/wire"
)

// Files a person attaches where the page keeps the conversation (the
// AG-UI and AI SDK modes): there is no upload; the browser reads each
// file (a data: URL) and the message carries its bytes, in the
// protocol's own shape (docs/backends.md, "The user's half in the
// browser-kept modes"):
//
//	AI SDK: {"type": "file", "mediaType": "image/png", "filename": "chart.png", "url": "data:image/png;base64,..."}
//	AG-UI:  {"type": "image", "source": {"type": "data", "value": "...", "mimeType": "image/png"}, "metadata": {"filename": "chart.png"}}
//
// (AG-UI: "document" for what is not an image.)

// keptFile is a file of a user message: its bytes (base64) or a URL.
type keptFile struct {
	_               [0]func() // not comparable: no equality code
	Name, MediaType string
	Data, URL       string
}

// keptFilesOf reads the files of the blocks the page sends (inline
// bytes, as a browser-kept backend's Upload makes them).
func keptFilesOf(blocks []wire.ContentBlock) []keptFile {
	var out []keptFile
	for _, b := range blocks {
		if b.Source == nil || (b.Source.Data == "" && b.Source.URL == "") {
			continue
		}
		f := keptFile{Name: b.Title, MediaType: b.Source.MediaType, Data: b.Source.Data, URL: b.Source.URL}
		if b.File != nil {
			f.Name, f.MediaType = b.File.Name, firstOf(f.MediaType, b.File.MediaType)
		}
		out = append(out, f)
	}
	return out
}

// InlineBlock is the content block of a file read in the browser: its
// bytes inline (base64), what the message sends in the AG-UI and AI SDK
// modes.
func InlineBlock(info wire.FileInfo, data string) wire.ContentBlock {
	kind := "document"
	if wire.IsImageType(info.MediaType) {
		kind = "image"
	}
	return wire.ContentBlock{Type: kind, Title: info.Name, Source: &wire.BlockSource{Type: "base64", MediaType: info.MediaType, Data: data}, File: &info}
}

// dataURL is the file as a URL: its own, or a data: URL of its bytes.
func (f keptFile) dataURL() string {
	if f.Data == "" {
		return f.URL
	}
	return "data:" + f.MediaType + ";base64," + f.Data
}

// aguiPart is an AG-UI content part (@ag-ui/core 1.0's ContentPart), and
// the earlier binary content as it is read.
type aguiPart struct {
	_        [0]func()     // not comparable: no equality code
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	Source   *aguiSource   `json:"source,omitempty"`
	Metadata *aguiPartMeta `json:"metadata,omitempty"`
	MimeType string        `json:"mimeType,omitempty"`
	Data     string        `json:"data,omitempty"`
	URL      string        `json:"url,omitempty"`
	Filename string        `json:"filename,omitempty"`
}

type aguiSource struct {
	_        [0]func() // not comparable: no equality code
	Type     string    `json:"type"`
	Value    string    `json:"value"`
	MimeType string    `json:"mimeType,omitempty"`
}

type aguiPartMeta struct {
	Filename string `json:"filename,omitempty"`
}

// aguiUserContent is a user message's content: its text as a string, or,
// with files, a text part and a part for each file.
func aguiUserContent(text string, files []keptFile) json.RawMessage {
	if len(files) == 0 {
		raw, _ := json.Marshal(text)
		return raw
	}
	var parts []aguiPart
	if text != "" {
		parts = append(parts, aguiPart{Type: "text", Text: text})
	}
	for _, f := range files {
		p := aguiPart{Type: "document"}
		if wire.IsImageType(f.MediaType) {
			p.Type = "image"
		}
		p.Source = &aguiSource{Type: "data", Value: f.Data, MimeType: f.MediaType}
		if f.Data == "" {
			p.Source.Type, p.Source.Value = "url", f.URL
		}
		if f.Name != "" {
			p.Metadata = &aguiPartMeta{Filename: f.Name}
		}
		parts = append(parts, p)
	}
	raw, _ := json.Marshal(parts)
	return raw
}

// aguiFiles reads the files of an AG-UI user message's content.
func aguiFiles(content json.RawMessage) []keptFile {
	var parts []aguiPart
	if json.Unmarshal(content, &parts) != nil {
		return nil
	}
	var out []keptFile
	for _, p := range parts {
		f := keptFile{MediaType: p.MimeType, Data: p.Data, URL: p.URL, Name: p.Filename}
		switch {
		case p.Type == "binary":
		case p.Type != "text" && p.Source != nil:
			f.MediaType = firstOf(p.Source.MimeType, f.MediaType)
			if p.Source.Type == "data" {
				f.Data = p.Source.Value
			} else {
				f.URL = p.Source.Value
			}
		default:
			continue
		}
		if p.Metadata != nil {
			f.Name = firstOf(p.Metadata.Filename, f.Name)
		}
		out = append(out, f)
	}
	return out
}

// uiFilePart is an AI SDK file part, as useChat sends one.
func (f keptFile) uiPart() wire.UIPart {
	return wire.UIPart{Type: "file", MediaType: f.MediaType, Filename: f.Name, URL: f.dataURL()}
}

// uiFiles reads the file parts of an AI SDK user message.
func uiFiles(parts []wire.UIPart) []keptFile {
	var out []keptFile
	for _, p := range parts {
		if p.Type != "file" {
			continue
		}
		f := keptFile{Name: p.Filename, MediaType: p.MediaType, URL: p.URL}
		if rest, ok := strings.CutPrefix(p.URL, "data:"); ok {
			if head, data, ok := strings.Cut(rest, ";base64,"); ok {
				f.URL, f.Data, f.MediaType = "", data, firstOf(f.MediaType, head)
			}
		}
		out = append(out, f)
	}
	return out
}

// filesOfMessage reads the files of a user message in either protocol.
func filesOfMessage(raw json.RawMessage) []keptFile {
	var m struct {
		Content json.RawMessage `json:"content"`
		Parts   []wire.UIPart   `json:"parts"`
	}
	_ = json.Unmarshal(raw, &m)
	if m.Parts != nil {
		return uiFiles(m.Parts)
	}
	return aguiFiles(m.Content)
}

// keptAttachments are what a user message shows of its files.
func (s *Store) keptAttachments(files []keptFile) []Attachment {
	if len(files) == 0 {
		return nil
	}
	out := make([]Attachment, len(files))
	for i, f := range files {
		a := Attachment{Name: f.Name, MediaType: f.MediaType, Image: wire.IsImageType(f.MediaType), URL: s.fileURL(f.URL)}
		if n := len(f.Data); n > 0 {
			a.Size = int64(n/4*3 - strings.Count(f.Data[max(n-2, 0):], "="))
		}
		if a.Image {
			a.Src = a.URL
			if f.Data != "" {
				a.Src = imageDataURL(f.MediaType, f.Data)
			}
		}
		out[i] = a
	}
	return out
}

// addKeptUser shows a user message with its files.
func (s *Store) addKeptUser(text string, files []keptFile) {
	s.addUser(text)
	s.items[len(s.items)-1].Attachments = s.keptAttachments(files)
}
