package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/dom"
	"stepwise/app/page"
	"stepwise/app/persist"
	"stepwise/components"
)

// The conversations list's side of the controller: the page decides (the
// sidebar's model, package page); here the list is read and kept where
// the browser keeps it (package persist), and the backend's list of the
// caller's sessions asked, each on a goroutine of its own, never inside a
// dispatch, the results handed back to the page.

// mountConversations loads the list and handles the sidebar's actions.
func (c *Controller) mountConversations(ctx app.Context) {
	c.list = persist.Local()
	c.handle(ctx, components.ActionNewConversation, func(app.Action) page.Msg { return page.NewConversation{} })
	c.handle(ctx, components.ActionRenameConversation, value[components.RenameCommand])
	c.handle(ctx, components.ActionDeleteConversation, func(a app.Action) page.Msg {
		id, _ := a.Value.(string)
		return page.DeleteConversation{ID: id}
	})
	c.handle(ctx, components.ActionToggleConversations, func(a app.Action) page.Msg {
		if open, ok := a.Value.(bool); ok {
			return page.ToggleConversations{Open: &open}
		}
		return page.ToggleConversations{}
	})
	store, remote := c.list, c.backend.Traits().Sessions
	ctx.Async(func() {
		list, err := store.List()
		dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.ListLoaded{List: list, Err: err}) })
		if remote == nil {
			return
		}
		rl, err := remote.List()
		if err != nil {
			return // no list there: the browser's own stays
		}
		dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.RemoteListed{List: rl}) })
	})
}

// runList carries out the list's commands.
func (c *Controller) runList(ctx app.Context, cmd page.Cmd) {
	store, remote := c.list, c.backend.Traits().Sessions
	refused := func(err error) {
		dom.Dispatch(ctx, func(ctx app.Context) { c.update(ctx, page.ListRefused{Err: err}) })
	}
	switch cmd := cmd.(type) {
	case page.PutConversation:
		if store == nil {
			return
		}
		ctx.Async(func() {
			if err := store.Put(cmd.Conversation); err != nil {
				refused(err)
			}
		})
	case page.MergeList:
		if store == nil {
			return
		}
		ctx.Async(func() {
			err := persist.PutAll(store, cmd.Changed)
			for _, id := range cmd.Removed {
				store.Delete(id)
			}
			for _, id := range cmd.Unlist {
				remote.Unlist(id)
			}
			if err != nil { // the memory store it falls back to starts from the merged list
				refused(err)
			}
		})
	case page.ForgetConversation:
		if store == nil {
			return
		}
		if cmd.Then != "" {
			store.Delete(cmd.ID) // before the page goes
			if !cmd.Unlist || remote == nil {
				navigate(cmd.Then)
				return
			}
			// The next page's list must not bring it back: it goes once
			// the backend has taken it off.
			ctx.Async(func() {
				remote.Unlist(cmd.ID)
				navigate(cmd.Then)
			})
			return
		}
		ctx.Async(func() {
			store.Delete(cmd.ID)
			if cmd.Unlist && remote != nil {
				remote.Unlist(cmd.ID)
			}
		})
	case page.KeepListInMemory:
		mem := &persist.MemoryConversations{}
		persist.PutAll(mem, cmd.List)
		c.list = mem
	}
}
