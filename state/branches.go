package state

import (
	"encoding/json"
	"slices"

	"stepwise/state/wire"
)

// Branches of a conversation whose backend keeps it
// (docs/protocol-extensions.md#branches). When a backend gives its
// messages ids (a user_message's message_id, an answer_start), the store
// keeps them as a tree: each message has a parent, an edit is a new user
// message beside the one it replaces, a regenerate a new answer beside the
// old one, and the items shown are those of one path through the tree.
// The items of the messages off the path are kept with their message, so
// that switching back (branch_selected) shows them again as they were.
//
// A conversation whose messages carry no ids has no tree: everything is
// as before. Items that came before the first message with an id stay at
// the start of every path.

// MessageRef is what a message's actions need: its id, where it is among
// its versions, when it was made, an answer's feedback.
type MessageRef struct {
	ID        string
	Role      string // "user" or "assistant"
	ParentID  string // "" for the conversation's start
	CreatedAt string // RFC 3339, as the backend sent it; "" when it did not
	// Index is its place among its versions, from 1; Count how many
	// versions there are (1 when it has none other); Siblings their ids,
	// in order (nil when Count is 1).
	Index    int
	Count    int
	Siblings []string
	Feedback *wire.Feedback
}

// msgNode is one message of the tree: a user message (its items start
// with its user item) or an answer (the items up to the next message).
type msgNode struct {
	ref      MessageRef // ID, Role, ParentID, CreatedAt, Feedback
	parent   *msgNode
	children []*msgNode
	current  *msgNode // the child the path follows
	// known are the ids of the children a history named, in its order
	// (some of them may not be here).
	known []string

	pos    int     // on the path: its index in msgTree.path, else -1
	first  int     // on the path: the index in Store.items of its first item
	items  []*Item // off the path: its top-level items
	marker *Item   // the item that shows its ref: the user item, an answer's last
}

type msgTree struct {
	root msgNode // the conversation's start
	byID map[string]*msgNode
	path []*msgNode // the path shown, root excluded
}

func (t *msgTree) tail() *msgNode {
	if n := len(t.path); n > 0 {
		return t.path[n-1]
	}
	return &t.root
}

// knows reports whether the tree holds a message with that id.
func (s *Store) knows(id string) bool {
	return s.tree != nil && s.tree.byID[id] != nil
}

// beginMessage adds a message to the tree, after parentID (when set; ""
// is the conversation's start) or after the last message shown, and makes
// the path end with it. What the path showed after its parent is put away
// with its messages. A parent the store does not have counts as the last
// message shown.
func (s *Store) beginMessage(id, role, createdAt, parentID string, parentSet bool) *msgNode {
	if s.tree == nil {
		s.tree = &msgTree{byID: map[string]*msgNode{}}
		s.tree.root.pos = -1
	}
	t := s.tree
	s.closeGroup(nil)
	s.endTurn()
	parent := t.tail()
	if parentSet {
		if parentID == "" {
			parent = &t.root
		} else if p := t.byID[parentID]; p != nil {
			parent = p
		}
	}
	if parent != t.tail() {
		s.showPath(parent, false)
	}
	n := &msgNode{ref: MessageRef{ID: id, Role: role, ParentID: parent.ref.ID, CreatedAt: createdAt}, parent: parent}
	parent.children = append(parent.children, n)
	parent.current = n
	n.pos, n.first = len(t.path), len(s.items)
	t.path = append(t.path, n)
	t.byID[id] = n
	return n
}

// showPath makes the path go to target, and on along the versions last
// shown below it when follow is set. The items of the messages that leave
// the path are put away with them; those of the messages that join it
// come back as they were.
func (s *Store) showPath(target *msgNode, follow bool) {
	t := s.tree
	var chain []*msgNode
	for n := target; n != &t.root; n = n.parent {
		chain = append(chain, n)
	}
	slices.Reverse(chain)
	for _, n := range chain {
		n.parent.current = n
	}
	if follow {
		for n := target.current; n != nil; n = n.current {
			chain = append(chain, n)
		}
	}
	fork := 0
	for fork < len(t.path) && fork < len(chain) && t.path[fork] == chain[fork] {
		fork++
	}
	if fork == len(t.path) && fork == len(chain) {
		return
	}
	s.settleForBranch()
	cut := len(s.items)
	if fork < len(t.path) {
		cut = t.path[fork].first
	}
	for i := fork; i < len(t.path); i++ {
		n := t.path[i]
		end := len(s.items)
		if i+1 < len(t.path) {
			end = t.path[i+1].first
		}
		n.items = slices.Clone(s.items[n.first:end])
		n.pos = -1
	}
	clear(s.items[cut:])
	s.items = s.items[:cut]
	for i, n := range chain[fork:] {
		n.pos, n.first = fork+i, len(s.items)
		s.items = append(s.items, n.items...)
		n.items = nil
	}
	t.path = chain
	s.changes.List = true
	for _, n := range chain[fork:] {
		s.refreshRef(n)
	}
}

// settleForBranch ends what the path had open before it changes: its
// group closes, its turn ends, its cards expire.
func (s *Store) settleForBranch() {
	s.closeGroup(nil)
	for len(s.pending) > 0 {
		s.expire(s.pending[0], ToolInterrupted)
	}
	s.endTurn()
	s.lastText, s.dialectText = nil, nil
	s.msgFirst = -1
}

// refreshRef computes a message's place among its versions and shows its
// ref on its marker item.
func (s *Store) refreshRef(n *msgNode) {
	ref := refOf(n)
	if m := n.marker; m != nil && n.pos >= 0 && !sameRef(m.Message, &ref) {
		m.Message = &ref
		s.touch(m)
	}
}

// refOf is a message's ref with its place among its versions.
func refOf(n *msgNode) MessageRef {
	ref := n.ref
	ids := siblingIDs(n.parent)
	ref.Count, ref.Index = max(len(ids), 1), 1
	if i := slices.Index(ids, ref.ID); i >= 0 {
		ref.Index = i + 1
	}
	if ref.Count > 1 {
		ref.Siblings = ids
	}
	return ref
}

// siblingIDs are the ids of a message's children: those a history named,
// in its order, then the others in the order they came.
func siblingIDs(p *msgNode) []string {
	ids := slices.Clone(p.known)
	for _, c := range p.children {
		if !slices.Contains(ids, c.ref.ID) {
			ids = append(ids, c.ref.ID)
		}
	}
	return ids
}

// markAnswerRef shows an answer's ref on its last top-level item, once
// its turn has ended (endTurn).
func (s *Store) markAnswerRef() {
	if s.tree == nil {
		return
	}
	n := s.tree.tail()
	if n == &s.tree.root || n.ref.Role == "user" {
		return
	}
	var last *Item
	if len(s.items) > n.first {
		last = s.items[len(s.items)-1]
	}
	if old := n.marker; old != nil && old != last {
		old.Message = nil
		s.touch(old)
	}
	n.marker = last
	s.refreshRef(n)
}

// userMessage applies a user_message event: a message of the tree when it
// has an id (a repeat of one the store has changes nothing), with its
// files.
func (s *Store) userMessage(ev *wire.Event) {
	var n *msgNode
	if ev.MessageID != "" {
		if s.knows(ev.MessageID) {
			return
		}
		parent, set := ev.Parent()
		n = s.beginMessage(ev.MessageID, "user", ev.CreatedAt, parent, set)
	}
	s.addUserMessage(ev.UserText(), ev.Content, n)
}

// addUserMessage shows a user message with the files of its content; n,
// when the message is one of the tree's, is marked by its item.
func (s *Store) addUserMessage(text string, content json.RawMessage, n *msgNode) {
	s.addUser(text)
	it := s.items[len(s.items)-1]
	it.Attachments = s.attachmentsOf(content)
	if n != nil {
		n.marker = it
		s.refreshRef(n)
	}
}

// answerStart applies answer_start: an answer begins (a regenerate's new
// version, or the answer to the message just sent) and the agent runs.
func (s *Store) answerStart(ev *wire.Event) bool {
	if ev.MessageID == "" {
		return false
	}
	if s.knows(ev.MessageID) {
		return true
	}
	parent, set := ev.Parent()
	s.dialectText = nil
	s.beginMessage(ev.MessageID, "assistant", ev.CreatedAt, parent, set)
	s.brandPending = true
	s.msgType = ""
	s.startTurn()
	s.setStatus(StatusRunning)
	return true
}

// branchSelected applies branch_selected: the path goes through that
// message and on along the versions last shown below it.
func (s *Store) branchSelected(ev *wire.Event) bool {
	if !s.knows(ev.MessageID) {
		return false
	}
	s.showPath(s.tree.byID[ev.MessageID], true)
	return true
}

// feedbackEvent applies feedback: an answer's rating (none when Rating is
// empty) and comment.
func (s *Store) feedbackEvent(ev *wire.Event) bool {
	if !s.knows(ev.MessageID) {
		return false
	}
	n := s.tree.byID[ev.MessageID]
	n.ref.Feedback = nil
	if ev.Rating != "" {
		n.ref.Feedback = &wire.Feedback{Rating: ev.Rating, Comment: ev.Comment}
	}
	s.refreshRef(n)
	return true
}

// historyMessage starts a history message of the tree: a user message, or
// the first message of an answer (an assistant message with an id).
func (s *Store) historyMessage(m *wire.HistoryMessage, role string) *msgNode {
	if m.ID == "" || s.knows(m.ID) {
		return nil
	}
	parent, set := m.Parent()
	n := s.beginMessage(m.ID, role, m.CreatedAt, parent, set)
	if len(m.Siblings) > 0 {
		n.parent.known = slices.Clone(m.Siblings)
	}
	n.ref.Feedback = m.Feedback
	return n
}

// Message returns what the store has of a message of the tree: its ref,
// and a user message's text and files; ok is false when it has no such
// message (or only its id, named by a history among a message's
// versions: loading the history again brings the version shown).
func (s *Store) Message(id string) (ref MessageRef, text string, files []Attachment, ok bool) {
	if !s.knows(id) {
		return MessageRef{}, "", nil, false
	}
	n := s.tree.byID[id]
	ref = refOf(n)
	if n.ref.Role == "user" && n.marker != nil {
		text, files = n.marker.Text, n.marker.Attachments
	}
	return ref, text, files, true
}

// LastMessageID is the id of the last message of the path shown, "" when
// there is none (or the messages carry no ids).
func (s *Store) LastMessageID() string {
	if s.tree == nil {
		return ""
	}
	return s.tree.tail().ref.ID
}

// PathMessageIDs are the ids of the messages of the path shown, in order.
func (s *Store) PathMessageIDs() []string {
	if s.tree == nil {
		return nil
	}
	ids := make([]string, len(s.tree.path))
	for i, n := range s.tree.path {
		ids[i] = n.ref.ID
	}
	return ids
}

func sameRef(a, b *MessageRef) bool {
	if a == nil || b == nil {
		return a == b
	}
	fa, fb := a.Feedback, b.Feedback
	sameFeedback := fa == fb || (fa != nil && fb != nil && fa.Rating == fb.Rating && fa.Comment == fb.Comment)
	return a.ID == b.ID && a.Role == b.Role && a.ParentID == b.ParentID && a.CreatedAt == b.CreatedAt &&
		a.Index == b.Index && a.Count == b.Count && slices.Equal(a.Siblings, b.Siblings) && sameFeedback
}
