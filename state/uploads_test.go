package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckUpload(t *testing.T) {
	lim := UploadLimits{FileBytes: 100, Files: 2, MessageBytes: 150}
	for _, c := range []struct {
		name, mediaType string
		size            int64
		files           int
		held            int64
		want            string
	}{
		{"chart.png", "image/png", 50, 0, 0, ""},
		{"notes.md", "text/plain", 50, 0, 0, ""}, // browsers say text/plain of Markdown
		{"data.csv", "", 50, 1, 50, ""},
		{"photo.heic", "image/heic", 50, 0, 0, UploadUnsupported},
		{"setup.exe", "application/x-msdownload", 50, 0, 0, UploadUnsupported},
		{"chart.png", "application/pdf", 50, 0, 0, UploadUnsupported}, // the name and the type disagree
		{"empty.txt", "text/plain", 0, 0, 0, UploadEmpty},
		{"big.pdf", "application/pdf", 101, 0, 0, UploadTooLarge},
		{"third.txt", "text/plain", 10, 2, 20, UploadTooMany},
		{"last.txt", "text/plain", 60, 1, 100, UploadMessageFull},
	} {
		assert.Equal(t, c.want, CheckUpload(lim, c.name, c.mediaType, c.size, c.files, c.held), c.name)
	}
	assert.Equal(t, UploadOff, CheckUpload(UploadLimits{}, "a.txt", "text/plain", 1, 0, 0))
}

func TestFileURL(t *testing.T) {
	o := DefaultOptions()
	o.FilesBase = "https://chat.example/base/api/sessions/s1/history?x=1"
	s := New(o)
	for ref, want := range map[string]string{
		"files/f1":                           "https://chat.example/base/api/sessions/s1/files/f1",
		"/api/sessions/s1/files/f1":          "/api/sessions/s1/files/f1",
		"https://cdn.example/a.png":          "https://cdn.example/a.png",
		"javascript:alert(1)":                "",
		"data:image/svg+xml;base64,PHN2Zz4=": "",
		"//evil.example/x.png":               "",
		"files/a b.png":                      "",
		"":                                   "",
	} {
		assert.Equal(t, want, s.fileURL(ref), ref)
	}
	assert.Equal(t, "files/f1", New(DefaultOptions()).fileURL("files/f1"), "no base: as given")
}
