package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

// The fixes of issue 42, each shown on a stream recorded by an upstream
// project's own tests (testdata/upstream, sources in its READMEs), or, where
// none records the case, a minimal hand-made stream named as such.

// replayUpstream applies a fixture of testdata/upstream as replay does.
func replayUpstream(t *testing.T, rel string) *Store {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata/upstream", rel))
	require.NoError(t, err)
	defer f.Close()
	s := New(DefaultOptions())
	require.NoError(t, wire.ReadCapture(f, func(frame []byte) { s.ApplyJSON(frame) }))
	return s
}

// A forwarded tool runner loop: the tool_use message, then the answer the
// model gave once the client had run the tool. The tool ran: done, its
// result never in the stream.
func TestForwardedAgentLoopToolsRan(t *testing.T) {
	for _, rel := range []string{
		"anthropic-sdk-python/tool-runner-loop-a.sse",
		"anthropic-sdk-python/tool-runner-loop-b.sse",
		"anthropic-sdk-go/tool-runner-streaming-all.sse",
	} {
		t.Run(rel, func(t *testing.T) {
			s := replayUpstream(t, rel)
			assert.Equal(t, StatusIdle, s.Status())
			n := 0
			for _, it := range s.Items() {
				if it.Kind == KindTool {
					n++
					assert.Equal(t, ToolDone, it.Tool.Status, it.Tool.Name)
					assert.Nil(t, it.Tool.Result, "the result went to the model, not to the stream")
				}
			}
			assert.Positive(t, n)
		})
	}
	// A message that stopped for tool_use with no message after it: the
	// client is running the tool.
	s := replayUpstream(t, "anthropic-sdk-python/tool_use_response.sse")
	assert.Equal(t, StatusRunning, s.Status())
	assert.Equal(t, ToolActive, s.Items()[1].Tool.Status)
}

// Programmatic tool calling: the client tool calls that code execution
// makes come one message each, inside message_start's content (14 rollDie
// calls in the recorded stream); each ran, and the turn ends as usual.
func TestProgrammaticToolCallsInMessageStart(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/anthropic-programmatic-tool-calling.1.chunks.txt")
	var rolls []*Item
	for _, it := range s.Items() {
		if it.Kind == KindTool && it.Tool.Name == "rollDie" {
			rolls = append(rolls, it)
		}
	}
	require.Len(t, rolls, 14)
	for _, it := range rolls {
		assert.Equal(t, ToolDone, it.Tool.Status)
		assert.Contains(t, string(it.Tool.Input), `"player"`)
	}
	assert.Equal(t, ToolDone, s.Tool("srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK").Tool.Status)
	assert.Equal(t, StatusIdle, s.Status())
}

// A fallback block (one model handing the answer over to another) is a
// notice naming the model that answered, not an unknown block.
func TestFallbackBlockNamesTheModelThatAnswered(t *testing.T) {
	for rel, model := range map[string]string{
		"anthropic-sdk-python/fallback_response.sse":        "claude-sonnet-4-5",
		"vercel-ai/anthropic/anthropic-fallback.chunks.txt": "claude-opus-4-8",
	} {
		s := replayUpstream(t, rel)
		require.GreaterOrEqual(t, len(s.Items()), 2, rel)
		n := s.Items()[0]
		require.Equal(t, KindNotice, n.Kind, rel)
		assert.Equal(t, NoticeFallback, n.Notice.Reason)
		assert.Equal(t, model, n.Notice.Detail)
		assert.Equal(t, KindText, s.Items()[1].Kind, "the answer follows")
	}
}

// Item 10 of issue 42, the four small ones.
func TestRepeatedMessageStartCountsUsageOnce(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/duplicate-message-start.chunks.txt")
	u, ok := s.Usage()
	require.True(t, ok)
	assert.Equal(t, Usage{InputTokens: 17, OutputTokens: 227}, u)
	require.Len(t, s.Items(), 1)
	assert.Equal(t, &u, s.Items()[0].Usage)
}

func TestRefusalWithEmptyTextLeavesOnlyTheNotice(t *testing.T) {
	s := replayUpstream(t, "anthropic-sdk-python/refusal_response.sse")
	require.Len(t, s.Items(), 1)
	n := s.Items()[0]
	assert.Equal(t, KindNotice, n.Kind)
	assert.Equal(t, NoticeRefusal, n.Notice.Reason)
	assert.True(t, n.Brand, "the notice is the turn's first item now")
	assert.NotNil(t, n.Usage, "and its last: the usage line stays")
}

func TestRunFinishedAfterRunErrorKeepsTheError(t *testing.T) {
	s := replayUpstream(t, "ag-ui/dart-error-handling.jsonl")
	assert.Equal(t, StatusError, s.Status())
	last := s.Items()[len(s.Items())-1]
	assert.Equal(t, KindError, last.Kind)
	assert.Equal(t, "Connection timeout", last.Text)
	assert.Zero(t, s.SkippedCount())
}

func TestAdvisorRedactedResultNotShown(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/anthropic-advisor-stop-reasons.chunks.txt")
	plain, redacted := s.Tool("srvtoolu_advisor_plaintext").Tool, s.Tool("srvtoolu_advisor_redacted").Tool
	assert.Equal(t, "Partial plaintext advice.", *plain.Result)
	assert.False(t, plain.Encrypted)
	assert.Equal(t, ToolDone, redacted.Status)
	assert.True(t, redacted.Encrypted)
	assert.Equal(t, EncryptedResult, *redacted.Result)
	assert.NotContains(t, *redacted.Result, "opaque-encrypted-advice")
}

// AI SDK: message metadata after finish (the SDK's own test stream) merges
// into the message that finished; the run stays over, with no new message.
func TestUIChunkAfterFinishBelongsToTheFinishedMessage(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/ui/process-message-metadata-after-finish.jsonl")
	assert.Equal(t, StatusIdle, s.Status())
	conv := s.UIConversation()
	require.Len(t, conv.Messages, 1)
	assert.Equal(t, "msg-123", conv.Messages[0].ID)
	assert.JSONEq(t, `{"key1":"value-1"}`, string(conv.Messages[0].Metadata))
	require.Len(t, s.Items(), 1)
	assert.Equal(t, "t1", s.Items()[0].Text)

	// A data part after finish, hand-made (no upstream test sends one).
	s = New(DefaultOptions())
	for _, f := range []string{
		`{"type":"start","messageId":"m1"}`, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":"hi"}`,
		`{"type":"text-end","id":"t"}`, `{"type":"finish"}`, `{"type":"data-weather","data":{"c":21}}`,
	} {
		s.ApplyJSON([]byte(f))
	}
	assert.Equal(t, StatusIdle, s.Status())
	conv = s.UIConversation()
	require.Len(t, conv.Messages, 1)
	require.Len(t, conv.Messages[0].Parts, 2)
	assert.Equal(t, "data-weather", conv.Messages[0].Parts[1].Type)
	// The next response's content starts a new message, as before.
	s.ApplyJSON([]byte(`{"type":"start","messageId":"m2"}`))
	assert.Len(t, s.UIConversation().Messages, 2)
}

// AI SDK v7 custom chunks are the AI SDK's, not unknown native events: their
// parts stay in the message sent back to the route (the SDK's own streams).
func TestUICustomChunksKept(t *testing.T) {
	for _, rel := range []string{"vercel-ai/ui/process-custom.jsonl", "vercel-ai/ui/to-ui-message-stream-custom.jsonl"} {
		s := replayUpstream(t, rel)
		assert.Zero(t, s.SkippedCount(), rel)
		var kinds []string
		for _, m := range s.UIConversation().Messages {
			for _, p := range m.Parts {
				if p.Type == "custom" {
					kinds = append(kinds, p.Kind)
				}
			}
		}
		assert.Len(t, kinds, 1, rel)
		assert.NotEmpty(t, kinds[0], rel)
	}
}

// AG-UI: a REASONING_MESSAGE_CHUNK after REASONING_MESSAGE_CONTENT of the
// same message continues it (the Dart SDK's fixture), as does a second
// REASONING_MESSAGE_START with its id (the TypeScript client's test): the
// reference client keeps one reasoning message.
func TestAGUIReasoningContinuesItsMessage(t *testing.T) {
	s := replayUpstream(t, "ag-ui/dart-reasoning-events.jsonl")
	require.Len(t, s.Items(), 1)
	g := s.Items()[0].Group
	require.Len(t, g.Steps, 1)
	assert.Equal(t, "Analyzing the request... considering options.", g.Steps[0].Text)
	assert.Zero(t, s.SkippedCount())

	s = replayUpstream(t, "ag-ui/ts-client-reasoning-start-reuses-id.jsonl")
	require.Len(t, s.Items(), 1)
	require.Len(t, s.Items()[0].Group.Steps, 1)
}

// AG-UI: text content belongs to its messageId, also when another
// message started after it (the TypeScript client's concurrency tests).
func TestAGUITextContentBelongsToItsMessage(t *testing.T) {
	s := replayUpstream(t, "ag-ui/ts-client-concurrent-text.jsonl")
	require.Equal(t, []Kind{KindText, KindText}, kindsOf(s.Items()))
	assert.Equal(t, "First message content", s.Items()[0].Text)
	assert.Equal(t, "Second message content", s.Items()[1].Text)

	s = replayUpstream(t, "ag-ui/ts-client-concurrent-text-and-tools.jsonl")
	require.Equal(t, []Kind{KindText, KindGroup, KindText}, kindsOf(s.Items()))
	assert.Equal(t, "Let me search for that information...", s.Items()[0].Text)
	assert.Equal(t, "Processing your request...", s.Items()[2].Text)
}

// AG-UI RUN_FINISHED.usage and RUN_ERROR.usage (recorded .NET runs, a
// hand-made error): the conversation's usage and the line at the turn's end.
func TestAGUIRunUsage(t *testing.T) {
	s := replayUpstream(t, "ag-ui/dotnet-thinking-turn1.jsonl")
	u, ok := s.Usage()
	require.True(t, ok)
	want := Usage{InputTokens: 39, OutputTokens: 345, ReasoningTokens: 128, TotalTokens: 384, Models: []string{"gpt-5-mini"}}
	assert.Equal(t, want, u)
	last := s.Items()[len(s.Items())-1]
	require.NotNil(t, last.Usage)
	assert.Equal(t, want, *last.Usage)

	s = New(DefaultOptions())
	for _, f := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"Half"}`,
		`{"type":"RUN_ERROR","message":"quota","usage":[{"provider":"openai","model":"gpt-5","inputTokens":10,"outputTokens":2},{"provider":"anthropic","model":"claude","inputTokens":5,"outputTokens":1,"cachedInputTokens":4}]}`,
	} {
		s.ApplyJSON([]byte(f))
	}
	u, ok = s.Usage()
	require.True(t, ok)
	assert.Equal(t, Usage{InputTokens: 15, OutputTokens: 3, CacheReadInputTokens: 4, Models: []string{"openai/gpt-5", "anthropic/claude"}}, u)
	last = s.Items()[len(s.Items())-1]
	assert.Equal(t, KindError, last.Kind)
	require.NotNil(t, last.Usage, "a failed run shows what it used too")
}

// replayHandmade applies a fixture of testdata/handmade.
func replayHandmade(t *testing.T, name string) *Store {
	t.Helper()
	return replayUpstream(t, "../handmade/"+name)
}

// LangGraph with emitInterruptOutcome on and the legacy on_interrupt event
// left on sends each interrupt twice: one card, answered under both ids
// (hand-made streams, shaped as the integration emits them).
func TestLangGraphInterruptOnBothChannelsIsOneCard(t *testing.T) {
	s := replayHandmade(t, "langgraph-interrupt-both-channels.jsonl")
	var cards []*Item
	for _, it := range s.Items() {
		for _, x := range append([]*Item{it}, stepsOf(it)...) {
			if x.Approval != nil || x.Form != nil || x.Question != nil || x.Kind == KindNotice {
				cards = append(cards, x)
			}
		}
	}
	require.Len(t, cards, 1)
	require.NotNil(t, cards[0].Approval)
	assert.Equal(t, "run-1", cards[0].Approval.ApprovalKey)
	ready, err := s.answerCard("run-1", CardAnswer{Decisions: []wire.Decision{{Type: "approve"}}})
	require.NoError(t, err)
	assert.True(t, ready)
	in := s.aguiRunInput("")
	require.Len(t, in.Resume, 1)
	assert.Equal(t, "4f1c2a9e-int-1", in.Resume[0].InterruptID)
	assert.Equal(t, "resolved", in.Resume[0].Status)
	assert.JSONEq(t, `{"decisions":[{"type":"approve"}]}`, string(in.Resume[0].Payload))
	assert.JSONEq(t, `{"command":{"resume":{"decisions":[{"type":"approve"}]}}}`, string(in.ForwardedProps))

	s = replayHandmade(t, "langgraph-interrupt-both-channels-question.jsonl")
	require.Equal(t, []Kind{KindForm, KindForm}, kindsOf(s.Items()))
	assert.Equal(t, "Which city should I book?", s.Items()[0].Form.Text)
	assert.JSONEq(t, `{"kind":"pick_date","options":["Mon","Tue"]}`, s.Items()[1].Form.Text, "the object, not its JSON-encoded string")
}

func stepsOf(it *Item) []*Item {
	if it.Group == nil {
		return nil
	}
	return it.Group.Steps
}

// A refusal's stop_details.category is kept for the UI to word (vercel/ai's
// recorded refusal); context management edits are a notice before the
// message they made room for, and a container upload a notice naming the
// file (hand-made, shaped after the SDK types and vercel/ai's test).
func TestRefusalCategoryContextEditsAndUpload(t *testing.T) {
	s := replayUpstream(t, "vercel-ai/anthropic/anthropic-refusal.chunks.txt")
	n := s.Items()[len(s.Items())-1]
	require.Equal(t, KindNotice, n.Kind)
	assert.Equal(t, "cyber", n.Notice.Category)
	assert.Contains(t, n.Notice.Detail, "violative cyber content")

	s = replayHandmade(t, "anthropic-context-cleared-and-upload.jsonl")
	items := s.Items()
	require.Equal(t, []Kind{KindNotice, KindNotice, KindText}, kindsOf(items))
	assert.Equal(t, NoticeContextCleared, items[0].Notice.Reason)
	assert.Equal(t, "clear_tool_uses_20250919", items[0].Notice.Detail)
	assert.True(t, items[0].Brand, "the brand header stays on top")
	assert.False(t, items[1].Brand)
	assert.Equal(t, NoticeContainerUpload, items[1].Notice.Reason)
	assert.Equal(t, "file_011CNha8iCJcU1wXNR6q4V8w", items[1].Notice.Detail)
	assert.NotNil(t, items[2].Usage)
}

// AI SDK v7 isAutomatic approvals (the SDK's own toUIMessageStream
// output): the route's policy decides, so the card never waits for the
// user, shows the decision as the policy's, and the part keeps the flag.
func TestUIAutomaticApproval(t *testing.T) {
	for rel, want := range map[string]ApprovalState{
		"vercel-ai/ui/to-ui-message-stream-automatically-approved.jsonl": ApprovalApproved,
		"vercel-ai/ui/to-ui-message-stream-automatically-rejected.jsonl": ApprovalRejected,
		"vercel-ai/ui/process-automatic-approval-denied.jsonl":           ApprovalRejected,
	} {
		f, err := os.Open(filepath.Join("testdata/upstream", rel))
		require.NoError(t, err)
		s := New(DefaultOptions())
		require.NoError(t, wire.ReadCapture(f, func(frame []byte) {
			s.ApplyJSON(frame)
			assert.Nil(t, s.Pending(), "nothing waits for the user")
		}))
		f.Close()
		card := s.Approval("id-1")
		require.NotNil(t, card, rel)
		assert.True(t, card.Approval.Automatic, rel)
		assert.Equal(t, want, card.Approval.State, rel)
		found := false
		for _, m := range s.UIConversation().Messages {
			for _, p := range m.Parts {
				if p.Approval != nil && p.Approval.ID == "id-1" {
					found = true
					assert.True(t, p.Approval.IsAutomatic, rel)
				}
			}
		}
		assert.True(t, found, rel)
	}
}
