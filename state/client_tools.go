package state

import (
	"encoding/json"
	"slices"
	"strings"

	"stepwise/state/wire"
)

// Client tools: the human-in-the-loop tools Stepwise answers itself. An
// agent calls one to ask the user to approve an action or to answer a
// question; the call shows as the same approval card or form as an
// interrupt, and the user's answer goes back as the tool's result, the way
// each protocol returns a client's tool result:
//
//   - AG-UI: Stepwise offers them to every run (RunAgentInput.tools); a
//     call that ends its run without a result is answered by a tool message
//     in the next run's messages. The .NET AG-UI hosting's request_approval
//     (a function approval turned into a client tool call, its request
//     wrapped in {"request": {...}}) is the same tool.
//   - AI SDK: the route declares them as tools without execute; a call left
//     without output at the end of the response is answered by the tool
//     part's output in the next request, as useChat's addToolOutput does.
//
// The decisions (which names, how the input reads, what the result is)
// live here; the dialects call them.

// The kinds of client tool.
const (
	clientApproval = "approval"
	clientAsk      = "ask"
)

// clientToolKind is the kind of client tool a tool name is, "" for none.
// The AI SDK's routes name tools in camelCase, AG-UI's agents in
// snake_case: both are read.
func clientToolKind(name string) string {
	switch name {
	case "request_approval", "requestApproval", "confirm_action", "confirmAction":
		return clientApproval
	case "ask_user", "askUser":
		return clientAsk
	}
	return ""
}

// AGUIClientTools are the tool definitions (AG-UI Tool: name, description,
// JSON Schema parameters) offered to every AG-UI run.
var AGUIClientTools = []json.RawMessage{
	json.RawMessage(`{"name":"request_approval","description":"Ask the user to approve an action before you take it, and wait for the decision. Returns {\"approved\": true} or {\"approved\": false, \"reason\": \"...\"}.","parameters":{"type":"object","properties":{"message":{"type":"string","description":"The question the user answers, e.g. \"Delete the file report.txt?\""},"action":{"type":"string","description":"The name of the action or tool to approve"},"arguments":{"type":"object","description":"The arguments the action will run with, shown to the user"}},"required":["message"]}}`),
	json.RawMessage(`{"name":"ask_user","description":"Ask the user a question and wait for the answer. Returns {\"answer\": \"...\"}.","parameters":{"type":"object","properties":{"question":{"type":"string","description":"The question to ask"},"options":{"type":"array","items":{"type":"string"},"description":"Answers to choose from; leave out for a free answer"}},"required":["question"]}}`),
}

// clientToolInput is a client tool call's input, read leniently: the
// names these tools' callers use for the same thing.
type clientToolInput struct {
	Message  string `json:"message"`
	Question string `json:"question"`
	Prompt   string `json:"prompt"`
	// Details is a string (the message) or an object (the arguments).
	Details           json.RawMessage `json:"details"`
	Action            string          `json:"action"`
	FunctionName      string          `json:"function_name"`
	Arguments         json.RawMessage `json:"arguments"`
	FunctionArguments json.RawMessage `json:"function_arguments"`
	Args              json.RawMessage `json:"args"`
	Options           []string        `json:"options"`
	Choices           []string        `json:"choices"`
	// ApprovalID is the .NET hosting's id of the approval, which its
	// answer carries back.
	ApprovalID string `json:"approval_id"`
	// Request wraps the rest in the .NET hosting's request_approval.
	Request *clientToolInput `json:"request"`
}

// readClientToolInput reads a call's input; a .NET request is unwrapped.
func readClientToolInput(raw json.RawMessage) clientToolInput {
	var in clientToolInput
	_ = json.Unmarshal(raw, &in)
	if in.Request != nil {
		return *in.Request
	}
	return in
}

// text is the question or message to show.
func (in *clientToolInput) text() string {
	details, _ := wire.StringValue(in.Details)
	return firstNonEmptyString(in.Message, in.Question, in.Prompt, details)
}

// action is the name and arguments of the action to approve ("" and {}
// when the call names none).
func (in *clientToolInput) action() (string, json.RawMessage) {
	name := firstNonEmptyString(in.Action, in.FunctionName)
	args := emptyObject
	for _, a := range []json.RawMessage{in.Arguments, in.FunctionArguments, in.Args, in.Details} {
		if len(a) > 0 && a[0] == '{' && json.Valid(a) {
			args = a
			break
		}
	}
	return name, args
}

// options are the answers to choose from, none for a free answer.
func (in *clientToolInput) options() []string {
	return firstNonEmpty(in.Options, in.Choices)
}

// showClientTool makes the card of a client tool call: an approval
// (approve, or reject with a reason) or a form with one answer (a choice
// when the call gives options). key is the call's id; the call's own step
// is hidden, the card stands for it.
func (s *Store) showClientTool(key, name string, input json.RawMessage, expiresAt string) {
	if s.approvals[key] != nil {
		return
	}
	in := readClientToolInput(input)
	if clientToolKind(name) == clientApproval {
		action, args := in.action()
		it := s.newItem(KindApproval)
		card := &ApprovalCard{ApprovalKey: key, State: ApprovalPending, TimeoutSeconds: DefaultTimeoutSeconds, Text: in.text(), ExpiresAt: expiresAt}
		card.Actions = []ApprovalAction{{Name: action, Args: args, Allowed: []string{"approve", "reject"}}}
		card.tools = []*Item{nil}
		it.Approval = card
		s.approvals[key] = it
		s.pending = append(s.pending, it)
		s.changes.Pending = true
		s.placeApproval(it)
		return
	}
	field := FormField{Name: "answer", Type: FieldString, Required: true}
	if opts := in.options(); len(opts) > 0 {
		field.Type = FieldEnum
		for _, o := range opts {
			raw, _ := json.Marshal(o)
			field.Options = append(field.Options, raw)
		}
	}
	it := s.newFormItem(key, in.text(), []FormField{field}, true, expiresAt)
	s.standaloneCard(it)
}

// clientToolResult is the result a client tool returns for the user's
// answer: {"approved": bool, "reason"?} for an approval (with the .NET
// hosting's approval_id when its request had one), {"answer": ...} for a
// question.
func clientToolResult(name string, input json.RawMessage, a CardAnswer) json.RawMessage {
	if clientToolKind(name) == clientApproval {
		r := approvalResult{ApprovalID: readClientToolInput(input).ApprovalID}
		if len(a.Decisions) > 0 {
			d := a.Decisions[0]
			r.Approved = d.Type == "approve" || d.Type == "edit"
			if !r.Approved {
				r.Reason = strings.TrimSpace(d.Message)
			}
		}
		raw, _ := json.Marshal(r)
		return raw
	}
	var answer struct {
		Answer json.RawMessage `json:"answer"`
	}
	answer.Answer = a.Values // a plain question's form sends the answer itself
	if len(a.Values) > 0 && a.Values[0] == '{' {
		_ = json.Unmarshal(a.Values, &answer)
	}
	if len(answer.Answer) == 0 {
		answer.Answer = json.RawMessage("null")
	}
	raw, _ := json.Marshal(answer)
	return raw
}

// approvalResult is what request_approval returns.
type approvalResult struct {
	Approved   bool   `json:"approved"`
	Reason     string `json:"reason,omitempty"`
	ApprovalID string `json:"approval_id,omitempty"`
	Cancelled  bool   `json:"cancelled,omitempty"`
}

// cancelledReason is what a client tool the user did not answer returns.
const cancelledReason = "The user sent a new message instead of answering."

// clientToolCancelled is the result of a client tool the user did not
// answer (they sent a new message instead): the agent reads it, so it
// never waits for a result that will not come.
func clientToolCancelled(name string, input json.RawMessage) json.RawMessage {
	var raw []byte
	if clientToolKind(name) == clientApproval {
		raw, _ = json.Marshal(approvalResult{Cancelled: true, Reason: cancelledReason, ApprovalID: readClientToolInput(input).ApprovalID})
	} else {
		raw, _ = json.Marshal(struct {
			Cancelled bool   `json:"cancelled"`
			Reason    string `json:"reason"`
		}{true, cancelledReason})
	}
	return raw
}

// clientToolAnswer reads a result back into the card's answer, to show a
// card answered in an earlier run.
func (s *Store) showClientToolAnswer(key, name string, result json.RawMessage) {
	it := s.approvals[key]
	if it == nil || !isPendingCard(it) {
		return
	}
	var r struct {
		Approved  bool            `json:"approved"`
		Reason    string          `json:"reason"`
		Answer    json.RawMessage `json:"answer"`
		Cancelled bool            `json:"cancelled"`
	}
	if json.Unmarshal(result, &r) != nil || r.Cancelled {
		s.expire(it, ToolError)
		return
	}
	if clientToolKind(name) == clientApproval {
		d := wire.Decision{Type: "reject", Message: r.Reason}
		if r.Approved {
			d = wire.Decision{Type: "approve"}
		}
		raw, _ := json.Marshal([]wire.Decision{d})
		s.approvalResult(key, nil, raw)
		return
	}
	if it.Form != nil {
		s.answerForm(it, r.Answer)
	}
}

// aguiClientCalls are this run's calls to client tools, in order.
func (st *aguiState) noteClientCall(id string) {
	if !slices.Contains(st.clientCalls, id) {
		st.clientCalls = append(st.clientCalls, id)
	}
}

// aguiOpenClientCalls shows a card for each client tool call of the run
// that ended without a result: the agent waits for the user's answer.
func (s *Store) aguiOpenClientCalls(st *aguiState) {
	calls := st.clientCalls
	st.clientCalls = nil
	st.flush()
	for _, id := range calls {
		if st.conv.hasToolResult(id) || st.conv.hasInterrupt(id) {
			continue
		}
		call := st.conv.findToolCall(id)
		if call == nil {
			continue
		}
		input := toolInput([]byte(call.Function.Arguments))
		if input == nil {
			input = emptyObject
		}
		in := OpenInterrupt{AGUIInterrupt: wire.AGUIInterrupt{ID: id, Reason: ReasonClientTool, ToolCallID: id}, ClientTool: &ClientToolCall{Name: call.Function.Name, Input: input}}
		ci := readClientToolInput(input)
		in.Message = ci.text()
		s.aguiOpenInterrupt(st, in)
	}
}

// ClientToolCall is the call an open interrupt stands for when it is a
// client tool's: kept with the conversation, so a reload shows its card.
type ClientToolCall struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ReasonClientTool is the reason of the interrupt a client tool call
// stands for while it waits for the user (never sent: its answer goes
// back as a tool message, not in resume).
const ReasonClientTool = "stepwise:client_tool"

// clientToolMessage is the tool message that answers a client tool call in
// the next run: the user's answer, or cancelled when there was none.
func clientToolMessage(id string, oi OpenInterrupt) wire.AGUIMessage {
	result := oi.Payload
	if oi.Status != "resolved" || wire.IsNull(result) {
		result = clientToolCancelled(oi.ClientTool.Name, oi.ClientTool.Input)
	}
	content, _ := json.Marshal(string(result))
	return wire.AGUIMessage{ID: id, Role: "tool", ToolCallID: oi.ToolCallID, Content: content}
}

func (c *AGUIConversation) hasToolResult(callID string) bool {
	for i := range c.Messages {
		if c.Messages[i].Role == "tool" && c.Messages[i].ToolCallID == callID {
			return true
		}
	}
	return false
}

func (c *AGUIConversation) hasInterrupt(id string) bool {
	for _, list := range [][]OpenInterrupt{c.Interrupts, c.Answered} {
		for i := range list {
			if list[i].ID == id {
				return true
			}
		}
	}
	return false
}

func (c *AGUIConversation) findToolCall(id string) *wire.AGUIToolCall {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		for j := range c.Messages[i].ToolCalls {
			if c.Messages[i].ToolCalls[j].ID == id {
				return &c.Messages[i].ToolCalls[j]
			}
		}
	}
	return nil
}

// partToolName is the tool name of an AI SDK tool part.
func partToolName(p *wire.UIPart) string {
	if p.Type == "dynamic-tool" {
		return p.ToolName
	}
	return strings.TrimPrefix(p.Type, "tool-")
}

// waitsForClient reports whether an AI SDK tool part is a client tool's
// call still waiting for its output.
func waitsForClient(p *wire.UIPart) bool {
	if p.Type != "dynamic-tool" && !strings.HasPrefix(p.Type, "tool-") {
		return false
	}
	if p.ProviderExecuted != nil && *p.ProviderExecuted {
		return false
	}
	return p.State == "input-available" && clientToolKind(partToolName(p)) != ""
}

// uiOpenClientCalls shows a card for each client tool call the finished
// message left without output: the route waits for the client's answer.
func (s *Store) uiOpenClientCalls(st *uiState) {
	if st.msg < 0 || st.msg >= len(st.conv.Messages) {
		return
	}
	for _, p := range st.conv.Messages[st.msg].Parts {
		if waitsForClient(&p) {
			s.showClientTool(p.ToolCallID, partToolName(&p), p.Input, "")
		}
	}
}

// clientToolPart finds the tool part of a client tool call waiting for
// its output.
func (st *uiState) clientToolPart(callID string) *wire.UIPart {
	if p := st.findToolPart(callID); p != nil && waitsForClient(p) {
		return p
	}
	return nil
}

// uiCancelClientCalls answers the client tool calls still waiting with an
// error: the user sent a new message instead (the route reads a call
// without output as a missing result).
func (s *Store) uiCancelClientCalls(st *uiState) {
	for i := range st.conv.Messages {
		for j := range st.conv.Messages[i].Parts {
			p := &st.conv.Messages[i].Parts[j]
			if !waitsForClient(p) {
				continue
			}
			p.State = "output-error"
			p.ErrorText = cancelledReason
			if it := s.approvals[p.ToolCallID]; it != nil && isPendingCard(it) {
				s.expire(it, ToolError)
			}
		}
	}
}

// replayClientToolPart shows a client tool part of a saved conversation:
// its card, answered as its output says.
func (s *Store) replayClientToolPart(p *wire.UIPart) {
	name := partToolName(p)
	s.showClientTool(p.ToolCallID, name, p.Input, "")
	switch p.State {
	case "output-available":
		s.showClientToolAnswer(p.ToolCallID, name, p.Output)
	case "output-error", "output-denied":
		if it := s.approvals[p.ToolCallID]; it != nil {
			s.expire(it, ToolError)
		}
	}
}
