package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const png1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// Each ecosystem's shape of an image in a tool result; what the page must
// not load is dropped or only linked.
func TestResultImages(t *testing.T) {
	data := "data:image/png;base64," + png1x1
	for _, c := range []struct {
		name, content string
		want          []ToolImage
	}{
		{"anthropic base64", `[{"type":"text","text":"chart:"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + png1x1 + `"}}]`, []ToolImage{{URL: data}}},
		{"anthropic url", `[{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}]`, []ToolImage{{External: "https://example.com/a.png"}}},
		{"mcp call tool result", `{"content":[{"type":"image","data":"` + png1x1 + `","mimeType":"image/png"}],"isError":false}`, []ToolImage{{URL: data}}},
		{"ai sdk content output", `{"type":"content","value":[{"type":"image-data","data":"` + png1x1 + `","mediaType":"image/png"}]}`, []ToolImage{{URL: data}}},
		{"ai sdk file part", `[{"type":"file","mediaType":"image/png","url":"` + data + `","filename":"plot.png"}]`, []ToolImage{{URL: data, Name: "plot.png"}}},
		{"agui binary in a string", `"[{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"` + png1x1 + `\"}]"`, []ToolImage{{URL: data}}},
		{"same origin", `[{"type":"image","source":{"type":"url","url":"/api/files/a.png"}}]`, []ToolImage{{URL: "/api/files/a.png"}}},
		{"svg is a document", `[{"type":"image","source":{"type":"base64","media_type":"image/svg+xml","data":"PHN2Zz48L3N2Zz4="}}]`, nil},
		{"data that is not base64", `[{"type":"image","data":"AAA\"><script>","mimeType":"image/png"}]`, nil},
		{"data url of another type", `[{"type":"file","mediaType":"image/png","url":"data:text/html;base64,PGI+"}]`, nil},
		{"protocol-relative", `[{"type":"image","source":{"type":"url","url":"//evil.example/a.png"}}]`, nil},
		{"javascript", `[{"type":"file","mediaType":"image/png","url":"javascript:alert(1)"}]`, nil},
		{"a pdf", `[{"type":"file","mediaType":"application/pdf","url":"https://example.com/a.pdf"}]`, nil},
		{"plain text", `"no picture here"`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ResultImages(json.RawMessage(c.content)))
		})
	}
}

// A native tool_result with an image: the tool keeps the image, the view
// model reports it, the text stays the text.
func TestToolResultImagesInTheStore(t *testing.T) {
	s := New(DefaultOptions())
	for _, line := range []string{
		`{"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"plot","input":{}}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_result","tool_use_id":"t1","status":"success","content":[{"type":"text","text":"Here is the plot."},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + png1x1 + `"}}]}}`,
		`{"type":"content_block_stop","index":1}`,
	} {
		s.ApplyJSON([]byte(line))
	}
	tool := s.Tool("t1").Tool
	require.Len(t, tool.Images, 1)
	assert.Equal(t, "data:image/png;base64,"+png1x1, tool.Images[0].URL)
	assert.Equal(t, "Here is the plot.", *tool.Result)
	view, err := json.Marshal(s.View())
	require.NoError(t, err)
	assert.Contains(t, string(view), `"images":[{"url":"data:image/png;base64,`)
}

// Bytes that are not base64 as a browser decodes a data: URL (the URL-safe
// alphabet's - and _) are not a picture, however they came: a tool's
// result, a file part, an answer's image block.
func TestImageDataIsStandardBase64(t *testing.T) {
	assert.Empty(t, ResultImages(json.RawMessage(`[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"reasoning-file-data-1"}}]`)))
	_, ok := FileImage("data:image/png;base64,reasoning-file-data-1", "image/png")
	assert.False(t, ok)
	assert.Equal(t, "", imageDataURL("image/png", "ab_c-"))
	assert.Equal(t, "data:image/png;base64,iVBORw0KGgo=", imageDataURL("image/png", "iVBOR w0K\nGgo="), "whitespace is dropped, as browsers do")
}
