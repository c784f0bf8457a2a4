package state

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stream that never ends one text item: the item holds at most
// MaxItemText, cut on a character boundary and marked Cut; the next
// item is whole again.
func TestStreamedTextIsBounded(t *testing.T) {
	chunk := strings.Repeat("Việt ", 10_000) // 60 KB, multi-byte characters
	delta, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": chunk}})
	s := New(DefaultOptions())
	applyTo(s, msgStart, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for i := 0; i < 2*MaxItemText/len(chunk); i++ {
		s.ApplyJSON(delta)
	}
	it := s.Items()[0]
	assert.True(t, it.Cut)
	assert.LessOrEqual(t, len(it.Text), MaxItemText)
	assert.Greater(t, len(it.Text), MaxItemText-8)
	assert.True(t, utf8.ValidString(it.Text))

	applyTo(s, `{"type":"content_block_stop","index":0}`, `{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"short"}}`)
	assert.False(t, s.Items()[len(s.Items())-1].Cut)
}

// The AG-UI and AI SDK modes bound the item and the conversation they send
// back alike: the agent is told what the page showed.
func TestDialectTextIsBounded(t *testing.T) {
	chunk := strings.Repeat("x", 100_000)
	t.Run("ag-ui", func(t *testing.T) {
		s := newDialectStore()
		applyTo(s, `{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"}`)
		delta := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":"` + chunk + `"}`
		for i := 0; i < 2*MaxItemText/len(chunk); i++ {
			s.ApplyJSON([]byte(delta))
		}
		applyTo(s, `{"type":"TEXT_MESSAGE_END","messageId":"a1"}`, `{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`)
		it := s.Items()[0]
		require.Equal(t, KindText, it.Kind)
		assert.True(t, it.Cut)
		assert.Equal(t, MaxItemText, len(it.Text))
		conv := s.AGUIConversation()
		var content string
		require.NoError(t, json.Unmarshal(conv.Messages[len(conv.Messages)-1].Content, &content))
		assert.Equal(t, MaxItemText, len(content))
	})
	t.Run("ai-sdk", func(t *testing.T) {
		s := newDialectStore()
		applyTo(s, `{"type":"start","messageId":"m1"}`, `{"type":"text-start","id":"t1"}`)
		delta := `{"type":"text-delta","id":"t1","delta":"` + chunk + `"}`
		for i := 0; i < 2*MaxItemText/len(chunk); i++ {
			s.ApplyJSON([]byte(delta))
		}
		applyTo(s, `{"type":"text-end","id":"t1"}`, `{"type":"finish"}`)
		var text *Item
		for _, it := range s.Items() {
			if it.Kind == KindText {
				text = it
			}
		}
		require.NotNil(t, text)
		assert.True(t, text.Cut)
		assert.Equal(t, MaxItemText, len(text.Text))
		conv := s.UIConversation()
		last := conv.Messages[len(conv.Messages)-1]
		require.NotEmpty(t, last.Parts)
		var got string
		for _, p := range last.Parts {
			if p.Type == "text" && p.Text != nil {
				got = *p.Text
			}
		}
		assert.Equal(t, MaxItemText, len(got))
	})
}

func TestClipUTF8(t *testing.T) {
	assert.Equal(t, "ab", clipUTF8("abc", 2))
	assert.Equal(t, "a", clipUTF8("aệ", 2)) // ệ is 3 bytes: not split
	assert.Equal(t, "aệ", clipUTF8("aệ", 4))
}
