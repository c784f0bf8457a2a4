package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"stepwise/state/wire"
)

// The user's half where the page keeps the conversation (the AG-UI and AI
// SDK modes; docs/backends.md, "The user's half in the browser-kept
// modes"). The conversation sent with each run is the path shown, in the
// protocol's own messages; the versions not shown are kept beside it
// (KeptBranches), each the rest of a path from the message it follows.
// An edit or a regenerate puts the path's rest away and starts a run from
// there; choosing another version swaps the path's rest for it. The refs
// the page's controls need (MessageRef) are put on the items from the
// path's messages: a user item for each user message, an answer's last
// item for the messages that answer it.

// KeptBranches are what a browser-kept conversation holds beyond its path.
type KeptBranches struct {
	// Off are the versions not shown.
	Off []OffBranch `json:"off,omitempty"`
	// Order is, for a message with versions (by the id of the message
	// they follow, "" for the conversation's start), their ids in order.
	Order map[string][]string `json:"order,omitempty"`
	// Feedback are the answers' ratings, by the answer's id.
	Feedback map[string]wire.Feedback `json:"feedback,omitempty"`
}

// OffBranch is the rest of a path not shown: its messages from the one
// after Parent ("" for the conversation's start), which is First, with
// the notes and answered interrupts shown among them (At counted from
// First). Each message is the protocol's, as the page wrote it (its id
// first).
type OffBranch struct {
	Parent   string            `json:"parent"`
	First    string            `json:"first"`
	User     bool              `json:"user,omitempty"` // First is a user message (an edit's)
	Messages []json.RawMessage `json:"messages"`
	Notes    []ShownNote       `json:"notes,omitempty"`
	Answered []OpenInterrupt   `json:"answered,omitempty"`
}

// The person's actions on a browser-kept conversation's messages: each
// changes the path shown, and Edited and Regenerated start a run (read it
// with NextAGUIRun or NextUIChatRequest). A backend that keeps the
// conversation takes the commands instead (ErrNotKept).
type (
	// Edited: a new version of the user message that follows ParentID
	// ("" for the conversation's start), with Text and that message's
	// files.
	Edited struct {
		_              [0]func() // not comparable: no equality code
		ParentID, Text string
	}
	// Regenerated: a new version of answer MessageID. In the AG-UI mode,
	// MessageID "" answers the last user message again after a run that
	// failed or stopped before any message of its answer: the run's note
	// goes, replaced by the new answer.
	Regenerated struct{ MessageID string }
	// BranchChosen: the path goes through version MessageID.
	BranchChosen struct{ MessageID string }
	// Rated: answer MessageID's rating ("" takes it back) and comment.
	Rated struct {
		_                          [0]func()
		MessageID, Rating, Comment string
	}
)

func (Edited) local()       {}
func (Regenerated) local()  {}
func (BranchChosen) local() {}
func (Rated) local()        {}

// ErrNoSuchMessage: the message is not on the path (or not among the
// versions) the page keeps.
var ErrNoSuchMessage = errors.New("this message is no longer in the conversation")

// msgHead is what the branch operations read of a protocol message.
type msgHead struct {
	_             [0]func() // not comparable: no equality code
	ID            string    `json:"id"`
	Role          string    `json:"role"`
	SubagentRunID string    `json:"subagentRunId,omitempty"`
}

// user: a message of the person's (a sub-agent's user messages belong to
// the answer that holds them).
func (h msgHead) user() bool { return h.Role == "user" && h.SubagentRunID == "" }

// keptPath is the path of a conversation, read from either protocol's
// conversation (AGUIConversation, UIConversation: the fields they share),
// its messages as JSON. Its fields are written back whole (no omitempty).
type keptPath struct {
	Messages []json.RawMessage `json:"messages"`
	Notes    []ShownNote       `json:"notes"`
	Answered []OpenInterrupt   `json:"answered"`
	Branches *KeptBranches     `json:"branches"`
	heads    []msgHead
}

// recast copies src into dst through JSON (a protocol's messages to raw
// ones and back).
func recast(src, dst any) {
	raw, _ := json.Marshal(src)
	_ = json.Unmarshal(raw, dst)
}

func newKeptPath(conv any) *keptPath {
	p := &keptPath{}
	recast(conv, p)
	if p.Branches == nil {
		p.Branches = &KeptBranches{}
	}
	p.heads = make([]msgHead, len(p.Messages))
	for i, m := range p.Messages {
		p.heads[i] = headOf(m)
	}
	return p
}

// headOf reads a message's head.
func headOf(m json.RawMessage) (h msgHead) {
	_ = json.Unmarshal(m, &h)
	return h
}

// index is the position of message id on the path, -1 when absent.
func (p *keptPath) index(id string) int {
	return slices.IndexFunc(p.heads, func(h msgHead) bool { return h.ID == id })
}

// parentOf is the id of the message before position i ("" at the start).
func (p *keptPath) parentOf(i int) string {
	if i <= 0 {
		return ""
	}
	return p.heads[i-1].ID
}

// siblings are the ids of the versions after parent, current among them:
// in the order kept, then the others as they came.
func siblings(br *KeptBranches, parent, current string) []string {
	ids := slices.Clone(br.Order[parent])
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	add(current)
	for _, b := range br.Off {
		if b.Parent == parent {
			add(b.First)
		}
	}
	return ids
}

// cut puts the path's rest from position i away (with the notes and
// answered interrupts after position keep) and leaves the path before it;
// the versions after i's parent keep their order.
func (p *keptPath) cut(i, keep int) {
	if i < len(p.Messages) {
		parent := p.parentOf(i)
		if p.Branches.Order == nil {
			p.Branches.Order = map[string][]string{}
		}
		p.Branches.Order[parent] = siblings(p.Branches, parent, p.heads[i].ID)
		b := OffBranch{Parent: parent, First: p.heads[i].ID, User: p.heads[i].user(), Messages: slices.Clone(p.Messages[i:])}
		p.Notes, b.Notes = splitAt(p.Notes, keep, i, func(n *ShownNote) *int { return &n.At })
		p.Answered, b.Answered = splitAt(p.Answered, keep, i, func(o *OpenInterrupt) *int { return &o.At })
		p.Branches.Off = append(p.Branches.Off, b)
	}
	p.Messages, p.heads = p.Messages[:i], p.heads[:i]
}

// splitAt splits list at the entries shown after position keep: those
// are returned with their position counted from base.
func splitAt[T any](list []T, keep, base int, at func(*T) *int) (kept, moved []T) {
	for _, e := range list {
		if *at(&e) > keep {
			*at(&e) -= base
			moved = append(moved, e)
		} else {
			kept = append(kept, e)
		}
	}
	return kept, moved
}

// answerless reports whether the path ends with a user message that no
// message answers: an AG-UI run failed or stopped before its answer's
// first message (an AI SDK error comes inside a started message).
func (p *keptPath) answerless(kept Kept) bool {
	n := len(p.heads)
	return kept == KeptAsAGUI && n > 0 && p.heads[n-1].user()
}

// dropLastTurnNotes drops the notes and answered interrupts shown after
// the path's last message: a new answer replaces them. A note of no
// message has nothing to be a version of.
func (p *keptPath) dropLastTurnNotes() {
	last := len(p.Messages) - 1
	p.Notes, _ = splitAt(p.Notes, last, 0, func(n *ShownNote) *int { return &n.At })
	p.Answered, _ = splitAt(p.Answered, last, 0, func(o *OpenInterrupt) *int { return &o.At })
}

// choose makes the path go through version id: the path's rest from
// there is put away, and the version's comes back as it was shown.
func (p *keptPath) choose(id string) error {
	bi := slices.IndexFunc(p.Branches.Off, func(b OffBranch) bool { return b.First == id })
	if bi < 0 {
		return ErrNoSuchMessage
	}
	b := p.Branches.Off[bi]
	i := 0
	if b.Parent != "" {
		if i = p.index(b.Parent) + 1; i == 0 {
			return ErrNoSuchMessage
		}
	}
	keep := i - 1
	if b.User {
		keep = i
	}
	p.Branches.Off = slices.Delete(p.Branches.Off, bi, bi+1)
	p.cut(i, keep)
	for _, m := range b.Messages {
		p.Messages, p.heads = append(p.Messages, m), append(p.heads, headOf(m))
	}
	for _, n := range b.Notes {
		n.At += i
		p.Notes = append(p.Notes, n)
	}
	for _, o := range b.Answered {
		o.At += i
		p.Answered = append(p.Answered, o)
	}
	return nil
}

// applyKept applies an action on the messages of a browser-kept
// conversation.
func (s *Store) applyKept(ev Local) (Changes, error) {
	kept := s.opts.Kept
	if kept != KeptAsAGUI && kept != KeptAsAISDK {
		return Changes{}, ErrNotKept
	}
	if r, ok := ev.(Rated); ok {
		return s.rate(r)
	}
	var agui AGUIConversation
	var ui UIConversation
	var conv any = &ui
	if kept == KeptAsAGUI {
		agui = s.AGUIConversation()
		conv = &agui
	} else {
		ui = s.UIConversation()
	}
	p := newKeptPath(conv)
	var files []keptFile
	run, regenerate, answerAgain := false, "", false
	switch ev := ev.(type) {
	case Edited:
		i := 0
		if ev.ParentID != "" {
			i = p.index(ev.ParentID) + 1
		}
		if i <= 0 && ev.ParentID != "" || i >= len(p.Messages) || !p.heads[i].user() {
			return Changes{}, ErrNoSuchMessage
		}
		files = filesOfMessage(p.Messages[i])
		if strings.TrimSpace(ev.Text) == "" && len(files) == 0 {
			return Changes{}, errors.New("an empty message")
		}
		p.cut(i, i)
		run = true
	case Regenerated:
		if ev.MessageID == "" {
			if !p.answerless(kept) {
				return Changes{}, ErrNoSuchMessage
			}
			p.dropLastTurnNotes()
			run, answerAgain = true, true
			break
		}
		i := p.index(ev.MessageID)
		if i < 0 || p.heads[i].user() {
			return Changes{}, ErrNoSuchMessage
		}
		p.cut(i, i-1)
		run, regenerate = true, ev.MessageID
	case BranchChosen:
		if err := p.choose(ev.MessageID); err != nil {
			return Changes{}, err
		}
	}
	// Written over cleared fields: JSON decoded into a slice's old
	// elements would keep the fields the new ones leave out.
	agui.Messages, agui.Notes, agui.Answered, ui.Messages, ui.Notes = nil, nil, nil, nil, nil
	recast(p, conv)
	if kept == KeptAsAGUI {
		if !run {
			agui.Interrupts = nil // they belong to the path put away
		}
		s.restoreAGUI(agui)
	} else {
		ui.Active = nil
		s.restoreUI(ui)
	}
	switch {
	case regenerate != "" || answerAgain:
		s.startRun("")
		s.brandPending, s.msgType = true, ""
		s.startTurn()
		if s.nextChat != nil {
			s.nextChat.Trigger, s.nextChat.MessageID = "regenerate-message", regenerate
		}
	case run:
		s.startRun(editedText(ev), files...)
	default:
		s.settleRestored()
	}
	s.markKeptRefs()
	s.changes.List, s.changes.Status, s.changes.Sources, s.changes.Pending = true, true, true, true
	return s.changes, nil
}

func editedText(ev Local) string {
	e, _ := ev.(Edited)
	return strings.TrimSpace(e.Text)
}

// rate keeps an answer's rating with the conversation.
func (s *Store) rate(r Rated) (Changes, error) {
	s.begin()
	br := s.keptBranches()
	if br.Feedback == nil {
		br.Feedback = map[string]wire.Feedback{}
	}
	delete(br.Feedback, r.MessageID)
	if r.Rating != "" {
		br.Feedback[r.MessageID] = wire.Feedback{Rating: r.Rating, Comment: r.Comment}
	}
	s.markKeptRefs()
	return s.changes, nil
}

// keptBranches are the conversation's, made when it has none.
func (s *Store) keptBranches() *KeptBranches {
	d := s.dialectState()
	b := &d.ui.conv.Branches
	if s.opts.Kept == KeptAsAGUI {
		b = &d.agui.conv.Branches
	}
	if *b == nil {
		*b = &KeptBranches{}
	}
	return *b
}

// settleRestored ends the last turn of a conversation shown again (its
// answer gets its copy button and actions), unless a card waits in it.
func (s *Store) settleRestored() {
	if len(s.pending) == 0 {
		s.endTurn()
	}
	s.markKeptRefs()
}

// markKeptRefs puts the path's refs on the items: each user message's on
// its user item, each answer's (its first message's id) on the answer's
// last item; the items that no longer end an answer lose theirs.
func (s *Store) markKeptRefs() {
	kept := s.opts.Kept
	if (kept != KeptAsAGUI && kept != KeptAsAISDK) || s.dialect == nil {
		return
	}
	var heads []msgHead
	if kept == KeptAsAGUI {
		for _, m := range s.dialect.agui.conv.Messages {
			heads = append(heads, msgHead{ID: m.ID, Role: m.Role, SubagentRunID: m.SubagentRunID})
		}
	} else {
		for _, m := range s.dialect.ui.conv.Messages {
			heads = append(heads, msgHead{ID: m.ID, Role: m.Role})
		}
	}
	br := s.keptBranches()
	// The refs of the user messages and answers, in order.
	var users, answers []*MessageRef
	for i := 0; i < len(heads); i++ {
		if !heads[i].user() {
			continue
		}
		parent := ""
		if i > 0 {
			parent = heads[i-1].ID
		}
		users = append(users, s.keptRef(br, heads[i].ID, parent, "user"))
		var a *MessageRef
		if i+1 < len(heads) && !heads[i+1].user() {
			a = s.keptRef(br, heads[i+1].ID, heads[i].ID, "assistant")
		}
		answers = append(answers, a)
	}
	u := -1
	for i, it := range s.items {
		var want *MessageRef
		if it.Kind == KindUser {
			u++
			if u < len(users) {
				want = users[u]
			}
		} else if last := i+1 == len(s.items) || s.items[i+1].Kind == KindUser; last && u >= 0 && u < len(answers) && !(u+1 == len(users) && s.status == StatusRunning) {
			want = answers[u]
		}
		if want == nil && kept == KeptAsAGUI && u >= 0 && u+1 == len(users) && answers[u] == nil && s.status != StatusRunning &&
			i+1 == len(s.items) && (it.Kind == KindError || it.Kind == KindStopped) {
			// A run that failed or stopped before its answer's first
			// message: the ref of no message, to answer again from here.
			want = &MessageRef{Role: "assistant", ParentID: users[u].ID, Index: 1, Count: 1}
		}
		if !sameRef(it.Message, want) {
			it.Message = want
			s.touch(it)
		}
	}
}

// keptRef is the ref of message id, which follows parent.
func (s *Store) keptRef(br *KeptBranches, id, parent, role string) *MessageRef {
	if s.status != StatusRunning {
		br.distinct(parent, id)
	}
	r := &MessageRef{ID: id, Role: role, ParentID: parent, Index: 1, Count: 1}
	if ids := siblings(br, parent, id); len(ids) > 1 {
		r.Count, r.Index, r.Siblings = len(ids), slices.Index(ids, id)+1, ids
	}
	if f, ok := br.Feedback[id]; ok && role == "assistant" {
		r.Feedback = &f
	}
	return r
}

// distinct renames the version put away that has the id of the one shown
// after parent: an agent that names its messages by their count (msg-2)
// gives a regenerated answer the id of the one before. The version put
// away takes id~N, with its rating; the one shown keeps the agent's id.
func (br *KeptBranches) distinct(parent, id string) {
	for i := range br.Off {
		b := &br.Off[i]
		if b.Parent != parent || b.First != id {
			continue
		}
		renamed := id
		for n := 1; slices.Contains(siblings(br, parent, id), renamed); n++ {
			renamed = id + "~" + strconv.Itoa(n)
		}
		if len(b.Messages) > 0 {
			b.Messages[0] = withID(b.Messages[0], id, renamed)
		}
		b.First = renamed
		if k := slices.Index(br.Order[parent], id); k >= 0 {
			br.Order[parent][k] = renamed
		}
		if f, ok := br.Feedback[id]; ok {
			br.Feedback[renamed] = f
			delete(br.Feedback, id)
		}
	}
}

// withID is message m with id renamed: the page writes a message with its
// id first.
func withID(m json.RawMessage, id, renamed string) json.RawMessage {
	was, _ := json.Marshal(id)
	rest, ok := bytes.CutPrefix(m, slices.Concat([]byte(`{"id":`), was))
	if !ok {
		return m
	}
	now, _ := json.Marshal(renamed)
	return slices.Concat([]byte(`{"id":`), now, rest)
}
