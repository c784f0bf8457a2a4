package app

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// conversationsModel is the controller's part of the conversations list.
//
// Switching conversation is a full navigation to ?session=ID (a real link):
// each page owns one session and one transport, so nothing of one
// conversation (a stream, a pending form, a draft) can leak into the next;
// links open in a new tab, copy and share like any address; back and
// forward are the browser's own. The cost is the app's start on each
// switch, from the service worker's cache.
type conversationsModel struct {
	store   ConversationStore
	list    []Conversation // newest first
	entries []components.ConversationEntry
	open    bool // the drawer, on narrow screens
	refused bool // the browser refused storage: the list lasts until the page closes
	base    *url.URL

	// remote is the backend's list of the caller's sessions
	// (sessions_list.go), set once it has answered: deletions are sent to
	// it from then on. deleted are the ids deleted in this page.
	remote  remoteSessions
	deleted map[string]bool
}

// mountConversations loads the list and handles the sidebar's actions.
func (c *Controller) mountConversations(ctx app.Context) {
	c.conv.base = app.Window().URL()
	if c.conv.store == nil {
		c.conv.store = defaultConversations()
	}
	ctx.Handle(components.ActionNewConversation, c.onNewConversation)
	ctx.Handle(components.ActionRenameConversation, c.onRenameConversation)
	ctx.Handle(components.ActionDeleteConversation, c.onDeleteConversation)
	ctx.Handle(components.ActionToggleConversations, c.onToggleConversations)
	store := c.conv.store
	remote := c.remoteSessions()
	ctx.Async(func() {
		list, err := store.List()
		ctx.Dispatch(func(ctx app.Context) { c.loadedConversations(list, err) })
		if remote == nil {
			return
		}
		rl, err := remote.List()
		if err != nil {
			return // no list there: the browser's own stays
		}
		ctx.Dispatch(func(ctx app.Context) { c.mergeRemoteList(ctx, remote, rl) })
	})
}

// remoteSessions is the backend's list of the caller's sessions, nil when
// it has none: the AG-UI and AI SDK modes keep their conversations in the
// browser only.
func (c *Controller) remoteSessions() remoteSessions {
	if c.cfg.AgentMode() || c.cfg.Replay != "" || c.cfg.SessionsPath == "" {
		return nil
	}
	return newRemoteSessions(c.cfg.SessionsPath)
}

// mergeRemoteList merges the backend's list into the page's (after the
// stored list: both come in that order from mountConversations) and stores
// what changed. Conversations deleted before it answered leave its list
// too.
func (c *Controller) mergeRemoteList(ctx app.Context, remote remoteSessions, rl wire.SessionList) {
	c.conv.remote = remote
	m := mergeRemote(c.conv.list, rl, c.sess.ID, c.conv.deleted)
	c.setConversations(m.List)
	var unlist []string
	for _, r := range rl.Sessions {
		if c.conv.deleted[r.ID] {
			unlist = append(unlist, r.ID)
		}
	}
	store := c.conv.store
	if store == nil {
		return
	}
	changed, removed := m.Changed, m.Removed
	ctx.Async(func() {
		err := putAll(store, changed)
		for _, id := range removed {
			store.Delete(id)
		}
		for _, id := range unlist {
			remote.Unlist(id)
		}
		if err != nil { // the memory store it falls back to starts from the merged list
			ctx.Dispatch(func(ctx app.Context) { c.storageRefused(err) })
		}
	})
}

// loadedConversations puts the stored list under what this page already
// added to it.
func (c *Controller) loadedConversations(list []Conversation, err error) {
	if err != nil {
		c.storageRefused(err)
	}
	for _, mine := range c.conv.list {
		list = upsertConversation(list, mine)
	}
	c.setConversations(list)
}

func (c *Controller) storageRefused(err error) {
	if !errors.Is(err, ErrStorageRefused) || c.conv.refused {
		return
	}
	c.conv.refused = true
	mem := &MemoryConversations{}
	for _, it := range c.conv.list {
		mem.Put(it)
	}
	c.conv.store = mem
}

// setConversations replaces the list (sorted here) and its entries.
func (c *Controller) setConversations(list []Conversation) {
	sortConversations(list)
	c.conv.list = list
	entries := make([]components.ConversationEntry, len(list))
	for i, it := range list {
		entries[i] = components.ConversationEntry{
			ID:      it.ID,
			Title:   it.Title,
			Href:    conversationHref(c.conv.base, it.ID),
			Current: it.ID == c.sess.ID,
		}
	}
	c.conv.entries = entries
}

// save stores one conversation on a goroutine of its own, outside the
// engine's work.
func (c *Controller) save(ctx app.Context, conv Conversation) {
	store := c.conv.store
	if store == nil {
		return
	}
	ctx.Async(func() {
		if err := store.Put(conv); err != nil {
			ctx.Dispatch(func(ctx app.Context) { c.storageRefused(err); c.conv.store.Put(conv) })
		}
	})
}

// current returns the open conversation's entry.
func (c *Controller) current() (Conversation, bool) {
	for _, it := range c.conv.list {
		if it.ID == c.sess.ID {
			return it, true
		}
	}
	return Conversation{ID: c.sess.ID}, false
}

// noteMessage records that a message was sent in the open conversation:
// it joins the list (titled by its first message) and moves to the top.
func (c *Controller) noteMessage(ctx app.Context, text string) {
	if c.sess.ID == "" || c.cfg.Replay != "" {
		return
	}
	conv, _ := c.current()
	if conv.Title == "" {
		conv.Title = TitleFromMessage(text)
	}
	conv.Updated = time.Now()
	c.setConversations(upsertConversation(c.conv.list, conv))
	c.save(ctx, conv)
}

// noteHistory lists a conversation opened by its address (a shared link,
// or one this browser forgot) once its history shows a message.
func (c *Controller) noteHistory(ctx app.Context) {
	if c.sess.ID == "" || c.cfg.Replay != "" {
		return
	}
	conv, known := c.current()
	if known && conv.Title != "" {
		return
	}
	first := firstUserMessage(c.sess.Store)
	if first == "" {
		return
	}
	conv.Title = TitleFromMessage(first)
	if !known {
		conv.Updated = time.Now()
	}
	c.setConversations(upsertConversation(c.conv.list, conv))
	c.save(ctx, conv)
}

func firstUserMessage(s *state.Store) string {
	for _, it := range s.Items() {
		if it.Kind == state.KindUser {
			return it.Text
		}
	}
	return ""
}

func (c *Controller) onNewConversation(ctx app.Context, a app.Action) {
	navigate(conversationHref(c.conv.base, ""))
}

func (c *Controller) onRenameConversation(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.RenameCommand)
	title := strings.TrimSpace(v.Title)
	if !ok || title == "" {
		return
	}
	for _, it := range c.conv.list {
		if it.ID == v.ID {
			it.Title, it.Renamed = TitleFromMessage(title), true
			c.setConversations(upsertConversation(c.conv.list, it))
			c.save(ctx, it)
			return
		}
	}
}

// onDeleteConversation forgets a conversation (the sidebar asked first).
// Deleting the open one starts a new conversation.
func (c *Controller) onDeleteConversation(ctx app.Context, a app.Action) {
	id, _ := a.Value.(string)
	if c.conv.deleted == nil {
		c.conv.deleted = map[string]bool{}
	}
	c.conv.deleted[id] = true
	list := make([]Conversation, 0, len(c.conv.list))
	for _, it := range c.conv.list {
		if it.ID != id {
			list = append(list, it)
		}
	}
	c.setConversations(list)
	c.forgetShown(ctx, id)
	store, remote := c.conv.store, c.conv.remote
	if store == nil {
		return
	}
	next := conversationHref(c.conv.base, "")
	if id == c.sess.ID {
		store.Delete(id) // before the page goes
		if remote == nil {
			navigate(next)
			return
		}
		// The next page's list must not bring it back: it goes once the
		// backend has taken it off.
		ctx.Async(func() {
			remote.Unlist(id)
			navigate(next)
		})
		return
	}
	ctx.Async(func() {
		store.Delete(id)
		if remote != nil {
			remote.Unlist(id)
		}
	})
}

func (c *Controller) onToggleConversations(ctx app.Context, a app.Action) {
	if open, ok := a.Value.(bool); ok {
		c.conv.open = open
		return
	}
	c.conv.open = !c.conv.open
}

// conversationsProps are the sidebar's props.
func (c *Controller) conversationsProps() components.ConversationList {
	return components.ConversationList{
		Entries: c.conv.entries,
		Open:    c.conv.open,
		Refused: c.conv.refused,
		Hidden:  c.cfg.Replay != "",
	}
}
