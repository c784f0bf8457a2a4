//go:build !(js && wasm)

package components

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/state"
)

// embedBridge needs a browser.
type embedBridge struct{}

func setupEmbed(ctx app.Context, r *Root) {}

func (b *embedBridge) observe(s *state.Store) {}
