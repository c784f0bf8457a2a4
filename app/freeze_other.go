//go:build !(js && wasm)

package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// newChunkDOM needs a browser: nothing is frozen elsewhere.
func newChunkDOM(app.Context, *Controller) chunkDOM { return nil }
