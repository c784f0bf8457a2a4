package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
	"stepwise/state/wire"
)

// The controller's side of what a native conversation last showed
// (lastshown.go): kept while the page is live, shown when a reload finds
// no server, replaced by the live history once it answers.

// shownDelay batches the snapshots of a streaming run.
const shownDelay = time.Second

// lastShownModel is what the controller holds of it.
type lastShownModel struct {
	store    shownStore // nil: nothing is kept (replay, the agent modes, no storage)
	recorder shownRecorder
	queued   bool // a snapshot is due
	saving   bool // one is being written
	live     bool // the live history has come: no snapshot is shown again
	tried    bool // the snapshot was looked for
	// at is when the snapshot shown was saved; zero when the page shows
	// the live conversation.
	at time.Time
	// missing: offline, and no snapshot of this conversation was kept.
	missing bool
}

// mountLastShown opens the store of snapshots in a live native page.
func (c *Controller) mountLastShown() {
	if c.cfg.Replay != "" || c.cfg.AgentMode() {
		return
	}
	c.shown.store = openShownStore()
}

// keepHistory follows a live history: the page now shows it.
func (c *Controller) keepHistory(ctx app.Context, h *wire.History) {
	c.shown.live, c.shown.at, c.shown.missing = true, time.Time{}, false
	if h == nil {
		c.shown.recorder = shownRecorder{} // after a reset without history: nothing newer is kept
	}
	if c.shown.store == nil || h == nil {
		return
	}
	c.shown.recorder.loaded(h)
	c.scheduleShown(ctx)
}

// keepEvents follows the stream events the page applied.
func (c *Controller) keepEvents(ctx app.Context, frames [][]byte) {
	if c.shown.store == nil || !c.shown.live {
		return
	}
	c.shown.recorder.applied(frames)
	c.scheduleShown(ctx)
}

func (c *Controller) scheduleShown(ctx app.Context) {
	if c.shown.queued || c.shown.saving {
		c.shown.queued = true
		return
	}
	c.shown.queued = true
	ctx.After(shownDelay, c.saveShown)
}

// saveShown writes the snapshot, one at a time.
func (c *Controller) saveShown(ctx app.Context) {
	c.shown.queued = false
	now := time.Now()
	data, err := c.shown.recorder.snapshot(now)
	if err != nil || data == nil {
		return // too big: the last snapshot that fitted stays
	}
	c.shown.saving = true
	store, id := c.shown.store, c.cfg.SessionID
	ctx.Async(func() {
		store.Put(id, now, data) // a browser that refuses keeps nothing: the page works as before
		ctx.Dispatch(func(ctx app.Context) {
			c.shown.saving = false
			if c.shown.queued {
				c.shown.queued = false
				c.scheduleShown(ctx)
			}
		})
	})
}

// offlineAtStart shows what the conversation last showed when the page
// cannot reach its server before the live history came: once, from the
// browser's store, and only while the history has still not come.
func (c *Controller) offlineAtStart(ctx app.Context) {
	if c.shown.store == nil || c.shown.live || c.shown.tried || c.cfg.SessionID == "" {
		return
	}
	c.shown.tried = true
	store, id := c.shown.store, c.cfg.SessionID
	opts := storeOptions(c.cfg)
	ctx.Async(func() {
		data, ok, _ := store.Get(id)
		var snap lastShown
		if ok {
			snap, ok = decodeLastShown(data)
		}
		var loaded *state.Store
		if ok {
			if h, err := wire.DecodeHistory(snap.History); err != nil {
				ok = false
			} else {
				loaded = state.New(opts)
				loaded.LoadHistory(h)
				for _, e := range snap.Events {
					loaded.ApplyJSON(e)
				}
			}
		}
		ctx.Dispatch(func(ctx app.Context) {
			if c.shown.live {
				return // the server answered meanwhile
			}
			if !ok {
				c.shown.missing = len(c.sess.Store.Items()) == 0
				return
			}
			c.shown.at = time.UnixMilli(snap.Saved)
			c.sess.Store = loaded
			c.afterApply(state.Changes{List: true, Status: true, Pending: true, Sources: true})
			c.unfreezeAll(ctx)
			c.draw.forget()
			c.draw.holdBack(0, chunkCount(len(c.sess.Store.Items())))
			c.scrollToEnd(ctx)
		})
	})
}

// connectedWithoutHistory: the connection opened while the page shows a
// snapshot and no live history came (its request failed): the stream
// will bring the conversation from its start, so the snapshot goes.
func (c *Controller) connectedWithoutHistory(ctx app.Context) {
	if c.shown.at.IsZero() || c.shown.live {
		return
	}
	c.shown.at = time.Time{}
	c.sess.Store = state.New(storeOptions(c.cfg))
	c.afterApply(state.Changes{List: true, Status: true, Pending: true, Sources: true})
	c.unfreezeAll(ctx)
	c.draw.forget()
}

// forgetShown deletes the snapshot of a conversation the user deleted.
func (c *Controller) forgetShown(ctx app.Context, id string) {
	if store := c.shown.store; store != nil {
		ctx.Async(func() { store.Delete(id) })
	}
}

// lastShownNote is the banner's words: the page shows a snapshot (and
// when it was saved), or has none to show offline; "" otherwise.
func (c *Controller) lastShownNote(now time.Time) string {
	switch {
	case !c.shown.at.IsZero():
		at := c.shown.at.Local()
		when := at.Format("15:04")
		if y, m, d := at.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
			when = at.Format("2006-01-02 15:04")
		}
		return c.settings.T("offline.last_shown", when)
	case c.shown.missing && c.offline():
		return c.settings.T("offline.not_kept")
	}
	return ""
}
