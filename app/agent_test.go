package app

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

func agentStore() *state.Store {
	o := state.DefaultOptions()
	n := 0
	o.NewID = func() string { n++; return "id" + strconv.Itoa(n) }
	return state.New(o)
}

func TestAgentConfig(t *testing.T) {
	c := DefaultConfig()
	assert.False(t, c.AgentMode())
	env := map[string]string{EnvProtocol: "ai-sdk", EnvChatPath: "/chat"}
	c = c.WithEnv(func(k string) string { return env[k] })
	assert.True(t, c.AgentMode())
	assert.Equal(t, "/chat", c.ChatPath)
	assert.Equal(t, "/api/agent", c.AgentPath)
	c = DefaultConfig().WithEnv(func(k string) string { return map[string]string{EnvProtocol: "soap"}[k] })
	assert.Equal(t, ProtocolStepwise, c.Protocol, "an unknown protocol is ignored")
}

func TestAgentRequests(t *testing.T) {
	c := DefaultConfig()
	c.Protocol = ProtocolAISDK
	s := agentStore()
	newConversation(c, s, "chat-1")
	req := agentRunRequest(c, s, "hello")
	assert.Equal(t, "POST", req.Method)
	assert.Equal(t, "/api/chat", req.URL)
	var body wire.UIChatRequest
	require.NoError(t, json.Unmarshal(req.Body, &body))
	assert.Equal(t, "chat-1", body.ID)
	assert.Equal(t, "submit-message", body.Trigger)
	require.Len(t, body.Messages, 1)
	assert.Equal(t, agentRequest{Method: "GET", URL: "/api/chat/chat%201/stream"}, agentResumeRequest(c, "chat 1"))

	c.Protocol = ProtocolAGUI
	s = agentStore()
	newConversation(c, s, "thread-1")
	req = agentRunRequest(c, s, "hi")
	assert.Equal(t, "/api/agent", req.URL)
	var in wire.RunAgentInput
	require.NoError(t, json.Unmarshal(req.Body, &in))
	assert.Equal(t, "thread-1", in.ThreadID)
	assert.Equal(t, state.AGUIClientTools, in.Tools, "Stepwise's own tools are offered")
}

func TestSavedConversationRoundTrip(t *testing.T) {
	c := DefaultConfig()
	c.Protocol = ProtocolAISDK
	s := agentStore()
	newConversation(c, s, "chat-1")
	agentRunRequest(c, s, "  What is   the weather in Hanoi today, and tomorrow, and the day after that, please?  ")
	s.ApplyJSON([]byte(`{"type":"start","messageId":"m1"}`))
	s.ApplyJSON([]byte(`{"type":"text-start","id":"t"}`))
	s.ApplyJSON([]byte(`{"type":"text-delta","id":"t","delta":"Sunny"}`))
	rec := saveConversation(c, s, "chat-1", time.UnixMilli(1234))
	assert.Equal(t, "chat-1", rec.ID)
	assert.Equal(t, int64(1234), rec.Updated)
	assert.Equal(t, "What is the weather in Hanoi today, and tomorrow, and the day after that, pleas…", rec.Title)
	require.NotNil(t, rec.UI)
	assert.Nil(t, rec.AGUI)
	raw, err := json.Marshal(rec)
	require.NoError(t, err)
	var back SavedConversation
	require.NoError(t, json.Unmarshal(raw, &back))
	r := agentStore()
	assert.True(t, restoreConversation(c, r, back), "it was streaming: ask the route for the stream")
	assert.Equal(t, "Sunny", r.Items()[1].Text)

	list := []SavedConversation{{ID: "a", Updated: 1}, {ID: "b", Updated: 3}, {ID: "c", Updated: 2}}
	sortNewestFirst(list)
	assert.Equal(t, "b", list[0].ID)
	assert.Equal(t, "a", list[2].ID)
}
