package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestARIAValues(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<svg class="icon" aria-hidden focusable="false"><path d="M1"></path></svg>`,
			`<svg class="icon" aria-hidden="true" focusable="false"><path d="M1"></path></svg>`},
		{`<span aria-hidden></span><span aria-hidden/>`, `<span aria-hidden="true"></span><span aria-hidden="true"/>`},
		{"<button disabled aria-expanded\taria-controls=\"x\">", "<button disabled aria-expanded=\"true\"\taria-controls=\"x\">"},
		{`<B ARIA-HIDDEN>`, `<B ARIA-HIDDEN="true">`},
		// Values, given or quoted, stay.
		{`<a aria-hidden="false" aria-current = "page" aria-x=y>`, `<a aria-hidden="false" aria-current = "page" aria-x=y>`},
		{`<div title="x aria-hidden> y" data-aria-hidden>`, `<div title="x aria-hidden> y" data-aria-hidden>`},
		{`<div title='a > aria-hidden'>`, `<div title='a > aria-hidden'>`},
		// Text, comments and raw text are not tags.
		{`<p>a aria-hidden b &lt;i aria-hidden&gt;</p>`, `<p>a aria-hidden b &lt;i aria-hidden&gt;</p>`},
		{`<!-- <b aria-hidden> --><b aria-hidden>`, `<!-- <b aria-hidden> --><b aria-hidden="true">`},
		{`<script>if (a<b aria-hidden) x = "<i aria-hidden>"</script><i aria-hidden>`, `<script>if (a<b aria-hidden) x = "<i aria-hidden>"</script><i aria-hidden="true">`},
		{`<style>p<q aria-hidden>{}</STYLE><i aria-hidden>`, `<style>p<q aria-hidden>{}</STYLE><i aria-hidden="true">`},
		{`<!doctype html></p> a < b <3 aria-hidden`, `<!doctype html></p> a < b <3 aria-hidden`},
		// Cut short: nothing to mend, and no panic.
		{`<div title="open aria-hidden`, `<div title="open aria-hidden`},
		{`<i aria-hidden`, `<i aria-hidden="true"`},
		{`<!-- open`, `<!-- open`},
		{`<`, `<`},
		{``, ``},
	} {
		assert.Equal(t, c.want, string(ariaValues([]byte(c.in))), "in: %s", c.in)
	}
}

// The page as served has no ARIA attribute without a value (go-app's
// encoder wrote aria-hidden bare), and its Content-Length is its length.
func TestPageHasARIAValues(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/?lang=en", nil)
	handler.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	assert.Contains(t, body, `aria-hidden="true"`)
	assert.NotRegexp(t, regexp.MustCompile(`\saria-[a-z]+[\s/>]`), body, "an ARIA attribute without a value")
	assert.Equal(t, strconv.Itoa(len(body)), rec.Header().Get("Content-Length"))
	assert.Contains(t, body, "</html>")

	// A revalidation still gets its 304.
	again := httptest.NewRequest(http.MethodGet, "/?lang=en", nil)
	again.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	handler.ServeHTTP(rec, again)
	assert.Equal(t, http.StatusNotModified, rec.Code)
	assert.Empty(t, rec.Body.String())
}

// Whatever the input, ariaValues does not panic, only inserts ="true"
// after attribute names, and a second pass changes nothing.
func FuzzARIAValues(f *testing.F) {
	for _, s := range []string{`<svg aria-hidden focusable="false">`, `<a title="x > aria-y">`, `<script><b aria-x></script>`, `<!-- <b aria-x> -->`, `<i aria-hidden`, `<`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once := ariaValues([]byte(in))
		if string(ariaValues(once)) != string(once) {
			t.Fatalf("not idempotent: %q -> %q", in, once)
		}
		if stripped := strings.ReplaceAll(string(once), `="true"`, ""); stripped != strings.ReplaceAll(in, `="true"`, "") {
			t.Fatalf("%q became %q: more than ARIA values added", in, once)
		}
	})
}
