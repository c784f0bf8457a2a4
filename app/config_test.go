package app

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestConfig(t *testing.T) {
	env := map[string]string{EnvHistoryPath: "/h/{session_id}", EnvTransport: "sse", EnvFaviconService: "off", EnvAgentName: "Thảo"}
	base := DefaultConfig().WithEnv(func(k string) string { return env[k] })
	u, _ := url.Parse("/?session=ab%2F..%2Fc&lang=fr&replay=/x.jsonl&rate=40&warm=5&agent=Bot")
	c := ConfigFromURL(base, u)
	assert.Equal(t, "abc", c.SessionID, "only a safe alphabet reaches paths")
	assert.Equal(t, "/h/{session_id}", c.HistoryPath)
	assert.Equal(t, "sse", c.Transport)
	assert.Equal(t, "", c.FaviconService)
	assert.Equal(t, "Bot", c.AgentName, "the URL wins over the deployment")
	assert.Equal(t, 40.0, c.Rate)
	assert.Equal(t, 5, c.Warm)
	assert.Equal(t, "fr", c.Lang)

	u, _ = url.Parse("/?rate=max")
	c = ConfigFromURL(DefaultConfig(), u)
	assert.Zero(t, c.Rate)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestProtocolConfig(t *testing.T) {
	env := map[string]string{EnvProtocol: "ai-sdk", EnvChatPath: "/chat"}
	c := DefaultConfig().WithEnv(func(k string) string { return env[k] })
	assert.Equal(t, ProtocolAISDK, c.Protocol)
	assert.Equal(t, "/chat", c.ChatPath)
	assert.Equal(t, "/api/agent", c.AgentPath)
	c = DefaultConfig().WithEnv(func(k string) string { return map[string]string{EnvProtocol: "soap"}[k] })
	assert.Equal(t, ProtocolStepwise, c.Protocol, "an unknown protocol is ignored")
}
