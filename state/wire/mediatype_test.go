package wire

import (
	"mime"
	"testing"
)

// mediaType must agree with mime.ParseMediaType's media type, except where
// that rejects a duplicate parameter.
func checkMediaType(t *testing.T, ct string) {
	want, _, err := mime.ParseMediaType(ct)
	if err != nil && err.Error() == "mime: duplicate parameter name" {
		return
	}
	if got := mediaType(ct); got != want {
		t.Errorf("mediaType(%q) = %q, mime.ParseMediaType: %q (%v)", ct, got, want, err)
	}
}

var mediaTypeCases = []string{
	"", " ", ";", "text/event-stream", "text/event-stream; charset=utf-8", " Text/Event-Stream ;charset=UTF-8",
	"application/json", "application/problem+json; charset=utf-8", "text/html; charset", "text/html;;",
	"text", "text/", "/plain", "text/plain/x", "text /plain", "text/ plain", "text/plain x",
	"te(xt/plain", "text/pl@in", "tëxt/plain", "text/plain\x00", "\u212a/x", "a/b; c=\"d;e\"",
	"multipart/form-data; boundary=x; boundary=x", "*/*", "text/*", "x-!#$%&'*+-.^_`{|}~/y",
}

func TestMediaTypeAgreesWithMime(t *testing.T) {
	for _, ct := range mediaTypeCases {
		checkMediaType(t, ct)
	}
}

func FuzzMediaType(f *testing.F) {
	for _, ct := range mediaTypeCases {
		f.Add(ct)
	}
	f.Fuzz(checkMediaType)
}
