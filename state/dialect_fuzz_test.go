package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"stepwise/state/wire"
)

// checkDialectInvariants adds what the AG-UI and AI SDK modes promise to
// checkInvariants: the conversations marshal and restore without panic, and
// a restored store is itself consistent.
func checkDialectInvariants(t *testing.T, s *Store) {
	t.Helper()
	checkInvariants(t, s)
	for _, p := range s.pending {
		if p.Form != nil && p.Form.State != QuestionPending {
			t.Fatalf("resolved form %d is still pending", p.Key)
		}
	}
	ag := s.AGUIConversation()
	if _, err := json.Marshal(ag); err != nil {
		t.Fatalf("AG-UI conversation does not marshal: %v", err)
	}
	ui := s.UIConversation()
	if _, err := json.Marshal(ui); err != nil {
		t.Fatalf("AI SDK conversation does not marshal: %v", err)
	}
	r := New(s.opts)
	r.restoreAGUI(ag)
	checkInvariants(t, r)
	r = New(s.opts)
	r.restoreUI(ui)
	checkInvariants(t, r)
	r.beginUIResume()
	checkInvariants(t, r)
}

// transcriptSeeds are the public AG-UI and AI SDK transcripts, one frame a
// line.
func transcriptSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../server/replay/testdata/backends/*")
	var out [][]byte
	for _, f := range files {
		if filepath.Ext(f) == ".json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		wire.ReadCapture(bytes.NewReader(data), func(frame []byte) {
			b.Write(frame)
			b.WriteByte('\n')
		})
		out = append(out, b.Bytes())
	}
	if len(out) == 0 {
		t.Fatal("no transcripts")
	}
	return out
}

// FuzzDialectJSONL applies raw lines, seeded with the transcripts.
func FuzzDialectJSONL(f *testing.F) {
	for _, s := range transcriptSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte(`{"type":"CUSTOM","name":"on_interrupt","value":"{\"action_requests\":[{\"name\":\"x\"}]}"}` + "\n" + `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"x","arguments":"{"}}]}]}`))
	f.Add([]byte(`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"r","responseSchema":{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"enum":[1,"x",null]}}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(DefaultOptions())
		for _, line := range bytes.Split(data, []byte("\n")) {
			s.ApplyJSON(line)
		}
		checkDialectInvariants(t, s)
	})
}

// dialectTemplates are event shapes the ops fuzzer combines (%[1]s is a
// small id), across both dialects and the native one, so ids collide and
// every path is taken.
var dialectTemplates = []string{
	`{"type":"RUN_STARTED","threadId":"th","runId":"r%[1]s"}`,
	`{"type":"RUN_FINISHED","threadId":"th","runId":"r%[1]s"}`,
	`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i%[1]s","reason":"tool_call","toolCallId":"c%[1]s"}]}}`,
	`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i%[1]s","reason":"ask","responseSchema":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}]}}`,
	`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i%[1]s","reason":"ask","responseSchema":{"type":"object","properties":{"o":{"type":"object"}},"required":["o"]}}]}}`,
	`{"type":"RUN_FINISHED","outcome":{"type":"cancelled"}}`,
	`{"type":"RUN_ERROR","message":"e"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m%[1]s","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%[1]s","delta":"x"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m%[1]s"}`,
	`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m%[1]s","delta":"y"}`,
	`{"type":"TOOL_CALL_START","toolCallId":"c%[1]s","toolCallName":"run","parentMessageId":"m%[1]s"}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c%[1]s","delta":"{\"a\":"}`,
	`{"type":"TOOL_CALL_END","toolCallId":"c%[1]s"}`,
	`{"type":"TOOL_CALL_CHUNK","toolCallId":"c%[1]s","toolCallName":"run","delta":"[1"}`,
	`{"type":"TOOL_CALL_RESULT","messageId":"t%[1]s","toolCallId":"c%[1]s","content":"r"}`,
	`{"type":"REASONING_MESSAGE_START","messageId":"rs%[1]s","role":"reasoning"}`,
	`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs%[1]s","delta":"h"}`,
	`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"rs%[1]s","encryptedValue":"z"}`,
	`{"type":"ACTIVITY_SNAPSHOT","messageId":"p%[1]s","activityType":"PLAN","content":{"s":[]}}`,
	`{"type":"ACTIVITY_DELTA","messageId":"p%[1]s","activityType":"PLAN","patch":[{"op":"add","path":"/s/-","value":1}]}`,
	`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"hi"},{"id":"m%[1]s","role":"assistant","content":"a","toolCalls":[{"id":"c%[1]s","type":"function","function":{"name":"run","arguments":"{}"}}]}]}`,
	`{"type":"CUSTOM","name":"on_interrupt","value":{"action_requests":[{"name":"run","args":{}}],"review_configs":[{"action_name":"run","allowed_decisions":["approve","reject"]}]}}`,
	`{"type":"CUSTOM","name":"on_interrupt","value":"age?"}`,
	`{"type":"start","messageId":"u%[1]s"}`,
	`{"type":"start-step"}`,
	`{"type":"text-start","id":"t%[1]s"}`,
	`{"type":"text-delta","id":"t%[1]s","delta":"d"}`,
	`{"type":"text-end","id":"t%[1]s"}`,
	`{"type":"reasoning-start","id":"r%[1]s"}`,
	`{"type":"reasoning-end","id":"r%[1]s"}`,
	`{"type":"tool-input-start","toolCallId":"c%[1]s","toolName":"run"}`,
	`{"type":"tool-input-delta","toolCallId":"c%[1]s","inputTextDelta":"{\"q"}`,
	`{"type":"tool-input-available","toolCallId":"c%[1]s","toolName":"run","input":{}}`,
	`{"type":"tool-approval-request","approvalId":"a%[1]s","toolCallId":"c%[1]s"}`,
	`{"type":"tool-output-available","toolCallId":"c%[1]s","output":{"k":1},"preliminary":true}`,
	`{"type":"tool-output-available","toolCallId":"c%[1]s","output":"o"}`,
	`{"type":"tool-output-error","toolCallId":"c%[1]s","errorText":"e"}`,
	`{"type":"tool-output-denied","toolCallId":"c%[1]s"}`,
	`{"type":"source-url","sourceId":"s","url":"https://e.x/%[1]s"}`,
	`{"type":"data-x","id":"d%[1]s","data":1}`,
	`{"type":"finish","finishReason":"length"}`,
	`{"type":"reset-step"}`,
	`{"type":"tool-approval-response","approvalId":"a%[1]s","approved":false}`,
	`{"type":"steering-message","id":"s%[1]s","parts":[{"type":"text","text":"more"}]}`,
	`{"type":"abort"}`,
	`{"type":"error","errorText":"e"}`,
	`{"type":"message_start","message":{"id":"m","message_type":"chat"}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"c%[1]s","name":"run","input":{}}}`,
	`{"type":"approval_result","approval_key":"i%[1]s","decisions":[{"type":"reject"}]}`,
	`{"type":"message_stop"}`,
	// Not events: client actions (see FuzzDialectOps).
	"answer:i%[1]s", "answer:a%[1]s", "answer:r%[1]s", "agui-run", "agui-send", "ui-send", "ui-continue", "restore-agui", "restore-ui", "resume-ui",
}

// FuzzDialectOps applies random sequences of events and client actions.
func FuzzDialectOps(f *testing.F) {
	f.Add([]byte{0, 0, 11, 1, 12, 1, 13, 1, 2, 1, 48, 1, 50, 0, 15, 1, 7, 1, 8, 1, 1, 0})
	f.Add([]byte{54, 0, 24, 1, 33, 1, 34, 1, 41, 0, 49, 1, 55, 0, 36, 1, 41, 0, 57, 0, 58, 0})
	f.Fuzz(runOps)
}

func runOps(t *testing.T, ops []byte) {
	if len(ops) > 1000 {
		// Restores rebuild everything: long sequences only cost time.
		ops = ops[:1000]
	}
	{
		o := DefaultOptions()
		o.NewID = seqIDs()
		s := New(o)
		for i := 0; i+1 < len(ops); i += 2 {
			tmpl := dialectTemplates[int(ops[i])%len(dialectTemplates)]
			id := fmt.Sprint(ops[i+1] % 3)
			line := fmt.Sprintf(tmpl, id)
			switch {
			case len(line) > 7 && line[:7] == "answer:":
				key := line[7:]
				if it := s.Approval(key); it != nil {
					a := CardAnswer{Answers: map[string]string{}, Decisions: []wire.Decision{{Type: "approve"}}, Values: json.RawMessage(`{"n":1}`)}
					if it.Approval != nil {
						a.Decisions = make([]wire.Decision, len(it.Approval.Actions))
						for j := range a.Decisions {
							a.Decisions[j] = wire.Decision{Type: "reject"}
						}
					}
					_, _ = s.answerCard(key, a)
				}
			case line == "agui-run":
				s.aguiRunInput("")
			case line == "agui-send":
				s.aguiRunInput("hi")
			case line == "ui-send":
				s.uiChatRequest("hi")
			case line == "ui-continue":
				s.uiChatRequest("")
			case line == "restore-agui":
				s.restoreAGUI(s.AGUIConversation())
			case line == "restore-ui":
				s.restoreUI(s.UIConversation())
			case line == "resume-ui":
				s.beginUIResume()
			default:
				s.ApplyJSON([]byte(line))
			}
		}
		checkDialectInvariants(t, s)
	}
}
