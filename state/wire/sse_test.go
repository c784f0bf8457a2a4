package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseSSE(chunks ...string) []SSEEvent {
	var p SSEParser
	var out []SSEEvent
	emit := func(e SSEEvent) { out = append(out, e) }
	for _, c := range chunks {
		p.Feed([]byte(c), emit)
	}
	p.Close(emit)
	return out
}

func TestSSEParser(t *testing.T) {
	// Comments, CRLF and CR line ends, multi-line data, fields without a
	// space, a line cut between two reads, and a last event with no blank
	// line after it.
	got := parseSSE(
		": ping\r\n\r\ndata: {\"a\":1}\r\n\r\nevent: x\nid: 7\ndata:one\ndata: two\n\n",
		"data: {\"b\"", ":2}\r\rdata: [DONE]",
	)
	assert.Equal(t, []SSEEvent{
		{Data: `{"a":1}`},
		{Event: "x", ID: "7", Data: "one\ntwo"},
		{ID: "7", Data: `{"b":2}`},
		{ID: "7", Data: "[DONE]"},
	}, got)
	assert.True(t, got[3].Done())
	assert.Empty(t, parseSSE(": only comments\n\n\n"))
	// A CR at the end of one read and its LF at the start of the next are
	// one line end.
	assert.Equal(t, []SSEEvent{{Data: "x"}, {Data: "y"}}, parseSSE("data: x\r", "\n\r", "\ndata: y\n\n"))
}

func TestDialectOf(t *testing.T) {
	for typ, want := range map[string]Dialect{
		"RUN_STARTED": AGUI, "TEXT_MESSAGE_CHUNK": AGUI, "A2": AGUI,
		"text-delta": AISDK, "data-weather": AISDK, "start": AISDK, "finish": AISDK, "abort": AISDK, "file": AISDK, "custom": AISDK,
		"message_start": Native, "error": Native, "ping": Native, "activity": Native, "": Native, "_": Native, "Run_Started": Native,
	} {
		assert.Equal(t, want, DialectOf(typ), typ)
	}
}

func TestReadCapture(t *testing.T) {
	capture := strings.Join([]string{
		`data: {"type":"start"}`,
		``,
		`data:{"a":1}`,
		`{"type":"ping"}`, // JSONL ends the event before it
		"  \t",
		": keepalive",
		"data: [DONE]",
		"",
		"event: message",
		"id: 3",
		`data: {"type":"text-delta",`,
		`data: "delta":"two lines"}`,
		"",
		"not json",
		"data:",
		"",
		"retry: 10\r",
		`data: {"last":true}`, // no blank line before the end
	}, "\n")
	var got []string
	require.NoError(t, ReadCapture(strings.NewReader(capture), func(f []byte) { got = append(got, string(f)) }))
	assert.Equal(t, []string{
		`{"type":"start"}`,
		`{"a":1}`,
		`{"type":"ping"}`,
		"{\"type\":\"text-delta\",\n\"delta\":\"two lines\"}",
		"not json",
		`{"last":true}`,
	}, got)
}

// An event past MaxData is skipped as it is read, whether one endless line
// or many lines, without holding it: the events around it come through.
func TestSSEParserSkipsEventsPastMaxData(t *testing.T) {
	for name, big := range map[string]string{
		"one line":   "data: " + strings.Repeat("x", 10_000) + "\n\n",
		"many lines": strings.Repeat("data: "+strings.Repeat("y", 40)+"\n", 100) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			p := SSEParser{MaxData: 1000}
			stream := "data: first\n\n" + big + "data: last\n\n"
			var got []string
			held := 0
			for b := []byte(stream); len(b) > 0; {
				n := min(7, len(b))
				p.Feed(b[:n], func(e SSEEvent) { got = append(got, e.Data) })
				b = b[n:]
				held = max(held, len(p.line)+p.data.Len())
			}
			p.Close(func(e SSEEvent) { got = append(got, e.Data) })
			assert.Equal(t, []string{"first", "last"}, got)
			assert.Equal(t, 1, p.Skipped)
			assert.LessOrEqual(t, held, 2*1000+16, "the skipped event was held")
		})
	}
}
