package app

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func TestEncodeCommand(t *testing.T) {
	b, err := encodeCommand(wire.NewStop("s1"), "c7")
	require.NoError(t, err)
	assert.JSONEq(t, `{"command_id":"c7","type":"stop","session_id":"s1"}`, string(b))
	b, err = encodeCommand(struct{}{}, "c1")
	require.NoError(t, err)
	assert.JSONEq(t, `{"command_id":"c1"}`, string(b))
	b, err = encodeCommand(wire.NewStop("s1"), "")
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"stop","session_id":"s1"}`, string(b), "no id, no field")
	_, err = encodeCommand([]int{1}, "c1")
	assert.Error(t, err)
}

func TestReadFrame(t *testing.T) {
	f := readFrame([]byte(`{"type":"message_stop","event_id":"12"}`))
	assert.Equal(t, "12", f.id.String())
	assert.Nil(t, f.reset)
	assert.Nil(t, f.result)

	f = readFrame([]byte(`{"type":"reset","last_event_id":"3","reason":"unknown_event_id"}`))
	require.NotNil(t, f.reset)
	assert.Equal(t, "3", f.reset.last.String())
	assert.Equal(t, "unknown_event_id", f.reset.reason)
	f = readFrame([]byte(`{"type":"reset","last_event_id":null,"reason":"session_gone"}`))
	require.NotNil(t, f.reset)
	assert.True(t, f.reset.last.IsZero())

	f = readFrame([]byte(`{"type":"command_result","command_id":"c3","ok":true}`))
	require.NotNil(t, f.result)
	assert.Equal(t, Result{CommandID: "c3"}, *f.result)
	f = readFrame([]byte(`{"type":"command_result","command_id":"c4","ok":false,"error":{"type":"busy","message":"The agent is busy."}}`))
	require.NotNil(t, f.result)
	assert.Equal(t, "The agent is busy.", f.result.Err.Error())
	var ce *CommandError
	require.ErrorAs(t, f.result.Err, &ce)
	assert.Equal(t, "busy", ce.Type)

	// A stream event that happens to be called reset is the store's.
	f = readFrame([]byte(`{"type":"reset","event_id":5}`))
	assert.Nil(t, f.reset)
	for _, bad := range []string{`[1]`, `nope`, `{"type":"command_result","ok":false}`, `{"type":7}`} {
		f = readFrame([]byte(bad))
		assert.Nil(t, f.reset, bad)
		assert.Nil(t, f.result, bad)
	}
}

func TestRefusal(t *testing.T) {
	assert.Equal(t, "Not now", refusal(409, []byte(`{"error":{"type":"busy","message":"Not now"}}`)).Error())
	assert.Equal(t, "HTTP 415", refusal(415, []byte(`unsupported`)).Error())
}

// fakeConn records what a session sends, or refuses it.
type fakeConn struct {
	sent []string
	err  error
}

func (c *fakeConn) Send(b []byte) error {
	if c.err != nil {
		return c.err
	}
	c.sent = append(c.sent, string(b))
	return nil
}

func TestSessionTracksCommands(t *testing.T) {
	conn := &fakeConn{}
	s := NewSession(Config{SessionID: "s"}, conn)
	c1, err := s.SendMessage("  hi ")
	require.NoError(t, err)
	assert.Equal(t, Command{ID: "c1", Kind: CommandMessage, Text: "hi"}, c1)
	c2, err := s.Answer("k", map[string]string{"Q": "A"})
	require.NoError(t, err)
	var sent map[string]any
	require.NoError(t, json.Unmarshal([]byte(conn.sent[1]), &sent))
	assert.Equal(t, "c2", sent["command_id"])
	assert.Equal(t, "k", sent["approval_key"])

	got, ok := s.Outcome("c2")
	assert.True(t, ok)
	assert.Equal(t, c2, got)
	_, ok = s.Outcome("c2")
	assert.False(t, ok, "an outcome is taken once")
	_, ok = s.Outcome("c99")
	assert.False(t, ok)

	_, err = s.SendMessage(" ")
	assert.ErrorIs(t, err, ErrEmptyMessage)

	conn.err = ErrOffline
	_, err = s.Stop()
	assert.ErrorIs(t, err, ErrOffline)
	_, ok = s.Outcome("c3")
	assert.False(t, ok, "a command not sent waits for nothing")

	conn.err = nil
	for range maxWaiting + 10 {
		s.Stop()
	}
	assert.Len(t, s.waiting, maxWaiting, "a backend that never answers does not grow the list")
}
