package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResolveFileType(t *testing.T) {
	for _, c := range []struct{ name, declared, want string }{
		{"a.csv", "Text/CSV; charset=utf-8", "text/csv"},
		{"notes.md", "text/plain", "text/markdown"},
		{"photo.JPG", "image/jpeg", "image/jpeg"},
		{"x.png", "", "image/png"},
		{"x.png", "application/octet-stream", "image/png"},
		{"noext", " application/pdf ", "application/pdf"},
	} {
		ft, err := ResolveFileType(c.name, c.declared)
		if assert.NoError(t, err, c.name) {
			assert.Equal(t, c.want, ft.MediaType, c.name)
		}
	}
	_, err := ResolveFileType("x.png", "application/pdf")
	assert.ErrorIs(t, err, ErrTypeMismatch)
	_, err = ResolveFileType("x.svg", "image/svg+xml")
	assert.ErrorIs(t, err, ErrUnsupportedType)
	assert.ErrorIs(t, CheckFileHead(FileType{MediaType: "image/png"}, []byte("GIF89a")), ErrTypeMismatch)
	assert.NoError(t, CheckFileHead(FileType{MediaType: "application/json", Text: true}, []byte("\xEF\xBB\xBF [1]")))
}
