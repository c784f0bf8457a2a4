package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Examples of RFC 6902, appendix A.
func TestJSONPatch(t *testing.T) {
	for _, tc := range []struct{ doc, patch, want string }{
		{`{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
		{`{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
		{`{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
		{`{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
		{`{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
		{`{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`, `{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{`{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
		{`{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
		{`{"foo":"bar"}`, `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`, `{"foo":"bar","child":{"grandchild":{}}}`},
		{`{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},
		{`{"/":9,"~1":10}`, `[{"op":"copy","from":"/~1","path":"/~01"}]`, `{"/":9,"~1":9}`},
		{`{"n":12345678901234567890}`, `[{"op":"add","path":"","value":{"n":1}}]`, `{"n":1}`},
	} {
		got, err := applyJSONPatch([]byte(tc.doc), []byte(tc.patch))
		require.NoError(t, err, tc.patch)
		assert.JSONEq(t, tc.want, string(got), tc.patch)
	}
	for _, tc := range []struct{ doc, patch string }{
		{`{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`},
		{`{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`},
		{`{"a":[1]}`, `[{"op":"remove","path":"/a/5"}]`},
		{`{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`},
		{`{}`, `[{"op":"frob","path":""}]`},
		{`{}`, `[{"op":"add","path":"nope","value":1}]`},
	} {
		_, err := applyJSONPatch([]byte(tc.doc), []byte(tc.patch))
		assert.Error(t, err, tc.patch)
	}
}

func TestRepairPartialJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"city":"Ha`:               `{"city":"Ha"}`,
		`{"a":1,"b`:                 `{"a":1}`,
		`{"a":[1,2`:                 `{"a":[1,2]}`,
		`{"a":tr`:                   `{}`,
		`{"a":"x\`:                  `{"a":"x"}`,
		`[{"q":"a"},{"q":`:          `[{"q":"a"},{}]`,
		`{"nested":{"deep":{"k":"v`: `{"nested":{"deep":{"k":"v"}}}`,
	} {
		got, ok := repairPartialJSON([]byte(in))
		require.True(t, ok, in)
		assert.JSONEq(t, want, string(got), in)
	}
	_, ok := repairPartialJSON([]byte(`San Francisco`))
	assert.False(t, ok)
}
