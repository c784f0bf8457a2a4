package app

import (
	"io"
	"net/http/httptest"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/components/htmltest"
	"stepwise/state"
)

// prerender serves path the way the server does: go-app's handler renders
// the routed page on the server.
func prerender(t *testing.T, path string) *htmltest.Node {
	t.Helper()
	Routes()
	h := &app.Handler{Name: "Stepwise", Title: "Stepwise", Lang: "vi"}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	require.Equal(t, 200, rec.Code)
	b, _ := io.ReadAll(rec.Body)
	return htmltest.Parse(t, string(b))
}

func TestPrerenderIsInTheAskedLanguage(t *testing.T) {
	for _, tc := range []struct{ path, lang, placeholder, starting, empty string }{
		{"/?lang=en", "en", "Message the assistant", "Starting… you can type already.", "Start a conversation"},
		{"/?lang=fr-CA&session=abc", "fr", "Écrivez à l'assistant", "Démarrage… vous pouvez déjà écrire.", ""},
		{"/", "vi", "Nhắn cho trợ lý", "Đang khởi động… bạn có thể gõ ngay.", "Bắt đầu một cuộc trò chuyện"},
	} {
		page := prerender(t, tc.path)
		html := page.First(htmltest.Tag("html"))
		require.NotNil(t, html, tc.path)
		assert.Equal(t, tc.lang, html.Attr("lang"), tc.path)
		composer := page.First(htmltest.Tag("textarea"))
		require.NotNil(t, composer, tc.path+": the composer, from the first paint")
		assert.Contains(t, composer.Attr("placeholder"), tc.placeholder, tc.path)
		assert.Contains(t, page.Text(), tc.starting, tc.path+": the page says the app is starting")
		empty := page.First(htmltest.AttrIs("class", "empty"))
		if tc.empty != "" {
			require.NotNil(t, empty, tc.path)
			assert.Contains(t, empty.Text(), tc.empty, tc.path)
		} else {
			assert.Nil(t, empty, tc.path+": a session may have history: no invitation to start one")
		}
	}
}

// The prerendered page is on screen until the app runs: nothing in it looks
// clickable that does nothing. Its buttons are disabled (web/boot.js
// enables the send button as it takes the composer over); the box takes
// text.
func TestPrerenderDisablesWhatNeedsTheApp(t *testing.T) {
	page := prerender(t, "/?lang=en")
	buttons := page.All(htmltest.Tag("button"))
	require.NotEmpty(t, buttons)
	for _, b := range buttons {
		assert.True(t, b.Disabled(), "an enabled button in the prerendered page: %v", b.Attrs)
	}
	textarea := page.First(htmltest.Tag("textarea"))
	require.NotNil(t, textarea)
	assert.False(t, textarea.Disabled())
	assert.False(t, textarea.Has("readonly"))
}

// The backend is the one the deployment names; a replay plays a file and
// opens no session.
func TestTheBackendIsTheConfigurations(t *testing.T) {
	kept := func(env map[string]string, query string) (state.Kept, backend.Traits) {
		c := &Controller{}
		c.cfg = ConfigFromURL(DefaultConfig().WithEnv(func(k string) string { return env[k] }), mustURL(t, query))
		b := c.newBackend()
		return b.Traits().Store.Kept, b.Traits()
	}
	k, traits := kept(nil, "/?session=s")
	assert.Equal(t, state.KeptByBackend, k)
	assert.True(t, traits.Listed)
	k, _ = kept(map[string]string{EnvProtocol: ProtocolAGUI}, "/?session=s")
	assert.Equal(t, state.KeptAsAGUI, k)
	k, _ = kept(map[string]string{EnvProtocol: ProtocolAISDK}, "/?session=s")
	assert.Equal(t, state.KeptAsAISDK, k)
	k, traits = kept(map[string]string{EnvProtocol: ProtocolAISDK}, "/?replay=/x.jsonl")
	assert.Equal(t, state.KeptNowhere, k)
	assert.False(t, traits.Listed)
}
