package demo

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
)

func TestUIResourceEndpoint(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/sessions/s1/ui-resource?uri=" + url.QueryEscape(StockCardURI))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var res struct {
		Contents []struct {
			URI, MimeType, Text string
			Meta                json.RawMessage `json:"_meta"`
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	require.Len(t, res.Contents, 1)
	assert.Equal(t, StockCardURI, res.Contents[0].URI)
	assert.Equal(t, state.AppMimeType, res.Contents[0].MimeType)
	assert.Contains(t, res.Contents[0].Text, "ui/initialize")

	resp, err = http.Get(srv.URL + "/api/sessions/s1/ui-resource?uri=" + url.QueryEscape("ui://other"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestToolCallsEndpoint(t *testing.T) {
	srv := httptest.NewServer(&Handler{Agent: newTestAgent(t)})
	defer srv.Close()
	post := func(body, origin, ctype string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/s1/tool-calls", strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := post(`{"name":"show_stock","arguments":{"symbol":"ACME","range":"6M"},"resource_uri":"ui://stepwise-demo/stock-card"}`, "", "application/json")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var res struct {
		Content           []struct{ Type, Text string }
		StructuredContent Card
		IsError           bool
	}
	require.NoError(t, json.Unmarshal([]byte(body), &res))
	assert.False(t, res.IsError)
	assert.Equal(t, "6M", res.StructuredContent.Range)
	assert.Len(t, res.StructuredContent.Prices, 26)
	assert.Contains(t, res.Content[0].Text, "ACME closed at")

	_, body = post(`{"name":"show_stock","arguments":{"symbol":"acme!","range":"6M"}}`, "", "application/json")
	assert.Contains(t, body, `"isError":true`, "a tool's own failure is a result")

	resp, _ = post(`{"name":"delete_everything","arguments":{}}`, "", "application/json")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = post(`{"name":"show_stock"}`, "http://evil.example", "application/json")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	resp, _ = post(`{"name":"show_stock"}`, "", "text/plain")
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
	resp, _ = post(`not json`, "", "application/json")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	resp, _ = post(`{"name":"show_stock","arguments":{"symbol":"`+strings.Repeat("A", MaxFrameBytes)+`"}}`, "", "application/json")
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

// The /app scenario's tool names the stock card, and its result is the
// card show_stock makes for the same arguments.
func TestAppScenarioMatchesTheTool(t *testing.T) {
	sc, err := LoadScenarios("")
	require.NoError(t, err)
	require.Contains(t, sc, "app")
	s := state.New(state.DefaultOptions())
	for _, ev := range strings.Split(strings.TrimSpace(string(sc["app"].EventsJSONL())), "\n") {
		s.ApplyJSON([]byte(ev))
	}
	it := s.Tool("app-1")
	require.NotNil(t, it)
	require.NotNil(t, it.Tool.App)
	assert.Equal(t, StockCardURI, it.Tool.App.ResourceURI)
	card, err := StockCard("ACME", "1M")
	require.NoError(t, err)
	want, _ := json.Marshal(card)
	assert.JSONEq(t, string(want), string(it.Tool.StructuredContent))
}
