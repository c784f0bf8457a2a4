package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// -feedback-url: the pages are told where to send ratings, and may
// connect there; anything but an http(s) URL or a path is refused.
func TestFeedbackURLFlag(t *testing.T) {
	s := startServer(t, append(demoArgs(t), "-feedback-url", "https://feedback.example/api/ratings")...)
	_, _, body := get(t, s.URL+"/app.js", nil)
	assert.Contains(t, body, `"STEPWISE_PAGE_FEEDBACK_URL":"https://feedback.example/api/ratings"`)
	_, headers, _ := get(t, s.URL+"/", nil)
	assert.Contains(t, headers.Get("Content-Security-Policy"), "connect-src 'self' https://feedback.example;")

	s = startServer(t, append(demoArgs(t), "-feedback-url", "/ratings")...)
	_, headers, _ = get(t, s.URL+"/", nil)
	assert.Contains(t, headers.Get("Content-Security-Policy"), "connect-src 'self';", "a path is this site's")

	for _, bad := range []string{"javascript:alert(1)", "//evil.example/x", "ratings", "ftp://x.example/"} {
		code, stderr := runToExit(t, append(demoArgs(t), "-feedback-url", bad)...)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, stderr, "feedback-url", bad)
	}
}
