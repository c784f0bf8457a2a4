//go:build !(js && wasm)

package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// embedBridge needs a browser.
type embedBridge struct{}

func setupEmbed(ctx app.Context, c *Controller) *embedBridge { return nil }

func (b *embedBridge) observe(s *state.Store) {}
