package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckStreamResponse(t *testing.T) {
	assert.Nil(t, CheckStreamResponse(200, "text/event-stream; charset=utf-8", []byte("data: {}\n\n")))
	assert.Nil(t, CheckStreamResponse(200, "", []byte(": ping\n\ndata: {}")))
	for _, tc := range []struct {
		status int
		ctype  string
		body   string
		want   StreamProblem
	}{
		{502, "text/html", "<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>", StreamProblem{502, "502 Bad Gateway"}},
		{500, "text/html", "<html><body><h1>Internal  Server\nError</h1><script>alert(1)</script></body></html>", StreamProblem{500, "Internal Server Error alert(1)"}},
		{400, "application/json", `{"error":{"message":"messages: Required"}}`, StreamProblem{400, "messages: Required"}},
		{422, "application/json", `{"error":"Invalid input"}`, StreamProblem{422, "Invalid input"}},
		{401, "application/json", `{"detail":"Not authenticated"}`, StreamProblem{401, "Not authenticated"}},
		{404, "text/plain", "Not Found\nmore", StreamProblem{404, "Not Found"}},
		{503, "", "", StreamProblem{503, ""}},
		{200, "text/html", "<html><title>Sign in &amp; continue</title></html>", StreamProblem{0, "Sign in & continue"}},
		{200, "application/json", `{"message":"use the stream endpoint"}`, StreamProblem{0, "use the stream endpoint"}},
		{200, "application/octet-stream", "\x00\x01", StreamProblem{0, "application/octet-stream"}},
		{500, "text/plain", "bad\x00\xffbytes", StreamProblem{500, "bad bytes"}},
	} {
		got := CheckStreamResponse(tc.status, tc.ctype, []byte(tc.body))
		if assert.NotNil(t, got, tc.body) {
			assert.Equal(t, tc.want, *got, tc.body)
		}
	}
	long := CheckStreamResponse(500, "text/plain", []byte(strings.Repeat("é", 300)))
	assert.LessOrEqual(t, len(long.Detail), MaxDetail+len("…"))
	assert.True(t, strings.HasSuffix(long.Detail, "…"))
}
