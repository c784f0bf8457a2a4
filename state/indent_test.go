package state

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// jsonDepth is how deep containers nest in valid JSON.
func jsonDepth(raw []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// checkIndentJSON checks IndentJSON's answer for raw: raw itself when it is
// not JSON; else the same JSON, indented as json.Indent does it up to
// maxJSONIndent levels, and no line indented deeper.
func checkIndentJSON(t *testing.T, raw []byte) {
	t.Helper()
	got := IndentJSON(raw)
	if !json.Valid(raw) {
		if got != string(raw) {
			t.Fatalf("IndentJSON(%q) = %q: text that is not JSON must stay as it is", raw, got)
		}
		return
	}
	var want, same bytes.Buffer
	json.Compact(&want, raw)
	if err := json.Compact(&same, []byte(got)); err != nil || same.String() != want.String() {
		t.Fatalf("IndentJSON(%q) = %q: not the same JSON (%v)", raw, got, err)
	}
	for _, line := range strings.Split(got, "\n") {
		if indent := len(line) - len(strings.TrimLeft(line, " ")); indent > 2*maxJSONIndent {
			t.Fatalf("IndentJSON(%.80q…): a line indented %d spaces (at most %d)", raw, indent, 2*maxJSONIndent)
		}
	}
	if jsonDepth(raw) <= maxJSONIndent {
		var indented bytes.Buffer
		json.Indent(&indented, raw, "", "  ")
		if got != indented.String() {
			t.Fatalf("IndentJSON(%q) = %q, json.Indent gives %q", raw, got, indented.String())
		}
	}
}

var indentJSONCases = []string{
	`{"a":1,"b":[1,2,{"c":null}],"d":{},"e":[]}`,
	` { "a" : [ ] , "b" : { } , "s" : "x\"]}[{,:\\" } `,
	"[1,\n2]\n\n",
	`"just a string"`, `42`, `true`, ``, `{`, `not json`, `{"a":}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1,2],{"k":"v"}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	strings.Repeat("[", 33) + "1," + strings.Repeat(`{"a": [true, null]}`, 2) + strings.Repeat("]", 33),
}

func TestIndentJSON(t *testing.T) {
	for _, raw := range indentJSONCases {
		checkIndentJSON(t, []byte(raw))
	}
}

// Issue 38, item 4: a value nested 5,000 deep is indented to
// maxJSONIndent levels and the rest written compactly: its text grows
// with its size, not with the square of its depth (json.Indent made 50 MB
// of it).
func TestIndentJSONCapsTheDepth(t *testing.T) {
	deep := []byte(strings.Repeat(`{"a":[`, 2500) + "1" + strings.Repeat("]}", 2500))
	checkIndentJSON(t, deep)
	if got := IndentJSON(deep); len(got) > 2*len(deep)+maxJSONIndent*maxJSONIndent*4 {
		t.Fatalf("%d bytes of JSON indented into %d", len(deep), len(got))
	}
	// The deep part is all there, on one line.
	if got := IndentJSON(deep); !strings.Contains(got, strings.Repeat(`{"a":[`, 2000)+"1"+strings.Repeat("]}", 2000)) {
		t.Fatal("the part nested too deep is not written compactly")
	}
}

func FuzzIndentJSON(f *testing.F) {
	for _, raw := range indentJSONCases {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkIndentJSON(t, raw)
	})
}
