package agent

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

const pngBytes = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

func dataURL(mediaType, bytes string) string {
	return "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString([]byte(bytes))
}

// A file read in the browser goes inline once it is what its name says;
// an empty one, a refused type or one that is not what it says is
// refused as the native backend's upload would be.
func TestFileRead(t *testing.T) {
	u := backend.Upload{ID: "f1", Name: "chart.png", MediaType: "image/png"}
	got := fileRead(u, int64(len(pngBytes)), dataURL("image/png", pngBytes), nil)
	require.NoError(t, got.Err)
	require.NotNil(t, got.Block)
	assert.Equal(t, "image", got.Block.Type)
	assert.Equal(t, &wire.BlockSource{Type: "base64", MediaType: "image/png", Data: base64.StdEncoding.EncodeToString([]byte(pngBytes))}, got.Block.Source)
	assert.Equal(t, wire.FileInfo{Name: "chart.png", MediaType: "image/png", Size: int64(len(pngBytes))}, got.File.FileInfo)

	md := fileRead(backend.Upload{ID: "f2", Name: "notes.md", MediaType: "text/plain"}, 5, dataURL("text/plain", "# Hi\n"), nil)
	require.NoError(t, md.Err)
	assert.Equal(t, "document", md.Block.Type)
	assert.Equal(t, "text/markdown", md.Block.Source.MediaType)

	refused := func(name, mediaType, url string, err error) string {
		var ce *backend.CommandError
		out := fileRead(backend.Upload{ID: "x", Name: name, MediaType: mediaType}, 3, url, err)
		require.ErrorAs(t, out.Err, &ce)
		assert.Nil(t, out.Block)
		return ce.Type
	}
	assert.Equal(t, "type_mismatch", refused("photo.png", "image/png", dataURL("image/png", "not a png"), nil))
	assert.Equal(t, "empty_file", refused("empty.txt", "text/plain", "data:text/plain;base64,", nil))
	assert.Equal(t, "unsupported_type", refused("tool.exe", "application/x-msdownload", dataURL("application/x-msdownload", "MZ"), nil))
	assert.Equal(t, "incomplete", refused("chart.png", "image/png", "", assert.AnError))
}

// Edit, regenerate and a version chosen change the conversation the page
// keeps; an edit and a regenerate then run, with what each protocol
// expects; the outcome names the command.
func TestEditRegenerateAndVersions(t *testing.T) {
	f := newFake(t, AISDK{Path: "/api/chat"})
	f.send(t, "first")
	f.apply(backend.Frames{Frames: [][]byte{
		[]byte(`{"type":"start","messageId":"a1"}`), []byte(`{"type":"text-start","id":"t"}`),
		[]byte(`{"type":"text-delta","id":"t","delta":"One."}`), []byte(`{"type":"text-end","id":"t"}`), []byte(`{"type":"finish"}`)}})
	require.Equal(t, state.StatusIdle, f.conv.Status())

	require.NoError(t, f.Do(backend.Regenerate{ID: "c2", MessageID: "a1"}, f.conv))
	require.Len(t, f.requests, 2)
	var body wire.UIChatRequest
	require.NoError(t, json.Unmarshal(f.requests[1].req.Body, &body))
	assert.Equal(t, "regenerate-message", body.Trigger)
	assert.Equal(t, "a1", body.MessageID)
	require.Len(t, body.Messages, 1)
	assert.Equal(t, backend.Outcome{CommandID: "c2"}, f.applied[len(f.applied)-1])

	// While it runs, nothing else: the controls said so.
	assert.Equal(t, errBusy, f.Do(backend.Edit{ID: "c3", Text: "x"}, f.conv))
	f.apply(backend.Frames{Frames: [][]byte{
		[]byte(`{"type":"start","messageId":"a2"}`), []byte(`{"type":"text-start","id":"t"}`),
		[]byte(`{"type":"text-delta","id":"t","delta":"Two."}`), []byte(`{"type":"text-end","id":"t"}`), []byte(`{"type":"finish"}`)}})

	require.Equal(t, state.StatusIdle, f.conv.Status(), "after a2")
	require.NoError(t, f.Do(backend.SelectBranch{ID: "c4", MessageID: "a1"}, f.conv))
	require.Equal(t, state.StatusIdle, f.conv.Status(), "after select")
	assert.Equal(t, backend.Outcome{CommandID: "c4"}, f.applied[len(f.applied)-1])
	assert.Len(t, f.requests, 2, "choosing a version runs nothing")

	// A version that is not there: said, nothing sent.
	require.NoError(t, f.Do(backend.SelectBranch{ID: "c6", MessageID: "gone"}, f.conv))
	assert.Equal(t, backend.Outcome{CommandID: "c6", Err: state.ErrNoSuchMessage}, f.applied[len(f.applied)-1])

	require.NoError(t, f.Do(backend.Edit{ID: "c5", ParentID: "", Text: "second"}, f.conv))
	require.Len(t, f.requests, 3)
	require.NoError(t, json.Unmarshal(f.requests[2].req.Body, &body))
	assert.Equal(t, "submit-message", body.Trigger)
	require.Len(t, body.Messages, 1)
	assert.Equal(t, "second", *body.Messages[0].Parts[0].Text)

}

// A rating's body, as docs/protocol-extensions.md#feedback gives it.
func TestFeedbackBody(t *testing.T) {
	sdk := AISDK{Path: "/api/chat"}
	s := agentStore(sdk, "chat-1")
	assert.JSONEq(t, `{"protocol":"ai-sdk","conversation_id":"chat-1","message_id":"a1","rating":"down","comment":"Wrong price."}`,
		string(feedbackBody(sdk, s, backend.Rate{MessageID: "a1", Rating: "down", Comment: "Wrong price."})))
	agui := AGUI{Path: "/a"}
	s = agentStore(agui, "thread-1")
	assert.JSONEq(t, `{"protocol":"ag-ui","conversation_id":"thread-1","message_id":"m1","rating":null}`,
		string(feedbackBody(agui, s, backend.Rate{MessageID: "m1"})))

	// Kept only when the endpoint took it.
	f := newFake(t, sdk)
	f.rated(backend.Rate{ID: "c1", MessageID: "a1", Rating: "up"}, 500, nil)
	assert.Equal(t, &backend.CommandError{Type: "feedback_refused", Message: "HTTP 500"}, f.applied[len(f.applied)-1].(backend.Outcome).Err)
	f.rated(backend.Rate{ID: "c2", MessageID: "a1", Rating: "up"}, 204, nil)
	assert.Equal(t, backend.Outcome{CommandID: "c2"}, f.applied[len(f.applied)-1])
	assert.Equal(t, backend.Happened{Event: state.Rated{MessageID: "a1", Rating: "up"}}, f.applied[len(f.applied)-2])
}

// An AG-UI run that failed before any message of its answer: regenerate
// (no message id) runs again from the user's message.
func TestAGUIRegenerateFromAnErrorWithoutAnswer(t *testing.T) {
	f := newFake(t, AGUI{Path: "/agent"})
	f.send(t, "flaky")
	require.Len(t, f.requests, 1)
	var first wire.RunAgentInput
	require.NoError(t, json.Unmarshal(f.requests[0].req.Body, &first))
	f.apply(backend.Frames{Frames: [][]byte{
		[]byte(`{"type":"RUN_STARTED","threadId":"` + first.ThreadID + `","runId":"` + first.RunID + `"}`),
		[]byte(`{"type":"RUN_ERROR","message":"The model is overloaded."}`)}})
	f.apply(backend.StreamClosed{})
	require.Equal(t, state.StatusError, f.conv.Status())

	require.NoError(t, f.Do(backend.Regenerate{ID: "c2"}, f.conv))
	assert.Equal(t, backend.Outcome{CommandID: "c2"}, f.applied[len(f.applied)-1])
	require.Len(t, f.requests, 2)
	var again wire.RunAgentInput
	require.NoError(t, json.Unmarshal(f.requests[1].req.Body, &again))
	assert.Equal(t, first.ThreadID, again.ThreadID)
	assert.NotEqual(t, first.RunID, again.RunID)
	assert.Equal(t, first.Messages, again.Messages)
}
