package app

import (
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestConfig(t *testing.T) {
	env := map[string]string{EnvHistoryPath: "/h/{session_id}", EnvTransport: "sse", EnvFaviconService: "off", EnvAgentName: "Thảo"}
	base := DefaultConfig().WithEnv(func(k string) string { return env[k] })
	u, _ := url.Parse("/?session=ab%2F..%2Fc&lang=fr&replay=/x.jsonl&rate=40&warm=5&agent=Bot")
	c := ConfigFromURL(base, u)
	assert.Equal(t, "abc", c.SessionID, "only a safe alphabet reaches paths")
	assert.Equal(t, "/h/abc", c.Path(c.HistoryPath))
	assert.Equal(t, "sse", c.Transport)
	assert.Equal(t, "", c.FaviconService)
	assert.Equal(t, "Bot", c.AgentName, "the URL wins over the deployment")
	assert.Equal(t, 40.0, c.Rate)
	assert.Equal(t, 5, c.Warm)
	assert.Equal(t, "fr", c.Lang)

	u, _ = url.Parse("/?rate=max")
	c = ConfigFromURL(DefaultConfig(), u)
	assert.Zero(t, c.Rate)
	assert.Equal(t, "/api/sessions/s/ws", Config{SessionID: "s"}.Path(DefaultConfig().WSPath))
}

func TestBackoff(t *testing.T) {
	lo := func() float64 { return 0 }
	hi := func() float64 { return 0.999999 }
	assert.Equal(t, 250*time.Millisecond, Backoff(0, lo))
	assert.InDelta(t, float64(500*time.Millisecond), float64(Backoff(0, hi)), float64(time.Millisecond))
	assert.Equal(t, 2*time.Second, Backoff(3, lo))
	assert.Equal(t, 7500*time.Millisecond, Backoff(10, lo), "capped at 15 s, half of it at least")
	assert.LessOrEqual(t, Backoff(50, hi), 15*time.Second)
	for n := 0; n < 6; n++ {
		assert.Less(t, Backoff(n, hi), Backoff(n+1, hi)+time.Millisecond, "grows")
	}
}

func TestPercentileAndLines(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3}
	assert.Equal(t, 3.0, Percentile(v, 50))
	assert.Equal(t, 5.0, Percentile(v, 95))
	assert.Equal(t, 1.0, Percentile(v, 0))
	assert.Equal(t, [][]byte{[]byte("a"), []byte("b")}, SplitLines([]byte(" a \n\n b\r\n")))
	// Server-Sent Events as the replay command reads them: data lines of
	// one event joined, other fields and [DONE] not frames.
	assert.Equal(t, [][]byte{[]byte("{\"a\":\n1}"), []byte("{}")}, SplitLines([]byte("event: x\ndata: {\"a\":\ndata: 1}\n\ndata: {}\n\ndata: [DONE]\n\n")))
}
