package components

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"stepwise/state"
)

const answerWithCode = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Run:\n\n` +
	"```go\\nfmt.Println(\\\"<b>hi</b>\\\")\\n```\\n\\nthen\\n\\n```\\nplain\\n```" + `","is_final":true}}`

// copyButtons lists the copy buttons of html as "id|label|text".
func copyButtons(html string) []string {
	var out []string
	for _, b := range regexp.MustCompile(`(?s)<button [^>]*data-testid="copy"[^>]*>.*?</button>`).FindAllString(html, -1) {
		id := regexp.MustCompile(`data-copy-id="([^"]*)"`).FindStringSubmatch(b)[1]
		label := regexp.MustCompile(`aria-label="([^"]*)"`).FindStringSubmatch(b)[1]
		text := regexp.MustCompile(`class="copy-text">([^<]*)<`).FindStringSubmatch(b)[1]
		out = append(out, id+"|"+label+"|"+text)
	}
	return out
}

func TestCopyButtonsOnAnswerAndCodeBlocks(t *testing.T) {
	s := storeOf(t, start, answerWithCode, `{"type":"message_stop"}`)
	it := s.Items()[0]
	key := answerCopyID(it)
	html := itemHTML(t, in("en"), it)
	assert.Equal(t, []string{
		key + ".0|Copy code|Copy",
		key + ".1|Copy code|Copy",
		key + "|Copy answer|Copy",
	}, copyButtons(html), "one per code block, then the answer's")
	assert.Contains(t, html, `<span class="md-code-lang">go</span>`)
	assert.Contains(t, html, `class="language-go"`)
	assert.Contains(t, html, `<span class="hl-fn">Println</span>`)
	assert.NotContains(t, html, "<b>", "code is text")
	// The button a copy just succeeded on says so; the others do not.
	html = render(t, &ItemView{Item: it, Rev: it.Rev, Settings: in("fr"), Copied: key + ".1"})
	assert.Equal(t, []string{
		key + ".0|Copier le code|Copier",
		key + ".1|Copié|Copié",
		key + "|Copier la réponse|Copier",
	}, copyButtons(html))
}

func TestNoCopyButtonOnAnEmptyAnswer(t *testing.T) {
	s := storeOf(t, start, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	assert.Empty(t, copyButtons(itemHTML(t, in("en"), s.Items()[0])))
}

func TestCopiedInOnlyTheItemConcerned(t *testing.T) {
	a, b := &state.Item{Key: 3}, &state.Item{Key: 31}
	assert.Equal(t, "3.1", CopiedIn("3.1", []*state.Item{a, b}))
	assert.Equal(t, "", CopiedIn("3.1", []*state.Item{b}), "31 is not 3")
	assert.Equal(t, "31", CopiedIn("31", []*state.Item{b}))
	assert.Equal(t, "", CopiedIn("", []*state.Item{a}))
}
