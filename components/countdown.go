package components

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Countdown shows the time left until Until ("question.time_left", m:ss)
// as a timer, and redraws itself each second until then: the one
// countdown of question cards and interrupt forms. (go-app renders a
// component's ancestors with it, so each second still renders the page
// around it, a small render.)
type Countdown struct {
	app.Compo
	Until    time.Time
	Settings Settings
	Class    string
	// ExpireKey, when set, is the card the countdown ends: at Until it
	// raises ActionCardExpired with it, once.
	ExpireKey string

	now     time.Time
	ticking bool
	raised  string // the ExpireKey raised for
}

func (c *Countdown) OnMount(ctx app.Context)  { c.tick(ctx) }
func (c *Countdown) OnUpdate(ctx app.Context) { c.tick(ctx) }

func (c *Countdown) tick(ctx app.Context) {
	c.now = time.Now()
	if !c.now.Before(c.Until) {
		if c.ExpireKey != "" && c.raised != c.ExpireKey {
			c.raised = c.ExpireKey
			ctx.NewActionWithValue(ActionCardExpired, c.ExpireKey)
		}
		return
	}
	if c.ticking {
		return
	}
	c.ticking = true
	ctx.After(time.Second, func(ctx app.Context) {
		c.ticking = false
		c.tick(ctx)
	})
}

func (c *Countdown) Render() app.UI {
	now := c.now
	if now.IsZero() {
		now = time.Now()
	}
	return app.Span().Class(c.Class).Attr("role", "timer").
		Text(c.Settings.T("question.time_left", formatRemaining(c.Until.Sub(now))))
}

// deadline is when a form expires: timeout after its created_at, or after
// shown when the backend sent none.
func deadline(createdAt string, shown time.Time, timeoutSeconds float64) time.Time {
	start, err := time.Parse(time.RFC3339, createdAt)
	if err != nil {
		start = shown
	}
	return start.Add(time.Duration(timeoutSeconds * float64(time.Second)))
}

// formatRemaining shows a countdown as m:ss.
func formatRemaining(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
