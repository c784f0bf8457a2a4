package page

import (
	"errors"
	"net/url"
	"strings"

	"stepwise/app/backend"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// conversations is the sidebar's model: the conversations this browser
// knows, merged once with the backend's list of the caller's sessions.
//
// Switching conversation is a full navigation to ?session=ID (a real link):
// each page owns one session and one backend, so nothing of one
// conversation (a stream, a pending form, a draft) can leak into the next;
// links open in a new tab, copy and share like any address; back and
// forward are the browser's own. The cost is the app's start on each
// switch, from the service worker's cache.
type conversations struct {
	list    []entry // newest first
	entries []components.ConversationEntry
	open    bool // the drawer, on narrow screens
	refused bool // the browser refused storage: the list lasts until the page closes
	base    *url.URL

	// remote: the backend's list has answered; deletions are sent to it
	// from then on. deleted are the ids deleted in this page.
	remote  bool
	deleted map[string]bool
}

// conversationsUpdate applies the sidebar's messages.
func (m *Model) conversationsUpdate(msg Msg) {
	l := &m.list
	switch msg := msg.(type) {
	case NewConversation:
		m.do(Navigate{Href: conversationHref(l.base, "")})
	case components.RenameCommand:
		title := strings.TrimSpace(msg.Title)
		if title == "" {
			return
		}
		for _, it := range l.list {
			if it.ID == msg.ID {
				it.Title, it.Renamed = TitleFromMessage(title), true
				m.setConversations(persist.Upsert(l.list, it))
				m.do(PutConversation{Conversation: it})
				return
			}
		}
	case DeleteConversation:
		m.deleteConversation(msg.ID)
	case ToggleConversations:
		if msg.Open != nil {
			l.open = *msg.Open
			return
		}
		l.open = !l.open
	case ListLoaded:
		// The stored list goes under what this page already added to it.
		if msg.Err != nil {
			m.listRefused(msg.Err)
		}
		list := msg.List
		for _, mine := range l.list {
			list = persist.Upsert(list, mine)
		}
		m.setConversations(list)
	case RemoteListed:
		m.mergeRemote(msg.List)
	case ListRefused:
		m.listRefused(msg.Err)
	}
}

// listRefused: the browser refuses to keep the list; it goes on in memory
// for as long as the page is open, and the sidebar says so.
func (m *Model) listRefused(err error) {
	if !errors.Is(err, persist.ErrStorageRefused) || m.list.refused {
		return
	}
	m.list.refused = true
	m.do(KeepListInMemory{List: append([]entry(nil), m.list.list...)})
}

// mergeRemote merges the backend's list into the page's (it comes after
// the stored list) and stores what changed. Conversations deleted before
// it answered leave its list too.
func (m *Model) mergeRemote(rl wire.SessionList) {
	l := &m.list
	l.remote = true
	merged := mergeRemote(l.list, rl, m.id, l.deleted)
	m.setConversations(merged.List)
	var unlist []string
	for _, r := range rl.Sessions {
		if l.deleted[r.ID] {
			unlist = append(unlist, r.ID)
		}
	}
	m.do(MergeList{Changed: merged.Changed, Removed: merged.Removed, Unlist: unlist})
}

// deleteConversation forgets a conversation. Deleting the open one starts
// a new conversation, once the entry is gone (from the backend's list
// too: the next page's list must not bring it back).
func (m *Model) deleteConversation(id string) {
	l := &m.list
	if l.deleted == nil {
		l.deleted = map[string]bool{}
	}
	l.deleted[id] = true
	list := make([]entry, 0, len(l.list))
	for _, it := range l.list {
		if it.ID != id {
			list = append(list, it)
		}
	}
	m.setConversations(list)
	m.do(backend.Forget{ID: id})
	f := ForgetConversation{ID: id, Unlist: l.remote}
	if id == m.id {
		f.Then = conversationHref(l.base, "")
	}
	m.do(f)
}

// setConversations replaces the list (sorted here) and its entries.
func (m *Model) setConversations(list []entry) {
	l := &m.list
	persist.Sort(list)
	l.list = list
	entries := make([]components.ConversationEntry, len(list))
	for i, it := range list {
		entries[i] = components.ConversationEntry{
			ID:      it.ID,
			Title:   it.Title,
			Href:    conversationHref(l.base, it.ID),
			Current: it.ID == m.id,
		}
	}
	l.entries = entries
}

// current returns the open conversation's entry.
func (m *Model) current() (entry, bool) {
	for _, it := range m.list.list {
		if it.ID == m.id {
			return it, true
		}
	}
	return entry{ID: m.id}, false
}

// noteMessage records that a message was sent in the open conversation:
// it joins the list (titled by its first message) and moves to the top.
func (m *Model) noteMessage(text string) {
	if m.id == "" || !m.traits.Listed {
		return
	}
	conv, _ := m.current()
	if conv.Title == "" {
		conv.Title = TitleFromMessage(text)
	}
	conv.Updated = m.now()
	m.setConversations(persist.Upsert(m.list.list, conv))
	m.do(PutConversation{Conversation: conv})
}

// noteHistory lists a conversation opened by its address (a shared link,
// or one this browser forgot) once its history shows a message.
func (m *Model) noteHistory() {
	if m.id == "" || !m.traits.Listed {
		return
	}
	conv, known := m.current()
	if known && conv.Title != "" {
		return
	}
	first := firstUserMessage(m.store)
	if first == "" {
		return
	}
	conv.Title = TitleFromMessage(first)
	if !known {
		conv.Updated = m.now()
	}
	m.setConversations(persist.Upsert(m.list.list, conv))
	m.do(PutConversation{Conversation: conv})
}

func firstUserMessage(s *state.Store) string {
	for _, it := range s.Items() {
		if it.Kind == state.KindUser {
			return it.Text
		}
	}
	return ""
}

// props are the sidebar's props.
func (l *conversations) props(listed bool) components.ConversationList {
	return components.ConversationList{
		Entries: l.entries,
		Open:    l.open,
		Refused: l.refused,
		Hidden:  !listed,
	}
}

// conversationHref is the address of conversation id (a new one for ""),
// keeping the page's other parameters (language, transport, ...).
func conversationHref(base *url.URL, id string) string {
	q := url.Values{}
	path := "/"
	if base != nil {
		q = base.Query()
		if base.Path != "" {
			path = base.Path
		}
	}
	if id == "" {
		q.Del("session")
	} else {
		q.Set("session", id)
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}
