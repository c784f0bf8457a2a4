package sandbox

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func localOnly(host string) bool {
	return strings.HasPrefix(host, "localhost:") || strings.HasPrefix(host, "127.0.0.1:")
}

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}

func TestProxyPagePolicy(t *testing.T) {
	h := New(Config{HostAllowed: localOnly})
	csp := url.QueryEscape(`{"connectDomains":["https://api.example.com","https://evil.example; script-src *"],"resourceDomains":["https://*.cdn.example","javascript:alert(1)"]}`)
	rec := get(t, h, "/?host="+url.QueryEscape("http://localhost:8080")+"&csp="+csp)
	require.Equal(t, http.StatusOK, rec.Code)
	policy := rec.Header().Get("Content-Security-Policy")
	assert.Contains(t, policy, "default-src 'none'")
	assert.Contains(t, policy, "connect-src https://api.example.com;")
	assert.Contains(t, policy, "script-src 'self' 'unsafe-inline' https://*.cdn.example;")
	assert.Contains(t, policy, "frame-src 'none'")
	assert.Contains(t, policy, "object-src 'none'")
	assert.Contains(t, policy, "frame-ancestors 'self' http://localhost:8080")
	assert.NotContains(t, policy, "evil")
	assert.NotContains(t, policy, "javascript")
	assert.Contains(t, rec.Body.String(), `<script src="proxy.js" defer></script>`)
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
}

func TestProxyPageDefaultPolicy(t *testing.T) {
	rec := get(t, New(Config{HostAllowed: localOnly, FrameAncestors: []string{"https://embedder.example"}}), "/?host=http%3A%2F%2F127.0.0.1%3A8080")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "+
		"font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'; form-action 'none'; "+
		"frame-ancestors 'self' http://127.0.0.1:8080 https://embedder.example", rec.Header().Get("Content-Security-Policy"))
}

func TestProxyRefusesOtherHosts(t *testing.T) {
	h := New(Config{HostAllowed: localOnly})
	for _, host := range []string{"", "http://evil.example", "javascript:alert(1)", "http://localhost:8080/path", "http://localhost:8080 'unsafe-eval'", "ftp://localhost:21"} {
		rec := get(t, h, "/?host="+url.QueryEscape(host))
		assert.Equal(t, http.StatusBadRequest, rec.Code, host)
		assert.Empty(t, rec.Header().Get("Content-Security-Policy"), host)
	}
}

func TestProxyServesOnlyItsFiles(t *testing.T) {
	h := New(Config{HostAllowed: localOnly})
	rec := get(t, h, "/proxy.js")
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Header().Get("Content-Type"), "javascript")
	assert.Contains(t, rec.Body.String(), "sandbox-proxy-ready")
	assert.Equal(t, http.StatusNotFound, get(t, h, "/api/sessions").Code)
	assert.Equal(t, http.StatusNotFound, get(t, h, "/web/app.wasm").Code)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	// Under a path prefix too.
	assert.Equal(t, http.StatusOK, get(t, h, "/base/proxy.js").Code)
	assert.Equal(t, http.StatusOK, get(t, h, "/base/?host=http%3A%2F%2Flocalhost%3A1").Code)
}
