package app

import (
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// The controller's side of the AG-UI and AI SDK modes: every method runs in
// go-app's engine work (an action handler or a dispatch: see Controller);
// the transport (agent_js.go) and the storage (storage_js.go) hand their
// results over with ctx.Dispatch.

// agentStopper stops a request being streamed.
type agentStopper interface{ Stop() }

// agentEvents is what a stream reports, each inside a dispatch.
type agentEvents struct {
	started func()                      // the answer is a stream: frames follow
	none    func()                      // 204: nothing to resume
	frames  func(frames [][]byte)       // one read's complete events
	problem func(p *wire.StreamProblem) // the answer was not a stream
	end     func(err error)             // the stream ended (err: how, if badly)
	// silent: nothing came for Config.SilenceTimeout; the request was
	// aborted.
	silent func()
	// dropped: an event larger than maxAgentEvent was skipped.
	dropped func()
}

// conversationStore keeps conversations in the browser.
type conversationStore interface {
	Put(SavedConversation) error
	Get(id string) (SavedConversation, bool, error)
	List() ([]SavedConversation, error)
}

// errNoStorage: the browser has no IndexedDB, or refuses it (private
// mode, storage blocked, quota).
var errNoStorage = errors.New("this browser does not keep conversations")

// agentRuntime is what the controller holds in the agent modes.
type agentRuntime struct {
	stream     agentStopper // the request being streamed, nil when none
	gen        int          // counts requests: a stale one's events are dropped
	convs      conversationStore
	storageOff bool // the browser refused to keep conversations
	saveQueued bool
	paint      renderBudget // how often a streaming run is drawn
	// leftOut is how many of the oldest turns the last save left out
	// (the storage is full); trimmed, the messages a save left out
	// before this page restored the conversation. fullSaid: the page
	// said so.
	leftOut  int
	trimmed  int
	fullSaid bool
	// saving: a save is under way; saveAgain: the conversation changed
	// meanwhile. One save at a time, so that an older one never lands
	// after a newer one.
	saving, saveAgain bool
}

// saveDelay batches the saves of a streaming run.
const saveDelay = 300 * time.Millisecond

// startAgent opens the conversation of the page's session: restored at
// once from the browser's storage when it has it (and, for an AI SDK route
// that was streaming, its stream asked for again), else a new one.
func startAgent(ctx app.Context, c *Controller) {
	watchUnload()
	c.sess.State = ConnConnecting
	id := c.cfg.SessionID
	go func() {
		convs, err := openConversations()
		var rec SavedConversation
		found := false
		if err == nil {
			rec, found, err = convs.Get(id)
		}
		ctx.Dispatch(func(ctx app.Context) {
			c.sess.State = ConnOpen
			if convs == nil {
				c.agent.storageOff = true
				c.notice = c.settings.T("storage.refused")
			}
			c.agent.convs = convs
			if !found {
				newConversation(c.cfg, c.sess.Store, id)
				return
			}
			resume := restoreConversation(c.cfg, c.sess.Store, rec)
			if rec.Trimmed > 0 {
				c.agent.trimmed = rec.Trimmed
				c.notice = c.settings.T("storage.trimmed")
			}
			c.afterApply(state.Changes{Status: true, Pending: true})
			c.noteHistory(ctx) // listed in the sidebar, as a backend's history would be
			c.scrollToEnd(ctx)
			if resume && rec.UI != nil {
				c.agentStart(ctx, agentResumeRequest(c.cfg, rec.UI.ID))
			}
		})
	}()
}

// agentBusy is true while a run streams. A stream whose run has ended
// (its RUN_FINISHED or finish applied) is let go: what may still come
// after the end is nothing the next request should wait for.
func (c *Controller) agentBusy(ctx app.Context) bool {
	if c.agent.stream != nil && c.sess.Store.Status() != state.StatusRunning {
		c.agent.stream.Stop()
		c.agent.stream = nil
		c.agent.gen++
		c.saveNow(ctx)
	}
	return c.agent.stream != nil
}

// agentSend starts a run with the user's message (sendText decided the
// agent is free, and the request not too large).
func (c *Controller) agentSend(ctx app.Context, text string) {
	c.notice = ""
	req := agentRunRequest(c.cfg, c.sess.Store, text)
	c.afterApply(state.Changes{Status: true, Pending: true})
	c.agentStart(ctx, req)
	c.saveNow(ctx)
	c.noteMessage(ctx, text) // the conversations list is one for every mode
	c.scrollToEnd(ctx)
}

// agentAnswer answers a card; once every card the agent waits on has its
// answer, they go out with the next run.
func (c *Controller) agentAnswer(ctx app.Context, key string, a state.CardAnswer) {
	ready, err := c.sess.Store.AnswerCard(key, a)
	if err != nil {
		c.setForm(key, func(f *components.FormState) { f.Sending, f.Error = false, c.errorText(err) })
		return
	}
	c.afterApply(state.Changes{Pending: true, Status: true})
	c.formDone(key)
	if ready && !c.agentBusy(ctx) {
		c.agentStart(ctx, agentRunRequest(c.cfg, c.sess.Store, ""))
	}
	c.saveNow(ctx)
}

// onSubmitForm answers an interrupt's form.
func (c *Controller) onSubmitForm(ctx app.Context, a app.Action) {
	v, ok := a.Value.(components.FormCommand)
	if !ok || !c.cfg.AgentMode() {
		return
	}
	c.agentAnswer(ctx, v.Key, state.CardAnswer{Values: v.Values})
}

// agentStop aborts the run: both protocols stop a run by closing its
// stream.
func (c *Controller) agentStop(ctx app.Context) {
	if c.agent.stream != nil {
		c.agent.stream.Stop()
		c.agent.stream = nil
		c.agent.gen++
	}
	c.afterApply(c.sess.Store.StopRun())
	c.saveNow(ctx)
	c.flushQueued(ctx)
}

// agentStart sends a request and applies its stream.
func (c *Controller) agentStart(ctx app.Context, req agentRequest) {
	c.agentRequest(ctx, req, false)
}

// agentRequest sends a request and applies its stream. reconnecting marks
// an AI SDK resume asked for because the run's own stream broke: when it
// brings nothing back, the run ends with a notice instead of quietly.
func (c *Controller) agentRequest(ctx app.Context, req agentRequest, reconnecting bool) {
	c.agent.gen++
	gen := c.agent.gen
	current := func() bool { return gen == c.agent.gen }
	resume := req.Method == "GET"
	finish := func() {
		c.agent.stream = nil
		c.sess.State = ConnOpen
		c.saveNow(ctx)
		c.flushQueued(ctx)
	}
	giveUp := func(detail string) {
		c.sess.Store.EndUIResume()
		if reconnecting {
			c.afterApply(c.sess.Store.EndStreamUnexpectedly(detail))
		}
		finish()
	}
	c.agent.stream = startAgentRequest(ctx, req, c.cfg.SilenceTimeout, agentEvents{
		started: func() {
			if current() && resume {
				c.sess.State = ConnOpen
				c.afterApply(c.sess.Store.BeginUIResume())
			}
		},
		none: func() {
			if current() {
				giveUp("")
			}
		},
		frames: func(frames [][]byte) {
			if !current() {
				return
			}
			for _, f := range frames {
				c.afterApply(c.sess.Apply(f))
			}
			c.scheduleSave(ctx)
			c.paceAgentRender(ctx)
			if c.sess.Store.Status() != state.StatusRunning {
				c.flushQueued(ctx) // the run is over, its stream may linger
			}
		},
		silent: func() {
			if current() {
				c.afterApply(c.sess.Store.EndStreamTimedOut())
				finish()
			}
		},
		dropped: func() {
			if current() {
				c.notice = c.settings.T("stream.oversized", components.FormatBytes(c.settings, maxAgentEvent))
			}
		},
		problem: func(p *wire.StreamProblem) {
			if !current() {
				return
			}
			if resume {
				giveUp(p.Error()) // what was saved stays as shown
				return
			}
			c.afterApply(c.sess.Store.StreamFailed(p))
			finish()
		},
		end: func(err error) {
			if !current() || pageUnloading() || aborted(err) {
				return
			}
			if err != nil && !resume && c.cfg.Protocol == ProtocolAISDK && c.sess.Store.Status() == state.StatusRunning {
				// The connection dropped mid-run: an AI SDK route may
				// still have the stream.
				c.sess.State = ConnReconnecting
				c.agentRequest(ctx, agentResumeRequest(c.cfg, c.sess.Store.UIConversation().ID), true)
				return
			}
			if err != nil || c.sess.Store.Status() == state.StatusRunning {
				detail := ""
				if err != nil {
					detail = err.Error()
				}
				c.afterApply(c.sess.Store.EndStreamUnexpectedly(detail))
			}
			finish()
		},
	})
}

// paceAgentRender spaces the renders of a streaming run: after a render
// that took d, the next waits 3d (drawing takes at most a quarter of the
// time, whatever one item costs to draw), and what came meanwhile is
// drawn then. A page kept busy drawing a huge growing answer could not
// even take the click on Stop.
func (c *Controller) paceAgentRender(ctx app.Context) {
	now := time.Now()
	if !c.agent.paint.due(now) {
		ctx.PreventUpdate()
		if wait, ok := c.agent.paint.schedule(now); ok {
			ctx.After(wait, func(ctx app.Context) {
				c.agent.paint.scheduled = false
				c.measureRender(ctx, time.Now())
			})
		}
		return
	}
	c.measureRender(ctx, now)
}

// measureRender records, after the render that follows, how long applying
// and drawing took since start.
func (c *Controller) measureRender(ctx app.Context, start time.Time) {
	ctx.Defer(func(app.Context) {
		end := time.Now()
		c.agent.paint.rendered(end, end.Sub(start))
	})
}

// scheduleSave saves the conversation soon: a streaming run is saved in
// batches, so a reload finds (nearly) all it showed.
func (c *Controller) scheduleSave(ctx app.Context) {
	if c.agent.saveQueued {
		return
	}
	c.agent.saveQueued = true
	ctx.After(saveDelay, func(ctx app.Context) {
		c.agent.saveQueued = false
		c.saveNow(ctx)
	})
}

// saveNow saves the conversation. When the storage is full the newest
// turns that fit are saved and the page says so once; a browser that
// refuses says so once, and the conversation stays in memory. What is
// shown never changes.
func (c *Controller) saveNow(ctx app.Context) {
	convs := c.agent.convs
	if convs == nil {
		return
	}
	if c.agent.saving {
		c.agent.saveAgain = true
		return
	}
	c.agent.saving = true
	rec := saveConversation(c.cfg, c.sess.Store, c.cfg.SessionID, time.Now())
	rec.Trimmed = c.agent.trimmed
	from := c.agent.leftOut
	go func() {
		leftOut, err := saveNewestTurns(convs.Put, rec, from)
		ctx.Dispatch(func(ctx app.Context) {
			c.agent.saving = false
			c.savedConversation(convs, leftOut, err)
			if c.agent.saveAgain {
				c.agent.saveAgain = false
				c.saveNow(ctx)
			}
		})
	}()
}

// savedConversation takes a save's outcome.
func (c *Controller) savedConversation(convs conversationStore, leftOut int, err error) {
	if c.agent.convs != convs {
		return // saving stopped meanwhile
	}
	switch {
	case err == nil:
		c.agent.leftOut = max(c.agent.leftOut, leftOut)
		if leftOut > 0 && !c.agent.fullSaid {
			c.agent.fullSaid = true
			c.notice = c.settings.T("storage.full")
		}
	default:
		// Not even the newest turn fits, or the browser refuses: what
		// was saved stays, and nothing more is.
		c.agent.convs, c.agent.storageOff = nil, true
		c.notice = c.settings.T("storage.refused")
	}
}
