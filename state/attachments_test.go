package state

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUserMessageAttachments(t *testing.T) {
	o := DefaultOptions()
	o.FilesBase = "https://chat.example/base/api/sessions/s1/history"
	s := New(o)
	applyTo(s, `{"type":"user_message","content":[{"type":"text","text":"look"},
		{"type":"image","source":{"type":"file","file_id":"f1"},"file":{"name":"a.png","media_type":"image/png","size":10,"width":4,"height":3,"url":"files/f1"}},
		{"type":"document","source":{"type":"file","file_id":"f2"},"title":"notes.md","file":{"name":"notes.md","media_type":"text/markdown","size":99,"url":"files/f2"}},
		{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+png1x1+`"}},
		{"type":"image","source":{"type":"base64","media_type":"image/svg+xml","data":"PHN2Zz4="}},
		{"type":"document","source":{"type":"url","url":"javascript:alert(1)"},"title":"x.pdf"}]}`)
	it := s.Items()[0]
	require.Equal(t, "look", it.Text)
	require.Len(t, it.Attachments, 5)
	img, doc, inline, svg, js := it.Attachments[0], it.Attachments[1], it.Attachments[2], it.Attachments[3], it.Attachments[4]
	assert.Equal(t, "https://chat.example/base/api/sessions/s1/files/f1", img.URL)
	assert.Equal(t, img.URL, img.Src)
	assert.Equal(t, "f1", img.FileID)
	assert.True(t, img.Image)
	assert.False(t, doc.Image)
	assert.Equal(t, "", doc.Src)
	assert.Equal(t, "notes.md", doc.Name)
	assert.Equal(t, int64(99), doc.Size)
	assert.Equal(t, "data:image/png;base64,"+png1x1, inline.Src)
	assert.Equal(t, "", svg.Src, "an SVG is never put in an img")
	assert.Equal(t, "", js.URL, "only web and same-origin URLs")
	assert.Equal(t, "x.pdf", js.Name)

	v := viewJSON(t, s)
	u := v["items"].([]any)[0].(map[string]any)
	att := u["attachments"].([]any)
	assert.Equal(t, map[string]any{"name": "a.png", "media_type": "image/png", "size": 10.0, "width": 4.0, "height": 3.0,
		"image": true, "file_id": "f1", "url": "https://chat.example/base/api/sessions/s1/files/f1"}, att[0])
	assert.Nil(t, att[2].(map[string]any)["url"], "an inline image's data is not repeated in the view model")
}

func TestImagesTheAgentReturns(t *testing.T) {
	s := apply(t, msgStart, groupStart, toolUse(0, "t1", "render", "Render"), stop(0),
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_result","tool_use_id":"t1","status":"success","content":[
			{"type":"text","text":"Here is the chart"},
			{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+png1x1+`"}}]}}`, stop(1),
		`{"type":"content_block_start","index":2,"content_block":{"type":"image","source":{"type":"url","url":"https://img.example/c.png"}}}`, stop(2),
		`{"type":"content_block_start","index":3,"content_block":{"type":"image","source":{"type":"url","url":"javascript:x"}}}`, stop(3),
		msgStop)
	items := s.Items()
	require.Len(t, items, 3)
	tool := items[0].Group.Steps[0].Tool
	assert.Equal(t, "Here is the chart", *tool.Result)
	require.Len(t, tool.Images, 1)
	assert.Equal(t, "data:image/png;base64,"+png1x1, tool.Images[0].URL)
	assert.Equal(t, KindImage, items[1].Kind, "an image block of the answer stands alone")
	assert.Equal(t, "https://img.example/c.png", items[1].Image.Src)
	assert.Equal(t, "", items[2].Image.Src, "a javascript: URL is never shown")

	raw, err := json.Marshal(s.View())
	require.NoError(t, err)
	assert.Contains(t, string(raw), `{"kind":"image","brand":false,"media_type":"","url":"https://img.example/c.png"}`)
	assert.Contains(t, string(raw), `"images":[{"url":"data:image/png;base64,`+png1x1+`"}]`)
}

func TestInlineImageTooLarge(t *testing.T) {
	big := strings.Repeat("A", MaxInlineImageBytes/3*4+400)
	s := apply(t, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+big+`"}}}`)
	img := s.Items()[0].Image
	assert.True(t, img.TooLarge)
	assert.Equal(t, "", img.Src)
}

func TestAGUIToolResultImages(t *testing.T) {
	s := newDialectStore()
	for _, ev := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"snap"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","toolCallId":"c1","messageId":"m2","content":[{"type":"text","text":"done"},
			{"type":"image","source":{"type":"data","value":"` + png1x1 + `","mimeType":"image/png"},"metadata":{"filename":"shot.png"}},
			{"type":"binary","mimeType":"image/gif","url":"https://img.example/a.gif","filename":"a.gif"},
			{"type":"binary","mimeType":"application/pdf","url":"https://img.example/a.pdf"}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	} {
		require.NotEqual(t, Skipped, s.ApplyJSON([]byte(ev)).Outcome, ev)
	}
	tool := s.Tool("c1")
	require.NotNil(t, tool)
	require.Len(t, tool.Tool.Images, 2)
	assert.Equal(t, "shot.png", tool.Tool.Images[0].Name)
	assert.True(t, strings.HasPrefix(tool.Tool.Images[0].URL, "data:image/png;base64,"))
	assert.Equal(t, "https://img.example/a.gif", tool.Tool.Images[1].External, "an image elsewhere is linked, never fetched")
}
