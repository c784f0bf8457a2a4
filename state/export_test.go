package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExportMarkdown(t *testing.T) {
	s := New(DefaultOptions())
	for _, ev := range []string{
		`{"type":"user_message","message_id":"m1","content":[{"type":"text","text":"Compare\nthem"},{"type":"document","title":"notes.csv","source":{"type":"file","file_id":"f1"},"file":{"name":"notes.csv","media_type":"text/csv","size":912}}]}`,
		`{"type":"answer_start","message_id":"m2","parent_id":"m1"}`,
		`{"type":"message_start","message":{"id":"a","role":"assistant","message_type":"chat"}}`,
		`{"type":"group_start","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"web_search","input":{},"tool_content_message":"Search prices"}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","content":"ok","status":"success"}}`,
		`{"type":"group_end","index":0,"summary":"Searched"}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"thinking","thinking":"secret musings"}}`,
		`{"type":"content_block_start","index":4,"content_block":{"type":"image","source":{"type":"url","url":"https://example.com/c.png"},"file":{"name":"c.png","media_type":"image/png"}}}`,
		`{"type":"content_block_start","index":5,"content_block":{"type":"text","text":"The **second** is cheaper."}}`,
		`{"type":"message_stop"}`,
	} {
		s.ApplyJSON([]byte(ev))
	}
	md := ExportMarkdown(s.Items(), ExportLabels{Title: "Offers", User: "You", Agent: "Stepwise", Working: "Working", Image: "image"})
	assert.Equal(t, "# Offers\n\n## You\n\nCompare\nthem\n\n- 📎 notes.csv (text/csv, 912 B)\n\n"+
		"## Stepwise\n\n**Searched**\n\n- Search prices (done)\n\n![c.png](<https://example.com/c.png>)\n\nThe **second** is cheaper.\n", md)
	assert.NotContains(t, md, "secret", "thinking is not exported")
}
