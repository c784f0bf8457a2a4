package state

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

const pngData = "iVBORw0KGgo=" // 8 bytes

func pngBlock() wire.ContentBlock {
	return InlineBlock(wire.FileInfo{Name: "chart.png", MediaType: "image/png", Size: 8}, pngData)
}

func uiAnswer(id, text string) []string {
	return []string{`{"type":"start","messageId":"` + id + `"}`, `{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"` + text + `"}`, `{"type":"text-end","id":"t"}`, `{"type":"finish"}`}
}

// refs are the message refs on the items, in order.
func refs(s *Store) []MessageRef {
	var out []MessageRef
	for _, it := range s.Items() {
		if it.Message != nil {
			out = append(out, *it.Message)
		}
	}
	return out
}

func TestAISDKFilesEditRegenerateAndVersions(t *testing.T) {
	s := keptStore(KeptAsAISDK)
	_, err := s.ApplyLocal(UserSent{Text: "What is this?", Files: []wire.ContentBlock{pngBlock()}})
	require.NoError(t, err)
	req, ok := s.NextUIChatRequest()
	require.True(t, ok)
	// The file part as useChat sends it: files first, then the text.
	assert.JSONEq(t, `[{"type":"file","mediaType":"image/png","filename":"chart.png","url":"data:image/png;base64,`+pngData+`"},{"type":"text","text":"What is this?"}]`, mustMarshal(t, req.Messages[0].Parts))
	user := s.Items()[0]
	require.Len(t, user.Attachments, 1)
	assert.Equal(t, Attachment{Name: "chart.png", MediaType: "image/png", Size: 8, Image: true, Src: "data:image/png;base64," + pngData}, user.Attachments[0])
	applyTo(s, uiAnswer("a1", "A chart.")...)
	assert.Equal(t, []MessageRef{
		{ID: "id2", Role: "user", Index: 1, Count: 1},
		{ID: "a1", Role: "assistant", ParentID: "id2", Index: 1, Count: 1},
	}, refs(s))

	// Regenerate: the SDK's trigger, the messages before the answer.
	_, err = s.ApplyLocal(Regenerated{MessageID: "a1"})
	require.NoError(t, err)
	req, _ = s.NextUIChatRequest()
	assert.Equal(t, "regenerate-message", req.Trigger)
	assert.Equal(t, "a1", req.MessageID)
	require.Len(t, req.Messages, 1)
	assert.Equal(t, StatusRunning, s.Status())
	applyTo(s, uiAnswer("a2", "A bar chart.")...)
	r := refs(s)
	require.Len(t, r, 2)
	assert.Equal(t, MessageRef{ID: "a2", Role: "assistant", ParentID: "id2", Index: 2, Count: 2, Siblings: []string{"a1", "a2"}}, r[1])

	// Rated, then back to the first version: its text, its files kept.
	_, err = s.ApplyLocal(Rated{MessageID: "a2", Rating: "up", Comment: "good"})
	require.NoError(t, err)
	_, err = s.ApplyLocal(BranchChosen{MessageID: "a1"})
	require.NoError(t, err)
	assert.Equal(t, "A chart.", s.Items()[len(s.Items())-1].Text)
	assert.Len(t, s.Items()[0].Attachments, 1)
	assert.Equal(t, 1, refs(s)[1].Index)

	// An edit: a new version of the user message, with its files; the
	// answers below it are put away with the old one.
	_, err = s.ApplyLocal(Edited{ParentID: "", Text: "And this?"})
	require.NoError(t, err)
	req, _ = s.NextUIChatRequest()
	assert.Equal(t, "submit-message", req.Trigger)
	require.Len(t, req.Messages, 1)
	assert.Equal(t, "file", req.Messages[0].Parts[0].Type)
	assert.Equal(t, "And this?", *req.Messages[0].Parts[1].Text)
	applyTo(s, uiAnswer("a3", "Another chart.")...)
	r = refs(s)
	assert.Equal(t, 2, r[0].Count)
	assert.Equal(t, 2, r[0].Index)

	// Kept: a reload shows the version shown, and the others come back.
	saved := s.UIConversation()
	raw, _ := json.Marshal(saved)
	var back UIConversation
	require.NoError(t, json.Unmarshal(raw, &back))
	r2 := keptStore(KeptAsAISDK)
	_, err = r2.ApplyLocal(Restored{UI: &back})
	require.NoError(t, err)
	assert.Equal(t, refs(s), refs(r2))
	assert.Len(t, r2.Items()[0].Attachments, 1)
	_, err = r2.ApplyLocal(BranchChosen{MessageID: "id2"})
	require.NoError(t, err)
	last := refs(r2)[1]
	assert.Equal(t, "a1", last.ID)
	_, err = r2.ApplyLocal(BranchChosen{MessageID: "a2"})
	require.NoError(t, err)
	last = refs(r2)[1]
	assert.Equal(t, "a2", last.ID)
	require.NotNil(t, last.Feedback)
	assert.Equal(t, wire.Feedback{Rating: "up", Comment: "good"}, *last.Feedback)

	// An edit of a message that is not there is refused, nothing changed.
	_, err = r2.ApplyLocal(Edited{ParentID: "nope", Text: "x"})
	assert.ErrorIs(t, err, ErrNoSuchMessage)
}

func TestAGUIFilesAndRegenerate(t *testing.T) {
	s := keptStore(KeptAsAGUI)
	doc := InlineBlock(wire.FileInfo{Name: "notes.txt", MediaType: "text/plain"}, "aGk=")
	_, err := s.ApplyLocal(UserSent{Text: "Read these", Files: []wire.ContentBlock{pngBlock(), doc}})
	require.NoError(t, err)
	in, ok := s.NextAGUIRun()
	require.True(t, ok)
	assert.JSONEq(t, `[{"type":"text","text":"Read these"},`+
		`{"type":"image","source":{"type":"data","value":"`+pngData+`","mimeType":"image/png"},"metadata":{"filename":"chart.png"}},`+
		`{"type":"document","source":{"type":"data","value":"aGk=","mimeType":"text/plain"},"metadata":{"filename":"notes.txt"}}]`, string(in.Messages[0].Content))
	applyTo(s, `{"type":"RUN_STARTED","threadId":"id1","runId":"id2"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Two files."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"RUN_FINISHED","threadId":"id1","runId":"id2"}`)
	require.Equal(t, StatusIdle, s.Status())
	r := refs(s)
	require.Len(t, r, 2)
	assert.Equal(t, "m1", r[1].ID)
	assert.Len(t, s.Items()[0].Attachments, 2)

	_, err = s.ApplyLocal(Regenerated{MessageID: "m1"})
	require.NoError(t, err)
	in, _ = s.NextAGUIRun()
	require.Len(t, in.Messages, 1) // a new run with the path up to the user's message
	assert.Equal(t, "user", in.Messages[0].Role)

	// A restored conversation shows the files again.
	c := s.AGUIConversation()
	r2 := keptStore(KeptAsAGUI)
	_, err = r2.ApplyLocal(Restored{AGUI: &c})
	require.NoError(t, err)
	assert.Len(t, r2.Items()[0].Attachments, 2)
}

// An agent that names its messages by their count gives a regenerated
// answer the id of the one before: the one put away is renamed, both
// versions stay.
func TestRegeneratedAnswerWithTheSameID(t *testing.T) {
	s := keptStore(KeptAsAISDK)
	_, err := s.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	applyTo(s, uiAnswer("a1", "One.")...)
	_, err = s.ApplyLocal(Rated{MessageID: "a1", Rating: "down"})
	require.NoError(t, err)
	_, err = s.ApplyLocal(Regenerated{MessageID: "a1"})
	require.NoError(t, err)
	applyTo(s, uiAnswer("a1", "Two.")...)
	r := refs(s)
	require.Len(t, r, 2)
	assert.Equal(t, []string{"a1~1", "a1"}, r[1].Siblings)
	assert.Nil(t, r[1].Feedback, "the rating was the other version's")
	_, err = s.ApplyLocal(BranchChosen{MessageID: "a1~1"})
	require.NoError(t, err)
	assert.Equal(t, "One.", s.Items()[len(s.Items())-1].Text)
	r = refs(s)
	assert.Equal(t, 1, r[1].Index)
	require.NotNil(t, r[1].Feedback)
}

// An AI SDK answer is whole at its finish chunk: it gets its actions (copy,
// regenerate), as an AG-UI answer at RUN_FINISHED.
func TestAISDKAnswerIsFinalAtFinish(t *testing.T) {
	s := keptStore(KeptAsAISDK)
	_, err := s.ApplyLocal(UserSent{Text: "hi"})
	require.NoError(t, err)
	applyTo(s, uiAnswer("a1", "One.")...)
	items := s.Items()
	assert.True(t, items[len(items)-1].Answer)
}

// A conversation shown again (a reload, another version) has its last
// answer whole: its copy button and actions.
func TestRestoredAnswerIsWhole(t *testing.T) {
	for _, kept := range []Kept{KeptAsAGUI, KeptAsAISDK} {
		s := keptStore(kept)
		_, err := s.ApplyLocal(UserSent{Text: "hi"})
		require.NoError(t, err)
		if kept == KeptAsAGUI {
			applyTo(s, `{"type":"RUN_STARTED","threadId":"id1","runId":"id2"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
				`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"One."}`, `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, `{"type":"RUN_FINISHED","threadId":"id1","runId":"id2"}`)
		} else {
			applyTo(s, uiAnswer("m1", "One.")...)
		}
		r := keptStore(kept)
		ev := Restored{}
		if kept == KeptAsAGUI {
			c := s.AGUIConversation()
			ev.AGUI = &c
		} else {
			c := s.UIConversation()
			ev.UI = &c
		}
		_, err = r.ApplyLocal(ev)
		require.NoError(t, err)
		items := r.Items()
		last := items[len(items)-1]
		assert.True(t, last.Answer, "kept %d", kept)
		require.NotNil(t, last.Message)
		assert.Equal(t, "m1", last.Message.ID)
	}
}

// Choosing a version writes its messages over the path's whole: nothing
// of the version put away (its tool calls) stays in the one shown.
func TestChosenVersionKeepsNothingOfTheOther(t *testing.T) {
	s := keptStore(KeptAsAGUI)
	_, err := s.ApplyLocal(UserSent{Text: "Weather?"})
	require.NoError(t, err)
	_, _ = s.NextAGUIRun()
	applyTo(s, `{"type":"RUN_STARTED","threadId":"id1","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Looking."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"weather","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"RUN_FINISHED","threadId":"id1","runId":"r1"}`)
	require.Len(t, s.AGUIConversation().Messages[1].ToolCalls, 1)
	_, err = s.ApplyLocal(Regenerated{MessageID: "m1"})
	require.NoError(t, err)
	_, _ = s.NextAGUIRun()
	applyTo(s, `{"type":"RUN_STARTED","threadId":"id1","runId":"r2"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"Sunny."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m2"}`,
		`{"type":"RUN_FINISHED","threadId":"id1","runId":"r2"}`)
	_, err = s.ApplyLocal(BranchChosen{MessageID: "m1"})
	require.NoError(t, err)
	require.Len(t, s.AGUIConversation().Messages[1].ToolCalls, 1)
	_, err = s.ApplyLocal(BranchChosen{MessageID: "m2"})
	require.NoError(t, err)
	c := s.AGUIConversation()
	require.Len(t, c.Messages, 2)
	assert.Equal(t, "m2", c.Messages[1].ID)
	assert.Empty(t, c.Messages[1].ToolCalls, "m1's tool calls")
}

// An AG-UI run that fails before any message of its answer can be
// answered again: its error carries the ref of no message, and
// regenerating it replaces the error with a new run from the user's
// message.
func TestAGUIRegenerateFromAnErrorWithoutAnswer(t *testing.T) {
	s := keptStore(KeptAsAGUI)
	_, err := s.ApplyLocal(UserSent{Text: "Hi"})
	require.NoError(t, err)
	first, ok := s.NextAGUIRun()
	require.True(t, ok)
	applyTo(s, `{"type":"RUN_STARTED","threadId":"`+first.ThreadID+`","runId":"`+first.RunID+`"}`,
		`{"type":"RUN_ERROR","message":"The model is overloaded."}`)
	items := s.Items()
	last := items[len(items)-1]
	require.Equal(t, KindError, last.Kind)
	require.NotNil(t, last.Message, "the error offers the way out")
	assert.Equal(t, MessageRef{Role: "assistant", ParentID: first.Messages[0].ID, Index: 1, Count: 1}, *last.Message)
	require.Len(t, s.AGUIConversation().Notes, 1)

	_, err = s.ApplyLocal(Regenerated{})
	require.NoError(t, err)
	again, ok := s.NextAGUIRun()
	require.True(t, ok)
	assert.Equal(t, first.ThreadID, again.ThreadID)
	assert.NotEqual(t, first.RunID, again.RunID)
	require.Len(t, again.Messages, 1, "the path up to the user's message, nothing of the error")
	assert.Equal(t, first.Messages[0].ID, again.Messages[0].ID)
	assert.Empty(t, s.AGUIConversation().Notes, "the new answer replaces the error")
	assert.Equal(t, StatusRunning, s.Status())
	for _, it := range s.Items() {
		assert.NotEqual(t, KindError, it.Kind)
	}

	applyTo(s, `{"type":"RUN_STARTED","threadId":"`+again.ThreadID+`","runId":"`+again.RunID+`"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"RUN_FINISHED","threadId":"`+again.ThreadID+`","runId":"`+again.RunID+`"}`)
	r := refs(s)
	require.Len(t, r, 2)
	assert.Equal(t, "m1", r[1].ID)
	assert.Equal(t, 1, r[1].Count, "an error of no message is no version")

	// Once answered, there is nothing to answer again without an id.
	_, err = s.ApplyLocal(Regenerated{})
	assert.ErrorIs(t, err, ErrNoSuchMessage)
}

// The AI SDK's errors come inside a started message: no ref without an id.
func TestAISDKRegenerateWithoutIDIsRefused(t *testing.T) {
	s := keptStore(KeptAsAISDK)
	_, err := s.ApplyLocal(UserSent{Text: "Hi"})
	require.NoError(t, err)
	_, err = s.ApplyLocal(Regenerated{})
	assert.ErrorIs(t, err, ErrNoSuchMessage)
}

// A run stopped before any message of its answer is answered again the
// same way: the stop goes, a new run from the user's message.
func TestAGUIRegenerateAfterAStopWithoutAnswer(t *testing.T) {
	s := keptStore(KeptAsAGUI)
	_, err := s.ApplyLocal(UserSent{Text: "Hi"})
	require.NoError(t, err)
	first, _ := s.NextAGUIRun()
	applyTo(s, `{"type":"RUN_STARTED","threadId":"`+first.ThreadID+`","runId":"`+first.RunID+`"}`)
	_, err = s.ApplyLocal(RunStopped{})
	require.NoError(t, err)
	items := s.Items()
	last := items[len(items)-1]
	require.Equal(t, KindStopped, last.Kind)
	require.NotNil(t, last.Message)
	assert.Empty(t, last.Message.ID)

	_, err = s.ApplyLocal(Regenerated{})
	require.NoError(t, err)
	again, ok := s.NextAGUIRun()
	require.True(t, ok)
	assert.Equal(t, first.Messages, again.Messages)
	for _, it := range s.Items() {
		assert.NotEqual(t, KindStopped, it.Kind)
	}
}
