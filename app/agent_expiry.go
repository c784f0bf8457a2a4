package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// onCardExpired runs when a card's countdown ends (an AG-UI interrupt's
// expiresAt): the store expires the cards that are due (state.ExpireDue
// decides), and when the answers given to the others can now go, they go.
func (c *Controller) onCardExpired(ctx app.Context, a app.Action) {
	if !c.cfg.AgentMode() {
		return
	}
	changes, ready := c.sess.Store.ExpireDue(time.Now())
	c.afterApply(changes)
	if ready && !c.agentBusy(ctx) {
		c.agentStart(ctx, agentRunRequest(c.cfg, c.sess.Store, ""))
	}
	c.saveNow(ctx)
}
