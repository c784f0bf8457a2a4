package native

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
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
	assert.Equal(t, backend.Outcome{CommandID: "c3"}, *f.result)
	f = readFrame([]byte(`{"type":"command_result","command_id":"c4","ok":false,"error":{"type":"busy","message":"The agent is busy."}}`))
	require.NotNil(t, f.result)
	assert.Equal(t, "The agent is busy.", f.result.Err.Error())
	var ce *backend.CommandError
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
