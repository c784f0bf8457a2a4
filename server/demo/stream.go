package demo

import (
	"context"
	"time"
)

// pump sends the reset frame or the backlog, then live events and a
// keep-alive ping now and then, until a send fails or ctx ends. It reports
// whether the subscription was dropped for falling behind (the client then
// resumes).
func pump(ctx context.Context, sub *Subscription, send func([]byte) bool, ping func() bool) (fellBehind bool) {
	if sub.Reset != nil && !send(sub.Reset) {
		return false
	}
	for {
		piece, err := sub.NextBacklog()
		if err != nil {
			return false // the client resumes from what it has
		}
		if piece == nil {
			break
		}
		for _, ev := range piece {
			if !send(ev) {
				return false
			}
		}
	}
	ticker := time.NewTicker(keepAlive)
	defer ticker.Stop()
	for {
		select {
		case ev, ok := <-sub.Live:
			if !ok {
				return true
			}
			if !send(ev) {
				return false
			}
		case <-ticker.C:
			if !ping() {
				return false
			}
		case <-ctx.Done():
			return false
		}
	}
}
