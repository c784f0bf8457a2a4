package state

import (
	"encoding/json"

	"stepwise/state/wire"
)

// Kind is an item's kind, as REPLAY.md and DOM.md name them.
type Kind string

// The item kinds.
const (
	KindUser     Kind = "user"
	KindText     Kind = "text"
	KindThinking Kind = "thinking"
	KindTool     Kind = "tool"
	KindGroup    Kind = "group"
	KindQuestion Kind = "question"
	KindApproval Kind = "approval"
	KindActivity Kind = "activity"
	KindError    Kind = "error"
	KindStopped  Kind = "stopped"
	KindUnknown  Kind = "unknown"
	// KindImage is a picture the agent shows in its answer (an image
	// block): Item.Image.
	KindImage Kind = "image"
)

// ToolStatus is a tool item's status (PROTOCOL.md section 3, "Tool item status").
type ToolStatus string

// The tool statuses.
const (
	ToolActive      ToolStatus = "active"
	ToolAwaiting    ToolStatus = "awaiting"
	ToolDone        ToolStatus = "done"
	ToolError       ToolStatus = "error"
	ToolInterrupted ToolStatus = "interrupted"
)

// Item is one entry of the conversation: a top-level item or a step of a
// group. Only the fields of its Kind are set. Items are owned by the Store:
// read them, never write them.
type Item struct {
	// Key is unique within a Store and never changes: the UI keys on it.
	Key int
	// Rev changes whenever the item (or, for a group, any of its steps)
	// changes, so a renderer can skip items whose Rev it has already drawn.
	Rev  uint64
	Kind Kind
	// Brand marks the first assistant item of a turn (REPLAY.md).
	Brand bool

	Text  string // user, text, thinking, error, activity content
	Final bool   // text: is_final
	// Cut: the text reached MaxItemText and what came after was dropped.
	Cut bool
	// Answer marks a turn's answer: its last top-level text, once the turn
	// has ended (answer.go). The UI gives it the copy button.
	Answer bool
	// ErrorType is an error item's error.type when the backend sent one
	// (agent_restarted, overloaded_error...), so the page can say it in
	// the reader's language.
	ErrorType string
	Timestamp string // activity-dialect items: when it happened

	// Citations are a text item's cited passages, in the order they came.
	Citations []Citation
	// Redacted marks a thinking item whose reasoning the provider encrypted:
	// its Text is empty and the UI says so.
	Redacted bool
	// Usage is set on the last top-level item of a turn that has ended and
	// reported token counts: the turn's total, shown quietly after it.
	Usage *Usage

	// Attachments are a user message's files (KindUser).
	Attachments []Attachment
	// Message is set, when the backend gives its messages ids, on a user
	// item and on the last top-level item of an answer whose turn ended:
	// what the message's actions need (branches.go).
	Message *MessageRef
	// Image is an image item's picture (KindImage).
	Image *Image

	Tool     *Tool
	Group    *Group
	Question *QuestionForm
	Approval *ApprovalCard
	Activity *ActivityInfo
	// BlockType is the unknown block's type (KindUnknown).
	BlockType string
	Notice    *Notice   // KindNotice
	Form      *FormCard // KindForm (backend_kinds.go)

	parent *Item // the group holding this step, nil at top level
	// titleLabel is the label this step gives its group's title (rule 7):
	// an activity's display name; empty means "the tool's label, if a tool".
	titleLabel string
	dirtyEpoch uint64
}

// Parent returns the group that holds the item, or nil at top level.
func (it *Item) Parent() *Item { return it.parent }

// AwaitsAnswer reports whether the item is a question, an approval or a
// form still waiting for the user's answer; false for nil.
func (it *Item) AwaitsAnswer() bool {
	switch {
	case it == nil:
		return false
	case it.Question != nil:
		return it.Question.State == QuestionPending
	case it.Approval != nil:
		return it.Approval.State == ApprovalPending
	case it.Form != nil:
		return it.Form.State == QuestionPending
	}
	return false
}

// stepLabel is the label this step offers its group's title, or "".
func (it *Item) stepLabel() string {
	if it.titleLabel != "" {
		return it.titleLabel
	}
	if it.Tool != nil {
		return it.Tool.Label
	}
	return ""
}

// Tool is a tool call with its result merged in.
type Tool struct {
	ID     string
	Name   string
	Label  string // tool_content_message or an activity's name, else the readable name
	Status ToolStatus
	Input  json.RawMessage // a JSON value; "{}" when none was sent
	// Result is the result text, nil until a result arrives.
	Result   *string
	Artifact json.RawMessage // nil when none
	// ErrorCode is the error_code of a server tool's error result,
	// UnknownErrorCode when it sent none (Result then holds an English
	// sentence for it; the UI translates the code).
	ErrorCode string
	// PartialInput is input JSON that never became valid (cut by
	// max_tokens): Input stays as it was, the UI shows this text instead.
	PartialInput string
	// Progress is what a tool still running last reported (an AI SDK
	// preliminary output) as one line, "" once its final result came.
	Progress string
	// Denied: the user refused to run it (AI SDK tool-output-denied); the
	// UI says so in its own words.
	Denied bool
	// Encrypted: the result is encrypted for the model only (an advisor's
	// redacted result, an encrypted code execution result); Result holds an
	// English sentence, the UI says so in its own words.
	Encrypted bool
	// App is the MCP App the tool points at (mcpapp.go), nil for none;
	// StructuredContent is its MCP result's structuredContent, nil for
	// none.
	App               *ToolApp
	StructuredContent json.RawMessage
	// InputStreaming: its input is still arriving (an app gets it as
	// partial input until then).
	InputStreaming bool
	// Cancelled: its result came with status cancelled; Rejected: its
	// approval was rejected. Both have Status ToolError (PROTOCOL.md
	// section 3); the UI tells them from a failure.
	Cancelled, Rejected bool
	// Code is the result of one of Anthropic's code tools read for its
	// own view (codetools.go), nil for other tools.
	Code *CodeRun
	// Images are the images its result carried (toolimages.go).
	Images []ToolImage

	explicitLabel bool   // Label came from tool_content_message or an activity
	partialJSON   []byte // accumulated input_json_delta
	hasResult     bool
	awaitingKey   string          // the approval this tool waits on
	planTool      bool            // listed in the store's planTools (plan.go)
	plan          *planCache      // its input read as a plan (plan.go)
	codeType      string          // the code tool result's content type
	codeResult    json.RawMessage // and the content, read again with a later input
}

// Group holds steps (PROTOCOL.md section 3).
type Group struct {
	Open  bool
	Steps []*Item
	// Subagent is set on the group of a sub-agent's work (AG-UI
	// subagentRunId, or a run under parentRunId), nested in its parent's.
	Subagent *Subagent

	startSummary string
	endSummary   string
	closedTitle  string // the title it had while open, kept at close
	lastLabeled  *Item  // the most recently added step with a label
}

// Title is the group's title by rule 7; "" means the default "Working…",
// which the UI translates.
func (g *Group) Title() string {
	if !g.Open {
		if g.endSummary != "" {
			return g.endSummary
		}
		if g.startSummary != "" {
			return g.startSummary
		}
		return g.closedTitle
	}
	return g.openTitle()
}

func (g *Group) openTitle() string {
	if g.lastLabeled != nil {
		if l := g.lastLabeled.stepLabel(); l != "" {
			return l
		}
	}
	return g.startSummary
}

// Subagent names the sub-agent whose work a group holds.
type Subagent struct {
	Name        string // "" for a run that names none
	Description string
	Failed      bool // SUBAGENT_ERROR
}

// Visible is how many of the newest steps show: at most 3 while the group
// runs, all of them once it is done.
func (g *Group) Visible() int {
	if g.Open && len(g.Steps) > MaxVisibleRunning {
		return MaxVisibleRunning
	}
	return len(g.Steps)
}

// MaxVisibleRunning is how many steps a running group shows.
const MaxVisibleRunning = 3

// QuestionState is the state of a question form.
type QuestionState string

// The question states.
const (
	QuestionPending  QuestionState = "pending"
	QuestionAnswered QuestionState = "answered"
	QuestionExpired  QuestionState = "expired"
)

// QuestionForm is an ask_user_question request (PROTOCOL.md section 5).
type QuestionForm struct {
	ApprovalKey string
	State       QuestionState
	// Questions are as sent, each with a free-text option added at the end
	// when it had none (its Label is empty: the UI shows "Other").
	Questions      []wire.Question
	Answers        map[string]string // nil until answered
	TimeoutSeconds float64
	CreatedAt      string // from history, when known
}

// ApprovalState is the state of a tool approval card.
type ApprovalState string

// The approval states.
const (
	ApprovalPending   ApprovalState = "pending"
	ApprovalApproved  ApprovalState = "approved"
	ApprovalEdited    ApprovalState = "edited"
	ApprovalRejected  ApprovalState = "rejected"
	ApprovalResponded ApprovalState = "responded"
	ApprovalExpired   ApprovalState = "expired"
)

// ApprovalCard is a non-question approval request (PROTOCOL.md section 6).
type ApprovalCard struct {
	ApprovalKey    string
	State          ApprovalState
	Actions        []ApprovalAction
	TimeoutSeconds float64
	CreatedAt      string
	// Text is the backend's own question for the card (an AG-UI
	// interrupt's message), "" when it sends none.
	Text string
	// Automatic: the backend's policy decides, not the user (an AI SDK
	// approval with isAutomatic); the UI marks the decision as the
	// policy's.
	Automatic bool
	// ExpiresAt is when the agent stops waiting (RFC 3339; an AG-UI
	// interrupt's expiresAt), "" for never.
	ExpiresAt string

	tools []*Item // the tool each action concerns, nil where none
}

// ApprovalAction is one action of an approval with its allowed decisions.
type ApprovalAction struct {
	Name     string
	Args     json.RawMessage
	Allowed  []string
	Decision string // "" until decided
}

// Citation is one citation of a text item (BACKENDS.md section 1).
type Citation struct {
	// N is its number: per conversation, in order of first use; a source
	// (URL, or document) keeps its number.
	N int
	// URL is the cited page, "" for a document cited without one. It is as
	// sent: only http and https URLs may become links.
	URL       string
	Title     string
	CitedText string
	// At is the byte offset in the item's Text right after the cited
	// passage.
	At int
}

// ActivityInfo is what an activity item shows besides its Text.
type ActivityInfo struct {
	Type string // activity_type
	Name string // display name
	Icon string
	// Summary and Progress are what an AG-UI activity's content says of
	// itself, kept up to date (activity_live.go); "" and nil when none.
	Summary  string
	Progress *float64
}

// DefaultTimeoutSeconds is the countdown of a question or approval that
// sends no timeout_seconds (PROTOCOL.md section 5).
const DefaultTimeoutSeconds = 600

// Tool returns the tool item action i concerns, or nil.
func (a *ApprovalCard) Tool(i int) *Item {
	if i < 0 || i >= len(a.tools) {
		return nil
	}
	return a.tools[i]
}
