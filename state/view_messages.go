package state

import (
	"bytes"
	"encoding/json"

	"stepwise/state/wire"
)

// The view model's additions for the user's half of a conversation
// (docs/protocol-extensions.md#view-model-additions): a user item's files,
// a message's id, versions and feedback, pictures. Each is left out when
// there is none, so a conversation without them reads as before.

type viewUser struct {
	viewBase
	Text        string           `json:"text"`
	Attachments []viewAttachment `json:"attachments,omitempty"`
}

type viewAttachment struct {
	_         [0]func() // not comparable: no equality code in app.wasm
	Name      string    `json:"name"`
	MediaType string    `json:"media_type"`
	Size      int64     `json:"size"`
	Width     int       `json:"width,omitempty"`
	Height    int       `json:"height,omitempty"`
	Image     bool      `json:"image"`
	FileID    string    `json:"file_id,omitempty"`
	// URL is the file's URL; an image sent inline has none (InlineBytes).
	URL *string `json:"url"`
}

type viewImage struct {
	viewBase
	viewPicture
}

// viewPicture is a picture: its URL (null for bytes sent inline, whose
// size InlineBytes gives: a data: URL is not repeated here).
type viewPicture struct {
	_           [0]func() // not comparable: no equality code in app.wasm
	MediaType   string    `json:"media_type"`
	Name        string    `json:"name,omitempty"`
	Width       int       `json:"width,omitempty"`
	Height      int       `json:"height,omitempty"`
	URL         *string   `json:"url"`
	InlineBytes int       `json:"inline_bytes,omitempty"`
	TooLarge    bool      `json:"too_large,omitempty"`
}

type viewMessage struct {
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	CreatedAt string          `json:"created_at,omitempty"`
	Branch    *viewBranch     `json:"branch,omitempty"`
	Feedback  *wire.Feedback  `json:"feedback,omitempty"`
	item      json.RawMessage // the item it is added to
}

type viewBranch struct {
	Index    int      `json:"index"`
	Count    int      `json:"count"`
	Siblings []string `json:"siblings"`
}

func viewUserItem(it *Item, base viewBase) any {
	v := viewUser{viewBase: base, Text: it.Text}
	for _, a := range it.Attachments {
		va := viewAttachment{Name: a.Name, MediaType: a.MediaType, Size: a.Size, Width: a.Width, Height: a.Height, Image: a.Image, FileID: a.FileID}
		if a.URL != "" {
			url := a.URL
			va.URL = &url
		}
		v.Attachments = append(v.Attachments, va)
	}
	return v
}

func pictureView(img *Image) viewPicture {
	v := viewPicture{MediaType: img.MediaType, Name: img.Name, Width: img.Width, Height: img.Height, InlineBytes: img.Inline, TooLarge: img.TooLarge}
	if img.Inline == 0 && img.Src != "" {
		src := img.Src
		v.URL = &src
	}
	return v
}

func picturesView(imgs []Image) []viewPicture {
	if len(imgs) == 0 {
		return nil
	}
	out := make([]viewPicture, len(imgs))
	for i := range imgs {
		out[i] = pictureView(&imgs[i])
	}
	return out
}

// withMessage adds a top-level item's message, when it has one.
func withMessage(it *Item, v any) any {
	ref := it.Message
	if ref == nil {
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	m := viewMessage{ID: ref.ID, Role: ref.Role, CreatedAt: ref.CreatedAt, Feedback: ref.Feedback, item: raw}
	if ref.Count > 1 {
		m.Branch = &viewBranch{ref.Index, ref.Count, ref.Siblings}
	}
	return m
}

// MarshalJSON writes the item with its "message" last.
func (m viewMessage) MarshalJSON() ([]byte, error) {
	type plain viewMessage
	msg, err := json.Marshal(plain(m))
	if err != nil {
		return nil, err
	}
	item := bytes.TrimSpace(m.item)
	var b bytes.Buffer
	b.Write(item[:len(item)-1])
	if len(item) > 2 {
		b.WriteByte(',')
	}
	b.WriteString(`"message":`)
	b.Write(msg)
	b.WriteByte('}')
	return b.Bytes(), nil
}
