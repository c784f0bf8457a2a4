package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"stepwise/state"
	"stepwise/state/wire"
)

// The user's half of a conversation (docs/protocol-extensions.md): a
// message with files, an edit (a new version of a sent message), a
// regenerate (a new version of an answer), the choice of the version
// shown, and feedback on an answer. Every message gets an id, the id of
// the event that carries it ("m41"): unique in its session, across
// restarts too. The tree of messages is the session's store's, rebuilt
// from the log at each load.

// ErrMessageNotFound refuses a command about a message the session does
// not have (any more).
var ErrMessageNotFound = &Refusal{Status: 404, Kind: "not_found", Msg: "This message is no longer in the conversation: reload it to see what is."}

// MaxFeedbackComment bounds a feedback's comment, in characters.
const MaxFeedbackComment = 2000

// userMessage is a user_message frame read and checked: its text, its
// files, and the message it follows when it is an edit.
type userMessage struct {
	text   string
	files  []fileMeta
	images []bool // per file: sent as an image block
	edit   bool
	parent string // an edit's parent ("" for the conversation's start)
}

// readMessage reads a user_message frame for session: text blocks, and
// image and document blocks of files uploaded to it first, within the
// limits of one message.
func (a *Agent) readMessage(session string, f wire.ClientFrame) (userMessage, error) {
	var m userMessage
	m.parent, m.edit = f.Parent()
	blocks := f.Blocks()
	if blocks == nil && !wire.IsNull(f.Content) {
		return m, errors.New("a message's content is text, or a list of text, image and document blocks")
	}
	var texts []string
	var ids []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "image", "document":
			if b.Source == nil || b.Source.Type != "file" || b.Source.FileID == "" {
				return m, errors.New("the demo agent takes files uploaded first: a block's source must be {\"type\": \"file\", \"file_id\": ...}")
			}
			if !containsString(ids, b.Source.FileID) {
				ids = append(ids, b.Source.FileID)
			}
		default:
			return m, fmt.Errorf("a message cannot hold a %q block", b.Type)
		}
	}
	m.text = strings.TrimSpace(strings.Join(texts, "\n"))
	lim := a.files.lim
	if len(ids) > 0 && !lim.Enabled() {
		return m, ErrUploadsOff
	}
	if len(ids) > lim.MaxMessageFiles {
		return m, errTooManyFiles(lim.MaxMessageFiles)
	}
	var total int64
	for _, id := range ids {
		meta, err := a.files.meta(session, id)
		if err != nil {
			return m, err
		}
		if total += meta.Size; total > lim.MaxMessageBytes {
			return m, errMessageFilesTooLarge(lim.MaxMessageBytes)
		}
		m.files = append(m.files, meta)
		m.images = append(m.images, wire.IsImageType(meta.MediaType))
	}
	if m.text == "" && len(m.files) == 0 {
		return m, errors.New("empty message")
	}
	return m, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// content is the echo's content: the text, then a block per file with
// what the page shows of it.
func (m userMessage) content() []any {
	var out []any
	if m.text != "" {
		out = append(out, map[string]any{"type": "text", "text": m.text})
	}
	for i, f := range m.files {
		b := map[string]any{"type": "document", "title": f.Name}
		if m.images[i] {
			b = map[string]any{"type": "image"}
		}
		b["source"] = map[string]any{"type": "file", "file_id": f.ID}
		b["file"] = f.info()
		out = append(out, b)
	}
	return out
}

// title is what the conversations list calls a session that starts with
// this message.
func (m userMessage) title() string {
	if m.text == "" && len(m.files) > 0 {
		return wire.SessionTitle(m.files[0].Name)
	}
	return wire.SessionTitle(m.text)
}

// scenarioFor is what answers a message: the scenario "/NAME" names; an
// answer about the files it carries; else the default scenario.
func (a *Agent) scenarioFor(session string, m userMessage) (*Scenario, error) {
	if rest, ok := strings.CutPrefix(m.text, "/"); ok {
		name := "" // a lone "/" names none
		if fields := strings.Fields(rest); len(fields) > 0 {
			name = fields[0]
		}
		if sc := a.scenarios[name]; sc != nil {
			return sc, nil
		}
		return nil, fmt.Errorf("no scenario %q (try %s)", name, strings.Join(a.scenarios.Names(), ", "))
	}
	if len(m.files) > 0 {
		return a.filesAnswer(session, m.files)
	}
	if sc := a.scenarios[DefaultScenario]; sc != nil {
		return sc, nil
	}
	return nil, fmt.Errorf("no scenario %q", DefaultScenario)
}

// filesAnswer is the demo agent's answer about the files it received:
// each one's name, type, size, an image's dimensions, a text file's first
// lines.
func (a *Agent) filesAnswer(session string, files []fileMeta) (*Scenario, error) {
	var b strings.Builder
	if len(files) == 1 {
		b.WriteString("I received one file:\n\n")
	} else {
		fmt.Fprintf(&b, "I received %d files:\n\n", len(files))
	}
	for _, f := range files {
		fmt.Fprintf(&b, "- %s: %s, %s", codeSpan(f.Name), typeName(f.MediaType), byteSize(f.Size))
		if f.Width > 0 {
			fmt.Fprintf(&b, ", %d × %d pixels", f.Width, f.Height)
		}
		b.WriteString(".\n")
		if t, err := wire.ResolveFileType(f.Name, f.MediaType); err == nil && t.Text {
			if lines := a.files.firstLines(session, f.ID, 5); len(lines) > 0 {
				body := strings.Join(lines, "\n")
				fence := "```"
				for strings.Contains(body, fence) {
					fence += "`"
				}
				fmt.Fprintf(&b, "\n  It begins:\n\n  %s\n", fence)
				for _, l := range lines {
					b.WriteString("  " + l + "\n")
				}
				b.WriteString("  " + fence + "\n\n")
			}
		}
	}
	b.WriteString("\nAsk me anything about them.")
	var lines []string
	add := func(v any) {
		raw, _ := json.Marshal(v)
		lines = append(lines, string(raw))
	}
	ev := func(e map[string]any) { add(map[string]any{"event": e}) }
	ev(map[string]any{"type": "message_start", "message": map[string]any{"id": "files", "role": "assistant", "message_type": "chat"}})
	ev(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": "", "is_final": true}})
	for _, piece := range splitText(b.String(), 48) {
		ev(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": piece}})
		add(map[string]any{"sleep_ms": 25})
	}
	ev(map[string]any{"type": "content_block_stop", "index": 0})
	ev(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}})
	ev(map[string]any{"type": "message_stop"})
	return ParseScenario("files", []byte(strings.Join(lines, "\n")))
}

// codeSpan is s as a Markdown code span: a file's name shown as it is,
// whatever characters it has.
func codeSpan(s string) string {
	fence, run := "`", 0
	for _, r := range s {
		if r != '`' {
			run = 0
			continue
		}
		if run++; run >= len(fence) {
			fence += "`"
		}
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// typeName names a media type for people.
func typeName(mt string) string {
	switch mt {
	case "image/png":
		return "a PNG image"
	case "image/jpeg":
		return "a JPEG image"
	case "image/webp":
		return "a WebP image"
	case "image/gif":
		return "a GIF image"
	case "application/pdf":
		return "a PDF document"
	case "text/markdown":
		return "Markdown"
	case "text/csv":
		return "a CSV table"
	case "application/json":
		return "JSON"
	case "text/plain":
		return "plain text"
	}
	return mt
}

// splitText cuts text in pieces of about n bytes, on character
// boundaries, as a model streams it.
func splitText(text string, n int) []string {
	var out []string
	for len(text) > n {
		i := n
		for i > 0 && !utf8.RuneStart(text[i]) {
			i--
		}
		out = append(out, text[:i])
		text = text[i:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}

// runPlan is a run to start: a new message's (user set) or a regenerate's
// (answerTo names the user message whose answer it replaces).
type runPlan struct {
	user     *userMessage
	answerTo string
	answerOf string // a regenerate: the answer it replaces
	sc       *Scenario
}

// launch starts a run: it emits the user's message (an edit follows the
// parent it names; a new message the last one shown) and the answer's
// start, then plays the scenario.
func (a *Agent) launch(s *Session, c Caller, p runPlan) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != nil {
		return ErrBusy
	}
	if a.closed.Load() {
		return ErrClosed
	}
	if err := a.storageErr(); err != nil {
		return err
	}
	var userEvent map[string]any
	var size int64 = 512
	if u := p.user; u != nil {
		parent := s.store.LastMessageID()
		if u.edit {
			if u.parent != "" {
				if _, _, _, ok := s.store.Message(u.parent); !ok {
					return ErrMessageNotFound
				}
			}
			parent = u.parent
		}
		var parentID any
		if parent != "" {
			parentID = parent
		}
		userEvent = map[string]any{"type": "user_message", "parent_id": parentID, "content": u.content()}
		raw, _ := json.Marshal(userEvent)
		size += int64(len(raw)) + 128
	} else if ref, _, _, ok := s.store.Message(p.answerOf); !ok || ref.ParentID != p.answerTo {
		return ErrMessageNotFound
	}
	if s.count+p.sc.cost.events+2 > MaxEventsPerSession || s.bytes+p.sc.cost.bytes+size > MaxSessionBytes {
		return ErrFull
	}
	if s.count == 0 {
		if err := a.takeSession(c.Client); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel, answered: make(chan struct{}, 1), done: make(chan struct{}), skip: map[string]bool{}}
	s.running = r
	s.refs++ // the run holds the session in memory
	now := a.now()
	created := now.UTC().Format(time.RFC3339)
	answerTo := p.answerTo
	if userEvent != nil {
		if s.count == 0 {
			s.owner, s.title, s.created = c.Owner, p.user.title(), now
		}
		answerTo = "m" + strconv.Itoa(s.count+1)
		userEvent["message_id"], userEvent["created_at"] = answerTo, created
		s.emitLocked(userEvent)
	}
	s.updated = now
	// The id of the event that starts the run (the message's, else the
	// answer's) makes its tool ids and approval keys unique in the
	// session, across restarts too.
	suffix := "." + strconv.Itoa(s.count+1)
	if userEvent != nil {
		suffix = "." + strings.TrimPrefix(answerTo, "m")
	}
	s.emitLocked(map[string]any{"type": "answer_start", "message_id": "m" + strconv.Itoa(s.count+1), "parent_id": answerTo, "created_at": created})
	speed := a.Speed
	if speed <= 0 {
		speed = 1
	}
	a.runs.Add(1)
	go func() {
		defer a.runs.Done()
		s.play(ctx, r, p.sc, suffix, speed)
	}()
	return nil
}

// regenerate plays again what answered the message an answer answers: a
// new version of the answer, shown from then on.
func (a *Agent) regenerate(s *Session, c Caller, answerID string) error {
	s.mu.Lock()
	ref, _, _, ok := s.store.Message(answerID)
	var text string
	var files []state.Attachment
	if ok {
		_, text, files, ok = s.store.Message(ref.ParentID)
	}
	running := s.running != nil
	s.mu.Unlock()
	switch {
	case !ok || ref.Role != "assistant":
		return ErrMessageNotFound
	case running:
		return ErrBusy
	}
	m := userMessage{text: text}
	for _, f := range files {
		if meta, err := a.files.meta(s.ID, f.FileID); err == nil {
			m.files = append(m.files, meta)
		}
	}
	sc, err := a.scenarioFor(s.ID, m)
	if err != nil {
		return err
	}
	return a.launch(s, c, runPlan{answerTo: ref.ParentID, answerOf: answerID, sc: sc})
}

// selectBranch makes the conversation show the version of a message the
// client chose.
func (a *Agent) selectBranch(s *Session, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := a.writable(s); err != nil {
		return err
	}
	if _, _, _, ok := s.store.Message(id); !ok {
		return ErrMessageNotFound
	}
	if containsString(s.store.PathMessageIDs(), id) {
		return nil // shown already
	}
	s.emitLocked(map[string]any{"type": "branch_selected", "message_id": id})
	return nil
}

// feedback keeps a person's rating of an answer, and its comment.
func (a *Agent) feedback(s *Session, f wire.ClientFrame) error {
	var rating string
	if !wire.IsNull(f.Rating) {
		r, _ := wire.StringValue(f.Rating)
		if r != "up" && r != "down" {
			return errors.New(`a rating is "up", "down" or null`)
		}
		rating = r
	}
	comment := strings.TrimSpace(f.Comment)
	if utf8.RuneCountInString(comment) > MaxFeedbackComment {
		return fmt.Errorf("a comment is %d characters at most", MaxFeedbackComment)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := a.storageErr(); err != nil {
		return err
	}
	if s.count+1 > MaxEventsPerSession || s.bytes+int64(len(comment))+256 > MaxSessionBytes {
		return ErrFull
	}
	if ref, _, _, ok := s.store.Message(f.MessageID); !ok || ref.Role != "assistant" {
		return ErrMessageNotFound
	}
	ev := map[string]any{"type": "feedback", "message_id": f.MessageID, "rating": nil}
	if rating != "" {
		ev["rating"] = rating
		if comment != "" {
			ev["comment"] = comment
		}
	}
	s.emitLocked(ev)
	return nil
}

// writable checks that the session may take an event that changes no run:
// none going, the file writable, room in its log. The caller holds s.mu.
func (a *Agent) writable(s *Session) error {
	switch {
	case s.running != nil:
		return ErrBusy
	case a.closed.Load():
		return ErrClosed
	case s.count+1 > MaxEventsPerSession || s.bytes+256 > MaxSessionBytes:
		return ErrFull
	}
	return a.storageErr()
}
