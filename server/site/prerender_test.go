package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bootScript = regexp.MustCompile(`<script (defer src="/web/boot.js"|src="/web/boot.js" defer)></script>`)

// A page whose URL names no language is prerendered in the browser's
// (Accept-Language), the one the app takes once it runs; ?lang= wins. The
// page carries the script that keeps what is typed before the app runs.
func TestPrerenderInTheReadersLanguage(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	get := func(path, acceptLanguage string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if acceptLanguage != "" {
			req.Header.Set("Accept-Language", acceptLanguage)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for _, tc := range []struct{ path, accept, lang, words string }{
		{"/", "fr-CA,fr;q=0.9,en;q=0.8", "fr", "Démarrage…"},
		{"/?session=abc", "en-US,en;q=0.9", "en", "Starting…"},
		{"/?lang=vi", "en-US", "vi", "Đang khởi động…"},
		{"/", "", "vi", "Đang khởi động…"},
		{"/", "*", "vi", "Đang khởi động…"},
	} {
		resp, page := get(tc.path, tc.accept)
		assert.True(t, strings.Contains(page, `<html lang="`+tc.lang+`" dir="ltr">`), "%s with %q: not in %s", tc.path, tc.accept, tc.lang)
		assert.True(t, strings.Contains(page, tc.words), "%s with %q: no %q", tc.path, tc.accept, tc.words)
		assert.Contains(t, resp.Header.Values("Vary"), "Accept-Language")
		assert.True(t, bootScript.MatchString(page), "the page does not load web/boot.js deferred")
	}
}

// Arabic and Hebrew pages are prerendered right to left, in their words;
// Chinese for Taiwan in traditional characters.
func TestPrerenderRightToLeft(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir})
	require.NoError(t, err)
	for _, tc := range []struct{ path, accept, html, words string }{
		{"/?lang=ar", "", `<html lang="ar" dir="rtl">`, "ابدأ محادثة"},
		{"/", "he-IL,he;q=0.9", `<html lang="he" dir="rtl">`, "התחילו שיחה"},
		{"/", "zh-TW", `<html lang="zh-Hant" dir="ltr">`, "開始對話"},
		{"/?lang=de", "ar", `<html lang="de" dir="ltr">`, "Starten Sie eine Unterhaltung"},
	} {
		req := httptest.NewRequest(http.MethodGet, "http://localhost"+tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept-Language", tc.accept)
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		page := rec.Body.String()
		assert.Contains(t, page, tc.html, tc.path)
		assert.Contains(t, page, tc.words, tc.path)
	}
}

// The catalogs app.wasm does not hold are served, and cached by the
// service worker with the app.
func TestCatalogsServedAndCached(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm"), 0o644))
	handler, err := New(Config{AllowedHosts: testHosts, WebDir: dir, BasePath: "/chat"})
	require.NoError(t, err)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil))
		return rec
	}
	rec := get("/chat/web/i18n/ar.json")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"))
	assert.Contains(t, rec.Body.String(), `"composer.send": "إرسال"`)
	for _, path := range []string{"/chat/web/i18n/xx.json", "/chat/web/i18n/", "/chat/web/i18n/vi.json"} {
		assert.Equal(t, http.StatusNotFound, get(path).Code, path)
	}
	worker := get("/chat/app-worker.js").Body.String()
	for _, lang := range []string{"ar", "zh-Hans", "pt-BR", "fr"} {
		assert.Contains(t, worker, `"/chat/web/i18n/`+lang+`.json"`, lang)
	}
}
