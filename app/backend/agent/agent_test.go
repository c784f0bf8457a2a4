package agent

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/app/backend"
	"stepwise/state"
	"stepwise/state/wire"
)

func agentStore(p Protocol, id string) *state.Store {
	o := state.DefaultOptions()
	n := 0
	o.NewID = func() string { n++; return "id" + strconv.Itoa(n) }
	o.Kept = p.Kept()
	s := state.New(o)
	ev, _ := p.Restore(nil, id)
	s.ApplyLocal(ev)
	return s
}

func TestRequests(t *testing.T) {
	sdk := AISDK{Path: "/api/chat"}
	s := agentStore(sdk, "chat-1")
	_, ok := sdk.Run(s)
	assert.False(t, ok, "nothing was sent")
	s.ApplyLocal(state.UserSent{Text: "hello"})
	req, ok := sdk.Run(s)
	require.True(t, ok)
	assert.Equal(t, "POST", req.Method)
	assert.Equal(t, "/api/chat", req.URL)
	var body wire.UIChatRequest
	require.NoError(t, json.Unmarshal(req.Body, &body))
	assert.Equal(t, "chat-1", body.ID)
	assert.Equal(t, "submit-message", body.Trigger)
	require.Len(t, body.Messages, 1)
	assert.Equal(t, Request{Method: "GET", URL: "/api/chat/chat%201/stream"}, sdk.resume("chat 1"))

	agui := AGUI{Path: "/api/agent"}
	s = agentStore(agui, "thread-1")
	s.ApplyLocal(state.UserSent{Text: "hi"})
	req, ok = agui.Run(s)
	require.True(t, ok)
	assert.Equal(t, "/api/agent", req.URL)
	var in wire.RunAgentInput
	require.NoError(t, json.Unmarshal(req.Body, &in))
	assert.Equal(t, "thread-1", in.ThreadID)
	assert.Equal(t, state.AGUIClientTools, in.Tools, "Stepwise's own tools are offered")
	_, ok = agui.Resume(s)
	assert.False(t, ok, "AG-UI gives no run's stream back")
}

func TestSavedConversationRoundTrip(t *testing.T) {
	sdk := AISDK{Path: "/api/chat"}
	s := agentStore(sdk, "chat-1")
	s.ApplyLocal(state.UserSent{Text: "  What is   the weather in Hanoi today, and tomorrow, and the day after that, please?  "})
	s.ApplyJSON([]byte(`{"type":"start","messageId":"m1"}`))
	s.ApplyJSON([]byte(`{"type":"text-start","id":"t"}`))
	s.ApplyJSON([]byte(`{"type":"text-delta","id":"t","delta":"Sunny"}`))
	rec := save(sdk, s, "chat-1", time.UnixMilli(1234))
	assert.Equal(t, "chat-1", rec.ID)
	assert.Equal(t, "ai-sdk", rec.Protocol)
	assert.Equal(t, int64(1234), rec.Updated)
	assert.Equal(t, "What is the weather in Hanoi today, and tomorrow, and the day after that, pleas…", rec.Title)
	require.NotNil(t, rec.UI)
	assert.Nil(t, rec.AGUI)
	raw, err := json.Marshal(rec)
	require.NoError(t, err)
	var back Saved
	require.NoError(t, json.Unmarshal(raw, &back))
	ev, resume := sdk.Restore(&back, "chat-1")
	assert.True(t, resume, "it was streaming: ask the route for the stream")
	r := agentStore(sdk, "other")
	r.ApplyLocal(ev)
	assert.Equal(t, "Sunny", r.Items()[1].Text)

	list := []Saved{{ID: "a", Updated: 1}, {ID: "b", Updated: 3}, {ID: "c", Updated: 2}}
	SortNewestFirst(list)
	assert.Equal(t, "b", list[0].ID)
	assert.Equal(t, "a", list[2].ID)
}

// fakeStream is a request the test answers.
type fakeStream struct {
	req     Request
	ev      events
	stopped bool
}

func (f *fakeStream) Stop() { f.stopped = true }

// fakeBackend is a backend whose requests the test answers, and whose
// events it applies as the page would (resolving backend.Of in its update).
type fakeBackend struct {
	*Backend
	conv     *state.Store
	requests []*fakeStream
	applied  []backend.Event
}

func newFake(t *testing.T, p Protocol) *fakeBackend {
	f := &fakeBackend{}
	f.Backend = New(Config{SessionID: "s1", Protocol: p, Store: state.DefaultOptions()})
	f.conv = agentStore(p, "s1")
	f.start = func(req Request, silence time.Duration, ev events) stream {
		s := &fakeStream{req: req, ev: ev}
		f.requests = append(f.requests, s)
		return s
	}
	f.deliver = f.apply
	return f
}

// apply is the page's update, as far as the backend sees it.
func (f *fakeBackend) apply(ev backend.Event) {
	if of, ok := ev.(backend.Of); ok {
		for _, e := range of.Events(f.conv) {
			f.apply(e)
		}
		return
	}
	switch e := ev.(type) {
	case backend.Loaded:
		f.conv = e.Store
	case backend.Frames:
		for _, fr := range e.Frames {
			f.conv.ApplyJSON(fr)
		}
	case backend.Happened:
		f.conv.ApplyLocal(e.Event)
	}
	f.applied = append(f.applied, ev)
}

func (f *fakeBackend) send(t *testing.T, text string) *fakeStream {
	t.Helper()
	_, err := f.conv.ApplyLocal(state.UserSent{Text: text})
	require.NoError(t, err)
	require.NoError(t, f.Do(backend.Send{ID: "c1", Text: text}, f.conv))
	return f.requests[len(f.requests)-1]
}

// A stopped stream's events are dropped, even those read before the stop.
func TestStoppedStreamDeliversNothing(t *testing.T) {
	f := newFake(t, AGUI{Path: "/a"})
	st := f.send(t, "go")
	st.ev.frames([][]byte{[]byte(`{"type":"RUN_STARTED","threadId":"s1","runId":"r"}`)})
	require.Len(t, f.applied, 1)
	require.NoError(t, f.Do(backend.Stop{ID: "c2"}, f.conv))
	assert.True(t, st.stopped)
	st.ev.frames([][]byte{[]byte(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`)})
	st.ev.end(nil)
	assert.Len(t, f.applied, 1, "nothing after the stop")
}

// A new message lets a stream that lingers after its run go.
func TestNewRunLetsTheLastStreamGo(t *testing.T) {
	f := newFake(t, AGUI{Path: "/a"})
	first := f.send(t, "one")
	f.apply(backend.Frames{Frames: [][]byte{[]byte(`{"type":"RUN_FINISHED","threadId":"s1","runId":"r"}`)}})
	second := f.send(t, "two")
	assert.True(t, first.stopped)
	assert.False(t, second.stopped)
	first.ev.end(nil)
	assert.Len(t, f.applied, 1, "the first stream's end is not the second run's")
}

// An AI SDK stream that breaks mid-run is asked for again; a resume that
// brings nothing ends the run with a notice. AG-UI's ends at once.
func TestBrokenStreamIsResumedWhereItCanBe(t *testing.T) {
	f := newFake(t, AISDK{Path: "/api/chat"})
	st := f.send(t, "go")
	st.ev.end(assert.AnError)
	require.Len(t, f.requests, 2)
	assert.Equal(t, Request{Method: "GET", URL: "/api/chat/s1/stream"}, f.requests[1].req)
	assert.Equal(t, []backend.Event{backend.Connection{State: backend.Reconnecting}}, f.applied)
	f.requests[1].ev.none()
	assert.Equal(t, state.StatusError, f.conv.Status(), "the run ended with a notice")
	assert.Equal(t, backend.StreamClosed{}, f.applied[len(f.applied)-1])

	g := newFake(t, AGUI{Path: "/a"})
	st = g.send(t, "go")
	st.ev.end(assert.AnError)
	assert.Len(t, g.requests, 1)
	assert.Equal(t, []backend.Event{backend.Happened{Event: state.StreamEnded{Detail: assert.AnError.Error()}}, backend.Connection{State: backend.Open}, backend.StreamClosed{}}, g.applied)
}

// A stream that ends while its run still runs ends the run with a notice;
// one whose run finished just closes.
func TestStreamEnd(t *testing.T) {
	f := newFake(t, AGUI{Path: "/a"})
	st := f.send(t, "go")
	st.ev.end(nil)
	assert.Equal(t, backend.Happened{Event: state.StreamEnded{}}, f.applied[0])

	g := newFake(t, AGUI{Path: "/a"})
	st = g.send(t, "go")
	st.ev.frames([][]byte{[]byte(`{"type":"RUN_STARTED","threadId":"s1","runId":"r"}`), []byte(`{"type":"RUN_FINISHED","threadId":"s1","runId":"r"}`)})
	st.ev.end(nil)
	assert.Equal(t, []backend.Event{g.applied[0], backend.Connection{State: backend.Open}, backend.StreamClosed{}}, g.applied)
}

// A message whose request would be over the backend's limit is refused:
// the request carries the conversation.
func TestCheckMeasuresTheConversation(t *testing.T) {
	b := New(Config{SessionID: "s", Protocol: AGUI{Path: "/a"}, MaxRequest: 1000})
	s := agentStore(AGUI{}, "s")
	assert.NoError(t, b.Check(s, "short", nil))
	var tooLarge *backend.TooLargeError
	require.ErrorAs(t, b.Check(s, string(make([]byte, 600)), nil), &tooLarge)
	assert.True(t, tooLarge.Conversation)
	assert.Equal(t, 1000, tooLarge.Limit)
	// The message's files go inline: their bytes count.
	file := state.InlineBlock(wire.FileInfo{Name: "a.txt", MediaType: "text/plain"}, strings.Repeat("QUJD", 150))
	require.ErrorAs(t, b.Check(s, "short", []wire.ContentBlock{file}), &tooLarge)
	assert.False(t, tooLarge.Conversation, "the message's files make it too large")
}
